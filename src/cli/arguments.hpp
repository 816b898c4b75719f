#pragma once

// Strict parsing of command-line values. Every failure is a usage_error whose
// message names the option, the offending text and the valid range.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engines/plain_number.hpp"
#include "nqueens/board.hpp"
#include "nqueens/shard.hpp"

namespace nqueens::cli {

/// A problem with the command line: reported on one line, exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The one way numbers are written on the command line, for every option and
/// operand: plain decimal digits, with no sign, no leading zero (but "0"), no
/// spaces, no base prefix; seconds may add a fraction ("2.5"). Said in the
/// README and the man page.
inline constexpr const char* number_rule = detail::plain_number_rule;

/// Parses an integer written by number_rule that must lie in [lo, hi];
/// `what` names the value in the error ("board size", "--threads").
long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi);

/// Parses seconds: an integer by number_rule, optionally followed by '.' and
/// digits, in [lo, hi].
double parse_seconds(std::string_view text, std::string_view what, double lo, double hi);

/// The smallest board size is_valid_board_size accepts, for messages that
/// name the range; the library's predicate stays the one rule.
inline constexpr int min_board_size = 1;
static_assert(is_valid_board_size(min_board_size) && !is_valid_board_size(min_board_size - 1) &&
              is_valid_board_size(max_board_size) && !is_valid_board_size(max_board_size + 1));

/// "1 to 32": the board sizes the counting engines accept.
std::string board_size_range();

/// A board size the counting engines accept (is_valid_board_size).
int parse_board_size(std::string_view text);

/// A worker-thread count (1..max_threads; the library's 0, "every hardware
/// thread", is what leaving --threads out means).
int parse_threads(std::string_view text);

/// A byte count: digits with an optional K, M, G or T suffix (powers of
/// 1024), e.g. "512M"; from 1M to 16777215T, the most whole TiB 64 bits hold.
std::uint64_t parse_byte_size(std::string_view text, std::string_view what);

/// "I/M": shard I of M, 0 <= I < M.
shard_spec parse_shard(std::string_view text);

/// True for text such as "-5" that a user meant as a (negative) number rather
/// than an option; such text is reported as out of range, not "unknown option".
bool looks_like_negative_number(std::string_view text) noexcept;

}  // namespace nqueens::cli
