#pragma once

// The placements in lines of text, in every format `list` and `first`
// write: a tuple or a FEN a line, or a board drawn over as many lines as it
// has columns. check reads standard input and its operands through it.

#include <atomic>
#include <cstddef>
#include <string_view>
#include <vector>

namespace nqueens::cli {

/// One placement read, and the lines it took.
struct placement_read {
  std::vector<int> columns;
  int class_size = 0;  ///< the one `list --unique` writes after a tuple; 0 where none
  std::size_t first_line = 0;
  std::size_t last_line = 0;
};

/// Gathers placements from lines given one at a time (numbered from 1).
/// Blank lines between placements are skipped; a drawn board ends once it is
/// square, and a blank line or any other before then is refused.
class placement_lines {
 public:
  /// `name_lines`: whether a refusal of an unfinished board names the line
  /// it began on (standard input's are numbered; operands' are not).
  /// `stop`: where set while a line is read, add() throws run_cancelled.
  explicit placement_lines(bool name_lines = true, const std::atomic<bool>* stop = nullptr)
      : name_lines_(name_lines), stop_(stop) {}

  /// Takes the next line; true where it completes a placement, put in `out`.
  /// Throws usage_error naming what is wrong with this line (the caller
  /// says where).
  bool add(std::string_view line, placement_read& out);
  /// At the end of the lines: throws usage_error where a board is unfinished.
  void finish() const;
  /// The number of the line add() took last.
  std::size_t line_number() const noexcept { return line_number_; }

 private:
  [[noreturn]] void refuse_unfinished_board() const;

  bool name_lines_;
  const std::atomic<bool>* stop_;
  std::size_t line_number_ = 0;
  placement_read board_;         ///< the board being drawn: its rows so far
  std::size_t board_width_ = 0;  ///< 0: no board is being drawn
};

}  // namespace nqueens::cli
