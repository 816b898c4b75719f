#include "cli/io/placement_lines.hpp"

#include <string>
#include <utility>

#include "cli/arguments.hpp"
#include "cli/io/board_text.hpp"
#include "cli/io/placement_io.hpp"

namespace nqueens::cli {

bool placement_lines::add(std::string_view line, placement_read& out) {
  ++line_number_;
  if (is_board_row(line)) {
    if (board_width_ == 0) {
      board_ = placement_read{};
      board_.first_line = line_number_;
      board_width_ = line.find_last_not_of(" \t") + 1;
    }
    const std::size_t row = board_.columns.size();
    const std::size_t width = line.find_last_not_of(" \t") + 1;
    if (width != board_width_) {
      throw usage_error("row " + std::to_string(row) + " of the board has " + std::to_string(width) +
                        " squares, row 0 has " + std::to_string(board_width_));
    }
    board_.columns.push_back(board_row_column(line, row));
    if (board_.columns.size() < board_width_) return false;
    board_.last_line = line_number_;
    board_width_ = 0;
    out = std::move(board_);
    return true;
  }
  if (board_width_ != 0) refuse_unfinished_board();
  if (line.find_first_not_of(" \t") == std::string_view::npos) return false;
  out.first_line = out.last_line = line_number_;
  out.class_size = 0;
  out.columns = looks_like_fen(line) ? parse_fen(line) : parse_placement(line, &out.class_size);
  return true;
}

void placement_lines::finish() const {
  if (board_width_ != 0) refuse_unfinished_board();
}

void placement_lines::refuse_unfinished_board() const {
  const std::size_t rows = board_.columns.size();
  throw usage_error("the board drawn from line " + std::to_string(board_.first_line) + " ends after " +
                    std::to_string(rows) + " row" + (rows == 1 ? "" : "s") + " of " + std::to_string(board_width_) +
                    " squares: a board has as many rows as columns");
}

}  // namespace nqueens::cli
