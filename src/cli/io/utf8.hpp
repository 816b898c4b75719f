#pragma once

// Well-formed UTF-8, as the JSON reader requires it and the JSON writer
// makes it (json_reader.cpp, json.hpp).

#include <cstddef>
#include <string_view>

namespace nqueens::cli {

/// The length of the well-formed UTF-8 sequence starting at text[i]
/// (Unicode's table 3-7: no overlong forms, no surrogates, nothing past
/// U+10FFFF): 1 for an ASCII byte, 0 where none starts there or i is past
/// the end.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;

}  // namespace nqueens::cli
