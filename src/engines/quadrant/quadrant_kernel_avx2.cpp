// The quadrant kernels for AVX2 + BMI2 CPUs.
#define NQUEENS_ISA avx2
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX2
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
