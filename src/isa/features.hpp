#pragma once

// The CPU features each compiled kernel set needs, written once: GCC's
// target names, which the kernels' target pragmas (isa/target.hpp) and
// the CPUID test of each implementation (implementation.cpp) both read.
// Macros, as a pragma's text must be a literal, named by the implementation's
// id (NQUEENS_FEATURES_<id>, implementation.hpp) so that its header and its
// list entry find them from the id alone; each list is whole (a wider set
// repeats the narrower one's names) so that it reads as it compiles.

#define NQUEENS_FEATURES_portable ""
#define NQUEENS_FEATURES_avx2 "avx2,bmi,bmi2,popcnt"
// The same without BMI2: for CPUs whose pdep and pext are microcode (AMD
// Zen 1 and 2, tens to hundreds of cycles each, against 3 elsewhere), where
// the shifts and masks the kernels fall back on are faster.
#define NQUEENS_FEATURES_avx2_no_pdep "avx2,bmi,popcnt"
// GCC's avx512f implies FMA, and with avx512vl it emits AVX512DQ's
// vextracti64x2 (GCC 12, the avx512 sieve): both are named, so that a CPU
// (or a virtual machine) without them is never given these kernels. Every
// AVX-512 CPU with BW and VL has both.
#define NQUEENS_FEATURES_avx512 "avx2,bmi,bmi2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512dq"
// VPOPCNTDQ, VBMI and GFNI (Ice Lake, Zen 4 and later: every CPU with the
// first has the others but the Xeon Phi): the quadrant kernel counts each
// block with vpopcntq instead of an adder tree, and transposes its blocks
// with byte shuffles and affine transforms.
#define NQUEENS_FEATURES_avx512_vpopcntdq \
  "avx2,bmi,bmi2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512dq,avx512vpopcntdq,avx512vbmi,gfni"

#include <string_view>

namespace nqueens::detail {

/// Whether the comma-separated `list` names `feature`: what kernel_set.hpp
/// checks each implementation's NQUEENS_HAS_* flags against.
constexpr bool lists_feature(std::string_view list, std::string_view feature) noexcept {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (list.substr(0, comma) == feature) return true;
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return false;
}

}  // namespace nqueens::detail
