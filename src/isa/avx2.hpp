#pragma once

// The "avx2" implementation: AVX2 + BMI2 CPUs (Haswell, Zen 1..3).
// Included first by each of its kernel sources: its id (NQUEENS_ISA: the
// kernels' namespace, its entry in NQUEENS_EACH_IMPLEMENTATION, its
// features NQUEENS_FEATURES_avx2) and what its kernels may use.

#define NQUEENS_ISA avx2
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_HAS_AVX512 0
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
#include "isa/kernel_set.hpp"
