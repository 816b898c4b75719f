#pragma once

// "Did you mean": the word a user most likely meant where a name was
// mistyped (an option, a command).

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace nqueens::cli {

/// Edits from `a` to `b`: insertions, deletions, substitutions and swaps of
/// two neighbours ("form" for "from" is one slip).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The word of `words` nearest `given`, when near enough to be a slip: a
/// third of its letters wrong at most (one for a short word), or, for 3
/// letters or more, the start of one word alone. Empty when none is.
std::string nearest_word(std::span<const std::string> words, std::string_view given);

}  // namespace nqueens::cli
