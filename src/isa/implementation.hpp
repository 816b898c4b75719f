#pragma once

// One object per compiled set of hot kernels, as simdjson's implementations:
// the CPU features it needs and every kernel built for it, in one list
// (implementation.cpp). Adding a kernel set is one entry there and its
// kernel sources (kernels/search_<isa>.cpp, engines/quadrant/
// quadrant_kernel_<isa>.cpp). A new public name also takes one value of
// nqueens::isa, and in isa/isa.cpp its place in every_isa, its spelling in
// to_string and in the NQUEENS_ISA message; docs/engines.md walks through it.

#include <span>
#include <string_view>

#include "nqueens/isa.hpp"

namespace nqueens::detail {

struct search_kernels;    // kernels/backtrack.hpp
struct quadrant_kernels;  // engines/quadrant/quadrant_kernels.hpp

struct implementation {
  /// "avx512+vpopcntdq": the kernels' own name (tests and benchmarks).
  std::string_view name;
  /// The public instruction set it implements; several may (the widest the
  /// CPU runs is chosen).
  isa kernels;
  /// True when this CPU, and its operating system, run these kernels.
  bool (*cpu_runs)() noexcept;
  const search_kernels* search;
  const quadrant_kernels* quadrant;
};

/// Every implementation this build holds, narrowest first.
std::span<const implementation> implementations() noexcept;

/// The widest implementation of `kernels` this CPU runs. Precondition:
/// cpu_supports(kernels).
const implementation& implementation_for(isa kernels) noexcept;

}  // namespace nqueens::detail
