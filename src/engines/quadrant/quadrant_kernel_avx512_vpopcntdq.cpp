// The quadrant kernels for AVX-512 CPUs with VPOPCNTDQ, VBMI and GFNI (Ice
// Lake, Zen 4 and later).
#define NQUEENS_ISA avx512_vpopcntdq
#define NQUEENS_HAS_AVX512 1
#define NQUEENS_HAS_VPOPCNTDQ 1
#define NQUEENS_HAS_GFNI 1
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX512_VPOPCNTDQ
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
