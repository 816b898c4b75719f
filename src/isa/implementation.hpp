#pragma once

// One object per compiled set of hot kernels, as simdjson's implementations:
// its name, the public instruction set it implements and the CPU features it
// needs (isa/features.hpp), in one list (implementation.cpp). No engine is
// named here: each keeps its own table of kernels by implementation index
// (kernels/search.cpp, engines/quadrant/quadrant_kernels.cpp), filled by
// name (implementation_index), so adding an engine touches no file of isa/,
// and adding an implementation is its name here, its entry and features in
// implementation.cpp, and one entry in each of those tables (their
// static_asserts find any left empty). A new public name also takes one value of
// nqueens::isa and its place in isa.cpp's every_isa; docs/engines.md walks
// through it.

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

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
};

/// The implementations this build holds, narrowest first: their names, in
/// the order of implementations() and of the engines' kernel tables.
inline constexpr std::array<std::string_view, 4> implementation_names = {"portable", "avx2", "avx512",
                                                                         "avx512+vpopcntdq"};
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
    for (const bool filled : filled_) {
      if (!filled) return false;
    }
    return true;
  }
  const Kernels& operator[](std::size_t index) const noexcept { return *entries_[index]; }

 private:
  std::array<const Kernels*, implementation_names.size()> entries_{};
  std::array<bool, implementation_names.size()> filled_{};
};

/// Every implementation this build holds, narrowest first.
std::span<const implementation> implementations() noexcept;

/// The widest implementation of `kernels` this CPU runs. Precondition:
/// cpu_supports(kernels).
const implementation& implementation_for(isa kernels) noexcept;

/// True when this CPU has the feature GCC names `feature` ("avx2", "gfni");
/// false for a name it does not know.
bool cpu_has(std::string_view feature) noexcept;

/// True when cpu_has knows `feature` (a test checks every list's names).
bool feature_known(std::string_view feature) noexcept;

}  // namespace nqueens::detail
