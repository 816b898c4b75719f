#pragma once

// The "avx512" implementation: AVX-512 CPUs without VPOPCNTDQ (Skylake-X, Cascade Lake).
// Included first by each of its kernel sources: its id (NQUEENS_ISA: the
// kernels' namespace, its entry in NQUEENS_EACH_IMPLEMENTATION, its
// features NQUEENS_FEATURES_avx512) and what its kernels may use.

#define NQUEENS_ISA avx512
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_HAS_AVX512 1
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
#include "isa/kernel_set.hpp"
