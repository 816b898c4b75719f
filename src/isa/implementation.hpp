#pragma once

// One object per compiled set of hot kernels, as simdjson's implementations:
// its name, the public instruction set it implements and the CPU features it
// needs (NQUEENS_FEATURES_<id>, isa/features.hpp), in one list
// (NQUEENS_EACH_IMPLEMENTATION, below). Each implementation has one header,
// isa/<id>.hpp, that each of its kernel sources includes first (its id and
// NQUEENS_HAS_* flags; kernel_set.hpp derives its target region and checks
// the flags). No engine is named here: each keeps its own table of kernels
// by implementation index (kernels/search.cpp,
// engines/quadrant/quadrant_kernels.cpp), the list expanded, so that adding
// an implementation is its entry in the list, its features, its header, and
// one kernel source per engine (a missing source fails to link). A new
// public name also takes one value of nqueens::isa and its line in isa.cpp's
// named_isas; docs/engines.md walks through it.

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "isa/features.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::detail {

struct implementation {
  /// "avx512+vpopcntdq": the kernels' own name (tests and benchmarks).
  std::string_view name;
  /// The public instruction set it implements; several may (the widest the
  /// CPU runs is chosen).
  isa kernels;
  /// GCC's names of the CPU features it needs, comma-separated (features.hpp).
  std::string_view features;
  /// Its place in implementations(): the engines' kernel tables' index.
  std::size_t index;
  /// True when this CPU, and its operating system, have every feature.
  bool cpu_runs() const noexcept;
  /// True when it runs and is fast here: not where it needs BMI2 and the
  /// CPU's pdep and pext are microcode (slow_bmi2). implementation_for
  /// chooses among these; tests run every one the CPU runs.
  bool cpu_prefers() const noexcept;
};

/// The implementations this build holds, narrowest first: X(id, name,
/// public instruction set) each. `id` names its header (isa/<id>.hpp), its
/// features (NQUEENS_FEATURES_<id>, features.hpp), its kernels' namespace
/// and their tables' entries (<id>_search_kernels, <id>_quadrant_kernels);
/// `name` is what tests and benchmarks call it; several may implement one
/// public set (the widest the CPU runs is chosen). Other processors than
/// x86-64 (AArch64, say) have the portable kernels alone: their sources
/// alone are built there (src/CMakeLists.txt, NQUEENS_X86_64).
#if defined(__x86_64__)
#define NQUEENS_EACH_IMPLEMENTATION(X)  \
  X(portable, "portable", portable)     \
  X(avx2_no_pdep, "avx2-no-pdep", avx2) \
  X(avx2, "avx2", avx2)                 \
  X(avx512, "avx512", avx512)           \
  X(avx512_vpopcntdq, "avx512+vpopcntdq", avx512)
#else
#define NQUEENS_EACH_IMPLEMENTATION(X) X(portable, "portable", portable)
#endif

/// Their names, in the order of implementations() and of the engines'
/// kernel tables.
#define NQUEENS_IMPLEMENTATION_NAME(id, name, kernels) name,
inline constexpr auto implementation_names =
    std::to_array<std::string_view>({NQUEENS_EACH_IMPLEMENTATION(NQUEENS_IMPLEMENTATION_NAME)});
#undef NQUEENS_IMPLEMENTATION_NAME
inline constexpr std::size_t implementation_count = implementation_names.size();

/// The index of the implementation named `name`; not a constant expression
/// (so a compile error in a kernel table) for a name not in the list.
constexpr std::size_t implementation_index(std::string_view name) {
  for (std::size_t k = 0; k < implementation_names.size(); ++k) {
    if (implementation_names[k] == name) return k;
  }
  throw "no implementation of this name";
}

/// One engine's kernels by implementation, filled by name at compile time
/// (put), and complete() once each implementation has its entry: what
/// every engine's table is (kernels/search.cpp,
/// engines/quadrant/quadrant_kernels.cpp).
template <typename Kernels>
class kernel_table {
 public:
  constexpr kernel_table& put(std::string_view name, const Kernels& kernels) {
    const std::size_t k = implementation_index(name);
    entries_[k] = &kernels;
    filled_[k] = true;
    return *this;
  }
  constexpr bool complete() const noexcept {
    return std::ranges::all_of(filled_, [](bool filled) { return filled; });
  }
  const Kernels& operator[](std::size_t index) const noexcept { return *entries_[index]; }

 private:
  std::array<const Kernels*, implementation_names.size()> entries_{};
  std::array<bool, implementation_names.size()> filled_{};
};

/// Every implementation this build holds, narrowest first.
std::span<const implementation> implementations() noexcept;

/// The widest implementation of `kernels` this CPU runs and prefers (its
/// narrowest where it prefers none). Precondition: cpu_supports(kernels).
const implementation& implementation_for(isa kernels) noexcept;

/// True when this CPU has the feature GCC names `feature` ("avx2", "gfni");
/// false for a name it does not know.
bool cpu_has(std::string_view feature) noexcept;

/// True on CPUs whose pdep and pext (BMI2) are microcode: AMD Zen 1 and 2
/// (families 17h's EPYC Naples and Rome, Ryzen 1000 to 4000).
bool slow_bmi2() noexcept;

/// True when cpu_has knows `feature` (a test checks every list's names).
bool feature_known(std::string_view feature) noexcept;

}  // namespace nqueens::detail
