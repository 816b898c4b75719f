#pragma once

// The "avx2-no-pdep" implementation: AVX2 without BMI2, chosen over "avx2"
// where pdep and pext are microcode (AMD Zen 1 and 2: slow_bmi2). Included
// first by each of its kernel sources, as avx2.hpp is.

#define NQUEENS_ISA avx2_no_pdep
#define NQUEENS_HAS_AVX2 1
#define NQUEENS_HAS_BMI2 0
#define NQUEENS_HAS_AVX512 0
#define NQUEENS_HAS_VPOPCNTDQ 0
#define NQUEENS_HAS_GFNI 0
#include "isa/kernel_set.hpp"
