#pragma once

/// \file
/// The library's version, as given to `project()` in CMakeLists.txt.

#include <string_view>

namespace nqueens {

/// Semantic version of the library and the `nqueens` tool, e.g. "0.1.0".
std::string_view version() noexcept;

}  // namespace nqueens
