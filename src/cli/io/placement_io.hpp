#pragma once

// Reading and writing placements (a queen's column per row) for `list`,
// `first` and `check`: the three text formats, written to a buffered_output,
// and a lenient parser for tuples, which check reads a line at a time
// (line_reader).

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/io/buffered_output.hpp"
#include "cli/whole_operands.hpp"

namespace nqueens::cli {

/// Output formats of `list` and `first`, and their names, in order.
enum class placement_format { tuple, board, fen };
inline constexpr std::array<std::string_view, 3> placement_format_names = {"tuple", "board", "fen"};
static_assert(placement_format_names[static_cast<std::size_t>(placement_format::fen)] == "fen",
              "the names follow the enum's order");

/// Adds -f/--format (default: tuple) to a command's options; `help` says
/// what each format writes there.
void add_format_option(cxxopts::Options& options, const std::string& help);

/// Parses --format's value for a board of size n; throws usage_error for a
/// name not in placement_format_names, or fen (a chess board) where n != 8.
placement_format parse_placement_format(const std::string& text, int n);

/// Appends one placement as a record: "(1, 3, 0, 2)\n" for tuple, n rows of
/// 'Q' and '.' plus a blank line for board, the FEN piece placement (rank 8 =
/// row 0, file a = column 0) for fen. `class_size` > 0 adds " <size>" to a tuple.
void write_placement(buffered_output& out, std::span<const std::uint8_t> columns, placement_format format,
                     int class_size = 0);
void write_placement(buffered_output& out, std::span<const int> columns, placement_format format);

/// Every byte a placement's line can hold: what parse_placement reads, '-'
/// (which it names as a negative column), and a drawn board's or a FEN's
/// (board_text.hpp).
inline constexpr std::string_view placement_alphabet = "0123456789 \t,()[]-Qq./";

/// Parses one placement, one line: column numbers separated by spaces, tabs
/// and/or commas, optionally inside ( ) or [ ]; after a closing bracket, the
/// class size that `list --unique` prints (1, 2, 4 or 8) may follow, put in
/// `class_size` where given (0 where there is none).
/// Throws usage_error naming the problem (any byte but printable ASCII
/// written as \xNN), and run_cancelled where `stop` is set while it reads
/// (a 10^8-queen placement takes a second: a stop is answered sooner).
std::vector<int> parse_placement(std::string_view text, int* class_size = nullptr,
                                 const std::atomic<bool>* stop = nullptr);

}  // namespace nqueens::cli
