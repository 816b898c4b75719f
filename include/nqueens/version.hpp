#pragma once

/// \file
/// The library's version, as given to `project()` in CMakeLists.txt, and the
/// commit it was built from.

#include <string_view>

namespace nqueens {

/// Semantic version of the library and the `nqueens` tool, e.g. "0.1.1".
std::string_view version() noexcept;

/// The git commit the library was built from, 12 hex digits, with "-dirty"
/// where tracked files differed from it; empty where the source was no git
/// checkout. Two builds of one version() are told apart by it.
std::string_view build_commit() noexcept;

}  // namespace nqueens
