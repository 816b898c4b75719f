#pragma once

// Strict parsing of command-line values. Every failure is a usage_error whose
// message names the option, the offending text and the valid range.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

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
inline constexpr const char* number_rule = "plain decimal digits, no sign, no leading zero";

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
/// 1024), e.g. "512M"; at least 1 MiB.
std::uint64_t parse_byte_size(std::string_view text, std::string_view what);

/// "I/M": shard I of M, 0 <= I < M.
shard_spec parse_shard(std::string_view text);

/// True for text such as "-5" that a user meant as a (negative) number rather
/// than an option; such text is reported as out of range, not "unknown option".
bool looks_like_negative_number(std::string_view text) noexcept;

}  // namespace nqueens::cli

#include <cxxopts.hpp>
#include <vector>

namespace nqueens::cli {

/// Every spelling ("-t", "--threads") of the options in `options` that take
/// the next argument as their value, read from cxxopts' own option list.
std::vector<std::string> value_option_names(const cxxopts::Options& options);

/// Parses `args` (args[0] is the program name) with `options`. A bare negative
/// number that is not the value of an option (value_option_names) is reported
/// as a board size out of range (1 to `largest_board_size`) when
/// `board_size_positional`, else as unexpected, rather than as an unknown
/// option. cxxopts errors become usage_error.
cxxopts::ParseResult parse_command_line(cxxopts::Options& options, const std::vector<std::string>& args,
                                        bool board_size_positional, int largest_board_size = max_board_size);

/// When `result` asked for --help: prints `options`' help, a blank line and
/// `tail` to standard output, and returns true.
bool printed_help(const cxxopts::ParseResult& result, cxxopts::Options& options, const std::string& tail = {});

/// The single positional argument (the board size), or a usage_error when it
/// is missing or repeated.
std::string single_positional(const cxxopts::ParseResult& result, std::string_view name, std::string_view what);

/// Declares the positional board size N (the option "n"), after the options.
void add_board_size_operand(cxxopts::Options& options);

/// The board size N given to add_board_size_operand's options (parse_board_size).
int board_size_operand(const cxxopts::ParseResult& result);

}  // namespace nqueens::cli
