#pragma once

// The CPU features each compiled kernel set needs, written once: GCC's
// target names, which the kernels' target pragmas (isa/target.hpp) and
// the CPUID test of each implementation (implementation.cpp) both read.
// Macros, as a pragma's text must be a literal; each list is whole (a wider
// set repeats the narrower one's names) so that it reads as it compiles.

#define NQUEENS_FEATURES_PORTABLE ""
#define NQUEENS_FEATURES_AVX2 "avx2,bmi,bmi2,popcnt"
#define NQUEENS_FEATURES_AVX512 "avx2,bmi,bmi2,popcnt,avx512f,avx512bw,avx512vl"
// VPOPCNTDQ, VBMI and GFNI (Ice Lake, Zen 4 and later: every CPU with the
// first has the others but the Xeon Phi): the quadrant kernel counts each
// block with vpopcntq instead of an adder tree, and transposes its blocks
// with byte shuffles and affine transforms.
#define NQUEENS_FEATURES_AVX512_VPOPCNTDQ \
  "avx2,bmi,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi,gfni"
