#pragma once

// Lines of standard input (check reads placements from it) or of a text,
// split at every kind of line break, and cut short where no line could be
// meant (a stream of NULs from /dev/zero).

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace nqueens::cli {

/// A read of standard input failed; exit status 3.
class input_error : public std::runtime_error {
 public:
  explicit input_error(int error);
};

/// Why a line was cut short (line_reader::cut_reason).
enum class line_cut {
  none,         ///< the line is whole
  stray_byte,   ///< 20 bytes past a byte not in the alphabet
  long_digits,  ///< at the digit past the longest run taken
  capped,       ///< at the most a line holding a capped byte takes
  longest,      ///< at the most any line takes
};

/// A set of bytes, each looked up in one step: std::string's
/// find_first_of scans the set for every byte of the line (a memchr a byte:
/// a quarter of the time `check` took over a 10^8-queen placement).
class byte_set {
 public:
  byte_set() = default;
  explicit byte_set(std::string_view bytes) noexcept : empty_(bytes.empty()) {
    for (const char c : bytes) has_[static_cast<unsigned char>(c)] = true;
  }
  bool empty() const noexcept { return empty_; }
  /// The first position from `from` on whose byte is in the set (`in`) or
  /// not in it; npos where there is none.
  std::size_t find_first(std::string_view text, std::size_t from, bool in) const noexcept {
    for (std::size_t k = from; k < text.size(); ++k) {
      if (has_[static_cast<unsigned char>(text[k])] == in) return k;
    }
    return std::string_view::npos;
  }

 private:
  std::array<bool, 256> has_{};
  bool empty_ = true;
};

/// Splits text into lines at "\n", "\r\n" or a lone "\r" (what a terminal
/// shows as a new line), so that no two lines ever run together.
class line_reader {
 public:
  /// Reads `fd` (standard input, which input_error names) a block at a time,
  /// until its end or a stop signal (read_unless_stopped; stopped() then).
  /// A line is cut short (cut() is then true) past `max_bytes`, 20 bytes
  /// past its first byte not in `alphabet` (empty: any byte), or at the
  /// digit that makes a run of more than `max_digits`, or past
  /// `capped_max_bytes` where it holds a byte of `capped_bytes` before then
  /// (one after is a stray byte), so that a line no parser could take is
  /// never held whole (a stream of NULs from
  /// /dev/zero, of 1s from `yes 1 | tr -d '\n'`, of dots); the rest of a cut
  /// line is skipped by the next call.
  explicit line_reader(int fd, std::size_t max_bytes = std::string::npos, std::string_view alphabet = {},
                       std::size_t max_digits = std::string::npos, std::string_view capped_bytes = {},
                       std::size_t capped_max_bytes = std::string::npos)
      : fd_(fd),
        max_bytes_(max_bytes),
        alphabet_(alphabet),
        max_digits_(max_digits),
        capped_bytes_(capped_bytes),
        capped_max_bytes_(capped_max_bytes) {}
  /// Splits `text`.
  explicit line_reader(std::string_view text) : buffer_(text) {}

  /// Skips a UTF-8 byte order mark opening the input (some Windows editors
  /// save one), before any line is read; call before the first next().
  void skip_byte_order_mark() noexcept { skip_mark_ = true; }

  /// The next line, without its line break; false at the end or at a stop
  /// (the line it cut is dropped). Throws input_error when a read fails.
  bool next(std::string& line);
  /// Whether the line next() gave was cut short, and why.
  bool cut() const noexcept { return cut_ != line_cut::none; }
  line_cut cut_reason() const noexcept { return cut_; }
  /// Whether a stop signal ended the reading (next() then gave false).
  bool stopped() const noexcept { return stopped_; }

 private:
  bool fill();
  bool read_more();

  int fd_ = -1;  ///< -1: nothing more to read
  std::string buffer_;
  std::size_t at_ = 0;
  bool after_cr_ = false;  ///< a '\n' next ends no line: it is the rest of "\r\n"
  std::size_t max_bytes_ = std::string::npos;
  byte_set alphabet_;
  std::size_t max_digits_ = std::string::npos;
  byte_set capped_bytes_;
  std::size_t capped_max_bytes_ = std::string::npos;
  std::size_t digits_ = 0;  ///< the digits ending the line read so far
  line_cut cut_ = line_cut::none;
  bool skip_rest_ = false;  ///< the line last cut has more to skip
  bool stopped_ = false;
  bool skip_mark_ = false;  ///< a byte order mark is still to be looked for
};

}  // namespace nqueens::cli
