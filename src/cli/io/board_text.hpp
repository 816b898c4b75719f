#pragma once

// Reading a placement drawn as a board, as `list --format board|fen` writes
// it: rows of 'Q' and '.', one a line, or a FEN piece placement.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nqueens::cli {

/// The longest line read as a drawn board's row or a FEN: far past any
/// board drawn (`first` draws up to N = 1000), short enough that an endless
/// line of dots is refused after a few megabytes, not 2 GiB.
inline constexpr std::size_t max_drawn_line_bytes = std::size_t{16} << 20;

/// Every byte that marks a line as a drawn board's row or a FEN.
inline constexpr std::string_view drawn_board_bytes = "Qq./";

/// `line` without the spaces and tabs around it.
std::string_view trimmed(std::string_view line) noexcept;

/// Whether `line` (trimmed) reads as a FEN: it holds a '/', as every FEN of
/// two ranks or more does and no tuple (the FEN of one rank, "Q", is read as
/// a drawn board's row, which says the same).
bool looks_like_fen(std::string_view line) noexcept;

/// Whether `line` (trimmed, and no FEN) reads as a drawn board's row: it
/// starts with 'Q', 'q' or '.', as no tuple does.
bool looks_like_board_row(std::string_view line) noexcept;

/// The column of the queen in a drawn board's row `row` (counted from 0,
/// for the message): `line` trimmed is 'Q' (or 'q') once and '.' elsewhere.
/// Throws usage_error naming another byte, or a row of no queen or several.
int board_row_column(std::string_view line, std::size_t row);

/// "1 square", "8 squares".
std::string squares_text(std::size_t count);

/// The columns of a FEN piece placement (rank 8, the first, is row 0; file a
/// is column 0) of any square board: ranks split by '/', a run of empty
/// squares as a number (of any digits, for boards past 9 files), a queen as
/// 'Q' or 'q'. Throws usage_error naming what is wrong: another piece, a
/// rank of another width, not one queen a rank, fewer or more ranks than
/// files, text after it (a full FEN's other fields).
std::vector<int> parse_fen(std::string_view text);

}  // namespace nqueens::cli
