#include "cli/io/placement_io.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "cli/arguments.hpp"
#include "cli/message_text.hpp"
#include "nqueens/cancelled.hpp"

namespace nqueens::cli {

placement_format parse_placement_format(const std::string& text, int n) {
  for (std::size_t k = 0; k < placement_format_names.size(); ++k) {
    if (text != placement_format_names[k]) continue;
    const auto format = static_cast<placement_format>(k);
    if (format == placement_format::fen && n != 8) {
      throw usage_error("--format fen describes a chess board: it needs N = 8, not " + std::to_string(n));
    }
    return format;
  }
  std::string expected;
  for (std::size_t k = 0; k < placement_format_names.size(); ++k) {
    expected += (k == 0 ? "" : k + 1 == placement_format_names.size() ? " or " : ", ");
    expected += placement_format_names[k];
  }
  throw usage_error("unknown --format '" + shown_operand(text) + "': expected " + expected);
}

void add_format_option(cxxopts::Options& options, const std::string& help) {
  options.add_options()("f,format", help,
                        cxxopts::value<std::string>()->default_value(std::string(placement_format_names[0])));
}

namespace {

template <typename Column>
void write_tuple(buffered_output& out, std::span<const Column> columns, int class_size) {
  char* p = out.reserve(1);
  *p = '(';
  out.commit(1);
  for (std::size_t r = 0; r < columns.size(); ++r) {
    if (out.closed()) return;  // a reader gone, or a stop: the rest of a 10^8-queen line would go nowhere
    char* start = out.reserve(16);
    char* end = start;
    if (r != 0) {
      *end++ = ',';
      *end++ = ' ';
    }
    const auto c = static_cast<unsigned>(columns[r]);
    if (c < 10) {  // the common case of `list`: one or two digits, no library call
      *end++ = static_cast<char>('0' + c);
    } else if (c < 100) {
      *end++ = static_cast<char>('0' + c / 10);
      *end++ = static_cast<char>('0' + c % 10);
    } else {
      end = std::to_chars(end, start + 16, c).ptr;
    }
    out.commit(static_cast<std::size_t>(end - start));
  }
  char* start = out.reserve(8);
  char* end = start;
  *end++ = ')';
  if (class_size > 0) {
    *end++ = ' ';
    *end++ = static_cast<char>('0' + class_size);
  }
  *end++ = '\n';
  out.commit(static_cast<std::size_t>(end - start));
}

// "c, " for every column of a board of up to 32: a listing writes each
// entry as one 4-byte copy (measured 3x faster than digit arithmetic per
// entry, which made the single writer the bottleneck of `list`).
struct tuple_entry {
  char text[4];
  std::uint8_t length;
};
constexpr std::array<tuple_entry, 32> tuple_entries = [] {
  std::array<tuple_entry, 32> entries{};
  for (unsigned c = 0; c < 32; ++c) {
    tuple_entry& e = entries[c];
    std::uint8_t i = 0;
    if (c >= 10) e.text[i++] = static_cast<char>('0' + c / 10);
    e.text[i++] = static_cast<char>('0' + c % 10);
    e.text[i++] = ',';
    e.text[i++] = ' ';
    e.length = i;
  }
  return entries;
}();

void write_small_tuple(buffered_output& out, std::span<const std::uint8_t> columns, int class_size) {
  char* const start = out.reserve(4 * columns.size() + 8);
  char* end = start;
  *end++ = '(';
  for (const std::uint8_t c : columns) {
    const tuple_entry& e = tuple_entries[c & 31];
    std::memcpy(end, e.text, sizeof e.text);
    end += e.length;
  }
  if (!columns.empty()) end -= 2;  // the last ", "
  *end++ = ')';
  if (class_size > 0) {
    *end++ = ' ';
    *end++ = static_cast<char>('0' + class_size);
  }
  *end++ = '\n';
  out.commit(static_cast<std::size_t>(end - start));
}

template <typename Column>
void write_board(buffered_output& out, std::span<const Column> columns) {
  const std::size_t n = columns.size();
  for (std::size_t r = 0; r < n; ++r) {
    char* row = out.reserve(n + 1);
    std::memset(row, '.', n);
    row[static_cast<std::size_t>(columns[r])] = 'Q';
    row[n] = '\n';
    out.commit(n + 1);
  }
  out.append("\n");
}

// FEN lists ranks 8 down to 1, files a to h; a run of empty squares is a digit.
template <typename Column>
void write_fen(buffered_output& out, std::span<const Column> columns) {
  const std::size_t n = columns.size();
  char* start = out.reserve(4 * n + 2);
  char* end = start;
  for (std::size_t r = 0; r < n; ++r) {
    if (r != 0) *end++ = '/';
    const auto c = static_cast<std::size_t>(columns[r]);
    if (c > 0) *end++ = static_cast<char>('0' + c);
    *end++ = 'Q';
    if (n - 1 - c > 0) *end++ = static_cast<char>('0' + (n - 1 - c));
  }
  *end++ = '\n';
  out.commit(static_cast<std::size_t>(end - start));
}

template <typename Column>
void write_any(buffered_output& out, std::span<const Column> columns, placement_format format, int class_size) {
  switch (format) {
    case placement_format::tuple:
      write_tuple(out, columns, class_size);
      break;
    case placement_format::board:
      write_board(out, columns);
      break;
    case placement_format::fen:
      write_fen(out, columns);
      break;
  }
}

}  // namespace

void write_placement(buffered_output& out, std::span<const std::uint8_t> columns, placement_format format,
                     int class_size) {
  if (format == placement_format::tuple && columns.size() <= 32) {
    write_small_tuple(out, columns, class_size);
    return;
  }
  write_any(out, columns, format, class_size);
}

void write_placement(buffered_output& out, std::span<const int> columns, placement_format format) {
  write_any(out, columns, format, 0);
}

namespace {

// A number as a message shows it: whole up to 24 digits, else its first 20
// and how many there are (a 20-MB token made a 20-MB message).
std::string shown_number(std::string_view digits) {
  if (digits.size() <= 24) return std::string(digits);
  return std::string(digits.substr(0, 20)) + "... (" + std::to_string(digits.size()) + " digits)";
}

}  // namespace

std::vector<int> parse_placement(std::string_view text, int* class_size, const std::atomic<bool>* stop) {
  if (class_size != nullptr) *class_size = 0;
  // Exactly as many columns as there are numbers: growing by doubling would
  // hold up to twice a 10^8-queen placement while it is read.
  std::size_t numbers = 0;
  bool in_number = false;
  for (const char c : text) {
    const bool digit = c >= '0' && c <= '9';
    numbers += digit && !in_number ? 1 : 0;
    in_number = digit;
  }
  std::vector<int> columns;
  columns.reserve(numbers);
  std::size_t i = 0;
  const auto skip_space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  // The digits from `at` on, as many as there are.
  const auto digits_from = [&](std::size_t at) {
    std::size_t end = at;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    return end - at;
  };
  skip_space();
  char closing = 0;
  if (i < text.size() && (text[i] == '(' || text[i] == '[')) {
    closing = text[i] == '(' ? ')' : ']';
    ++i;
  }
  bool need_separator = false;
  for (;;) {
    skip_space();
    if (i == text.size()) {
      if (closing != 0) throw usage_error(std::string("placement has no closing '") + closing + "'");
      if (!need_separator && !columns.empty()) throw usage_error("placement has an empty entry (a trailing comma)");
      break;
    }
    const char ch = text[i];
    if (closing != 0 && ch == closing) {
      if (!need_separator && !columns.empty()) throw usage_error("placement has an empty entry (a trailing comma)");
      ++i;
      skip_space();
      // `list --unique` adds the class size after the tuple: 1, 2, 4 or 8,
      // nothing else (`check "(1, 3, 0, 2)" 7` is not a class size).
      bool sized = false;
      if (digits_from(i) == 1 && (text[i] == '1' || text[i] == '2' || text[i] == '4' || text[i] == '8')) {
        if (class_size != nullptr) *class_size = text[i] - '0';
        ++i;
        sized = true;
      }
      skip_space();
      if (i != text.size()) {
        const std::string rest = shown_start(text.substr(i), 20);
        // A number where the class size goes is a wrong one, named as such.
        const bool number = !sized && text.find_first_not_of("0123456789+- \t", i) == std::string::npos &&
                            text.find_first_of("0123456789", i) != std::string::npos;
        throw usage_error(number ? "'" + rest + "' after the placement is no class size: one is 1, 2, 4 or 8"
                                 : std::string("unexpected text after the ") + (sized ? "class size" : "placement") +
                                       ": '" + rest + "'");
      }
      break;
    }
    if (ch == ',') {
      if (!need_separator) throw usage_error("placement has an empty entry (two commas or a leading comma)");
      need_separator = false;
      ++i;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      // One pass over the digits, a 10^8-queen placement's billion of them:
      // the value stops growing once past any int, the digits are still read.
      constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
      std::uint64_t value = 0;
      std::size_t end = i;
      for (; end < text.size() && text[end] >= '0' && text[end] <= '9'; ++end) {
        if (value <= most) value = value * 10 + static_cast<std::uint64_t>(text[end] - '0');
      }
      const std::string_view number = text.substr(i, end - i);
      // A column is a number like any other the tool reads: "01" is refused.
      if (number.size() > 1 && detail::plain_digits(number) != number.size()) {
        throw usage_error("invalid column '" + shown_number(number) + "': expected " + number_rule);
      }
      if (value > most) {  // past any board a placement can name: its length bounds the columns
        throw usage_error("column '" + shown_number(number) +
                          "' is out of range: a placement of n queens has columns 0 to n - 1");
      }
      columns.push_back(static_cast<int>(value));
      i = end;
      if (stop != nullptr && columns.size() % (std::size_t{1} << 16) == 0 && stop->load(std::memory_order_relaxed)) {
        throw run_cancelled("stopped while it read a placement");
      }
      need_separator = true;  // a comma is optional: "1 3 0 2" and "1,3,0,2" both parse
      continue;
    }
    if (ch == '-' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
      const std::string digits = shown_number(text.substr(i + 1, digits_from(i + 1)));
      // "-0" is no number below zero, only a sign the columns never take.
      if (digits.find_first_not_of('0') == std::string::npos) {
        throw usage_error("column '-" + digits + "' has a sign: columns are plain numbers, counted from 0");
      }
      throw usage_error("columns are counted from 0: '-" + digits + "' is negative");
    }
    throw usage_error("unexpected character '" + character_at(text, i) +
                      "' in the placement (expected column numbers)");
  }
  if (columns.empty()) throw usage_error("the placement has no queens");
  return columns;
}

}  // namespace nqueens::cli
