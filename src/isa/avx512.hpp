#pragma once

// The "avx512" implementation: AVX-512 CPUs without VPOPCNTDQ (Skylake-X, Cascade Lake).
// Included first by each of its kernel sources (quadrant_kernel_<isa>.cpp,
// search_<isa>.cpp): the namespace its kernels live in, the target
// region they compile in (target.hpp) and the features they may use,
// since GCC defines no __AVX2__ and friends inside such a region. Its
// name, public instruction set and CPUID features are its entry in
// NQUEENS_EACH_IMPLEMENTATION (implementation.hpp).

#include "isa/target.hpp"

#define NQUEENS_ISA avx512
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX512
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 1
#define NQUEENS_HAS_AVX512 1
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
