#pragma once

// The "portable" implementation: any x86-64: GCC's generic vectors lowered to SSE2.
// Included first by each of its kernel sources: its id (NQUEENS_ISA: the
// kernels' namespace, its entry in NQUEENS_EACH_IMPLEMENTATION, its
// features NQUEENS_FEATURES_portable) and what its kernels may use.

#define NQUEENS_ISA portable
#define NQUEENS_HAS_AVX2 0
#define NQUEENS_HAS_BMI2 0
#define NQUEENS_HAS_AVX512 0
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
#include "isa/kernel_set.hpp"
