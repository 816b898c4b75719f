#pragma once

// Reading and writing placements (a queen's column per row) for `list`,
// `first` and `check`: buffered output that survives a closed pipe, the three
// text formats, lines read from standard input, and a lenient parser for
// tuples.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// A large buffer in front of a file descriptor. A reader that went away
/// (EPIPE) is not an error: the writer just reports closed() so the producer
/// can stop quietly. Other write failures throw std::runtime_error
/// (output_error for standard output).
class buffered_output {
 public:
  explicit buffered_output(int fd, std::size_t capacity = std::size_t{1} << 20);
  ~buffered_output();  // flushes, ignoring errors (call flush() to see them)
  buffered_output(const buffered_output&) = delete;
  buffered_output& operator=(const buffered_output&) = delete;

  /// Room for `size` more bytes, flushing first if needed; write them, then commit(size).
  char* reserve(std::size_t size);
  void commit(std::size_t size) noexcept { used_ += size; }
  void append(std::string_view text);
  /// Writes out the buffer; false when the reader has gone away.
  bool flush();
  bool closed() const noexcept { return closed_; }

 private:
  int fd_;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
  bool closed_ = false;
};

/// Appends one placement as a record: "(1, 3, 0, 2)\n" for tuple, n rows of
/// 'Q' and '.' plus a blank line for board, the FEN piece placement (rank 8 =
/// row 0, file a = column 0) for fen. `class_size` > 0 adds " <size>" to a tuple.
void write_placement(buffered_output& out, std::span<const std::uint8_t> columns, placement_format format,
                     int class_size = 0);
void write_placement(buffered_output& out, std::span<const int> columns, placement_format format);

/// A read of standard input failed; exit status 3.
class input_error : public std::runtime_error {
 public:
  explicit input_error(int error);
};

/// Splits text into lines at "\n", "\r\n" or a lone "\r" (what a terminal
/// shows as a new line), so that no two lines ever run together.
class line_reader {
 public:
  /// Reads `fd` (standard input, which input_error names) a block at a time.
  /// A line is cut short (cut() is then true) past `max_bytes`, or 20 bytes
  /// past its first byte not in `alphabet` (empty: any byte), so that a line
  /// no parser could take is never held whole (a stream of NULs from
  /// /dev/zero); the rest of a cut line is skipped by the next call.
  explicit line_reader(int fd, std::size_t max_bytes = std::string::npos, std::string_view alphabet = {})
      : fd_(fd), max_bytes_(max_bytes), alphabet_(alphabet) {}
  /// Splits `text`.
  explicit line_reader(std::string_view text) : buffer_(text) {}

  /// The next line, without its line break; false at the end. Throws
  /// input_error when a read fails.
  bool next(std::string& line);
  /// Whether the line next() gave was cut short.
  bool cut() const noexcept { return cut_; }

 private:
  bool fill();

  int fd_ = -1;  ///< -1: nothing more to read
  std::string buffer_;
  std::size_t at_ = 0;
  bool after_cr_ = false;  ///< a '\n' next ends no line: it is the rest of "\r\n"
  std::size_t max_bytes_ = std::string::npos;
  std::string_view alphabet_;
  bool cut_ = false;
  bool skip_rest_ = false;  ///< the line last cut has more to skip
};

/// Every byte a placement's line can hold: what parse_placement reads, and
/// '-' (which it names as a negative column).
inline constexpr std::string_view placement_alphabet = "0123456789 \t,()[]-";

/// Parses one placement, one line: column numbers separated by spaces, tabs
/// and/or commas, optionally inside ( ) or [ ]; after a closing bracket, a
/// single number (the class size that `list --unique` prints) is allowed and
/// ignored.
/// Throws usage_error naming the problem (any byte but printable ASCII
/// written as \xNN).
std::vector<int> parse_placement(std::string_view text);

}  // namespace nqueens::cli
