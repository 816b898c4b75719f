#pragma once

// Reading a placement drawn as a board, as `list --format board|fen` writes
// it: rows of 'Q' and '.', one a line, or a FEN piece placement.

#include <cstddef>
#include <string_view>
#include <vector>

namespace nqueens::cli {

/// Whether `line` is a row of a drawn board: 'Q' and '.' alone (either case
/// of q), then spaces or tabs at most.
bool is_board_row(std::string_view line) noexcept;

/// The column of the queen in a board row (`row` counted from 0, for the
/// message); throws usage_error where the row holds no queen or several.
int board_row_column(std::string_view line, std::size_t row);

/// Whether `line` reads as FEN rather than as a tuple: it holds a '/', as
/// every FEN of two ranks or more does and no tuple (one of one rank, "Q",
/// is a drawn board's row too).
bool looks_like_fen(std::string_view line) noexcept;

/// The columns of a FEN piece placement (rank 8, the first, is row 0; file a
/// is column 0) of any square board: ranks split by '/', a run of empty
/// squares as a number, a queen as 'Q' or 'q'. Throws usage_error naming
/// what is wrong: another piece, a rank of another width, not one queen a
/// rank, ranks fewer or more than the files, trailing text.
std::vector<int> parse_fen(std::string_view text);

}  // namespace nqueens::cli
