#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nqueens::cli {

/// Help text fitted to `width` columns (80: a terminal's least), for every
/// command's --help: a paragraph (lines from column 0 that end in no ':';
/// "Exit status" starts one) is joined and wrapped again; a longer indented line (an option, an
/// engine) wraps under its description's column; trailing spaces go.
std::string fit_help_text(std::string_view text, std::size_t width = 80);

}  // namespace nqueens::cli
