#pragma once

// What each implementation's header (isa/<id>.hpp) ends with, once it has
// defined NQUEENS_ISA and its NQUEENS_HAS_* flags: its kernels' target
// region, from its features (NQUEENS_FEATURES_<id>, features.hpp), and a
// check that the flags say what those features are, so that a header and
// its list entry cannot disagree.

#include "isa/features.hpp"
#include "isa/target.hpp"

#define NQUEENS_ISA_FEATURES NQUEENS_CONCAT(NQUEENS_FEATURES_, NQUEENS_ISA)
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_OF(NQUEENS_ISA)

static_assert(NQUEENS_HAS_AVX2 == nqueens::detail::lists_feature(NQUEENS_ISA_FEATURES, "avx2"));
static_assert(NQUEENS_HAS_BMI2 == nqueens::detail::lists_feature(NQUEENS_ISA_FEATURES, "bmi2"));
static_assert(NQUEENS_HAS_AVX512 == nqueens::detail::lists_feature(NQUEENS_ISA_FEATURES, "avx512f"));
static_assert(NQUEENS_HAS_VPOPCNTDQ == nqueens::detail::lists_feature(NQUEENS_ISA_FEATURES, "avx512vpopcntdq"));
static_assert(NQUEENS_HAS_GFNI == nqueens::detail::lists_feature(NQUEENS_ISA_FEATURES, "gfni"));
