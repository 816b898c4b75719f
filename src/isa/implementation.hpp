#pragma once

// One object per compiled set of hot kernels, as simdjson's implementations:
// its name, the public instruction set it implements and the CPU features it
// needs (isa/features.hpp), in one list (implementation.cpp). No engine is
// named here: each keeps its own table of kernels by implementation index
// (kernels/search.cpp, engines/quadrant/quadrant_kernels.cpp), so adding
// an engine touches no file of isa/, and adding an implementation is one
// entry here, its features, and one entry in each of those tables (their
// static_asserts count them). A new public name also takes one value of
// nqueens::isa and its place in isa.cpp's every_isa; docs/engines.md walks
// through it.

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

/// How many implementations this build holds.
inline constexpr std::size_t implementation_count = 4;

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
