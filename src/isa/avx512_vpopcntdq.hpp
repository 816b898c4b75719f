#pragma once

// The "avx512+vpopcntdq" implementation: AVX-512 CPUs with VPOPCNTDQ, VBMI and GFNI (Ice
// Lake, Zen 4 and later).
// Included first by each of its kernel sources: its id (NQUEENS_ISA: the
// kernels' namespace, its entry in NQUEENS_EACH_IMPLEMENTATION, its
// features NQUEENS_FEATURES_avx512_vpopcntdq) and what its kernels may use.

#define NQUEENS_ISA avx512_vpopcntdq
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_HAS_AVX512 1
#define NQUEENS_HAS_VPOPCNTDQ 1
#define NQUEENS_HAS_GFNI 1
#include "isa/kernel_set.hpp"
