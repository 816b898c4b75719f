// The quadrant kernels for AVX-512 CPUs without VPOPCNTDQ (Skylake-X, Cascade Lake).
#define NQUEENS_ISA avx512
#define NQUEENS_HAS_AVX512 1
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX512
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
