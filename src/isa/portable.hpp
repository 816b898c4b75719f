#pragma once

// The "portable" implementation: Any x86-64: GCC's generic vectors lowered to SSE2.
// Included first by each of its kernel sources (quadrant_kernel_<isa>.cpp,
// search_<isa>.cpp): the namespace its kernels live in, the target
// region they compile in (target.hpp) and the features they may use,
// since GCC defines no __AVX2__ and friends inside such a region. Its
// name, public instruction set and CPUID features are its entry in
// NQUEENS_EACH_IMPLEMENTATION (implementation.hpp).

#include "isa/target.hpp"

#define NQUEENS_ISA portable
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_BASELINE
#define NQUEENS_HAS_AVX2 0
#define NQUEENS_HAS_BMI2 0
#define NQUEENS_HAS_AVX512 0
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
