#include "cli/arguments.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

#include "cli/message_text.hpp"
#include "nqueens/threads.hpp"

namespace nqueens::cli {

using detail::plain_digits;  // the rule the environment is read by too

long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi) {
  const std::string range = "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const std::size_t digits = plain_digits(text);
  // A negative number is out of range; "-0" is no number below zero, only a sign the rule forbids.
  if (text.size() > 1 && text.front() == '-' && plain_digits(text.substr(1)) == text.size() - 1 && text[1] != '0') {
    throw usage_error(std::string(what) + " " + shown_operand(text) + " is out of range: " + range);
  }
  if (digits == 0 || digits != text.size()) {
    throw usage_error("invalid " + std::string(what) + " '" + shown_operand(text) + "': " + range + ", in " +
                      number_rule);
  }
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range || value < lo || value > hi) {
    throw usage_error(std::string(what) + " " + shown_operand(text) + " is out of range: " + range);
  }
  return value;
}

namespace {

// Compares two plain decimals (digits, optionally '.' and digits) exactly:
// negative, zero or positive as a is below, at or above b. A bound checked
// on the double a text rounds to took 3600.0000000000000001 for 3600.
int compare_decimals(std::string_view a, std::string_view b) {
  const auto parts = [](std::string_view x) {
    const std::size_t point = std::min(x.find('.'), x.size());
    std::string_view whole = x.substr(0, point), fraction = x.substr(std::min(point + 1, x.size()));
    while (whole.size() > 1 && whole.front() == '0') whole.remove_prefix(1);
    while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
    return std::pair{whole, fraction};
  };
  const auto [a_whole, a_fraction] = parts(a);
  const auto [b_whole, b_fraction] = parts(b);
  if (a_whole.size() != b_whole.size()) return a_whole.size() < b_whole.size() ? -1 : 1;
  if (const int c = a_whole.compare(b_whole); c != 0) return c;
  return a_fraction.compare(b_fraction);  // digits from the point on: a prefix is the smaller
}

// `value` as the shortest decimal that reads back as it ("0.01", "3600").
std::string shortest_decimal(double value) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  return error == std::errc{} ? std::string(text, end) : std::to_string(value);
}

}  // namespace

double parse_seconds(std::string_view text, std::string_view what, double lo, double hi) {
  char range[96];
  std::snprintf(range, sizeof range, "expected seconds from %g to %g", lo, hi);
  std::size_t digits = plain_digits(text);
  if (digits > 0 && digits < text.size() && text[digits] == '.') {
    std::size_t fraction = digits + 1;
    while (fraction < text.size() && text[fraction] >= '0' && text[fraction] <= '9') ++fraction;
    digits = fraction > digits + 1 ? fraction : 0;
  }
  if (digits == 0 || digits != text.size()) {
    throw usage_error("invalid " + std::string(what) + " '" + shown_operand(text) + "': " + range + ", in " +
                      number_rule + " (a fraction such as 2.5 allowed)");
  }
  // The bounds compared with the digits as written, then read as C reads
  // them, whatever the locale's decimal point.
  if (compare_decimals(text, shortest_decimal(lo)) < 0 || compare_decimals(text, shortest_decimal(hi)) > 0) {
    throw usage_error(std::string(what) + " " + shown_operand(text) + " is out of range: " + range);
  }
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return std::clamp(value, lo, hi);  // a text at a bound rounds to the bound's neighbour at most
}

int parse_board_size(std::string_view text) {
  return static_cast<int>(parse_integer(text, "board size", min_board_size, max_board_size));
}

std::string board_size_range() { return std::to_string(min_board_size) + " to " + std::to_string(max_board_size); }

int parse_threads(std::string_view text) { return static_cast<int>(parse_integer(text, "--threads", 1, max_threads)); }

std::uint64_t parse_byte_size(std::string_view text, std::string_view what) {
  // Any suffix, one bound: the most whole TiB a 64-bit byte count holds.
  constexpr std::uint64_t largest = (UINT64_MAX >> 40) << 40;
  const std::string range = "expected a size from 1M to " + std::to_string(largest >> 40) + "T (16 EiB less 1 TiB)";
  const std::size_t digits = plain_digits(text);
  const std::string_view suffix = text.substr(digits);
  int shift = -1;
  if (suffix.empty()) {
    shift = 0;
  } else if (suffix.size() == 1) {
    const std::string_view units = "KMGT";
    const std::size_t unit = units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0]))));
    if (unit != std::string_view::npos) shift = 10 * static_cast<int>(unit + 1);
  }
  if (digits == 0 || shift < 0) {
    throw usage_error("invalid " + std::string(what) + " '" + shown_operand(text) + "': " + range +
                      ", such as 512M or 8G: " + number_rule +
                      ", then K, M, G or T (powers of 1024, either case), or no suffix for bytes");
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + digits, value);
  if (error == std::errc::result_out_of_range || value > (largest >> shift) ||
      (value << shift) < (std::uint64_t{1} << 20)) {
    throw usage_error(std::string(what) + " " + shown_operand(text) + " is out of range: " + range);
  }
  return value << shift;
}

shard_spec parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    throw usage_error("invalid --shard '" + shown_operand(text) + "': expected I/M, e.g. 0/4");
  }
  shard_spec s;
  s.count = static_cast<int>(parse_integer(text.substr(slash + 1), "shard count M", 1, max_shards));
  s.index = static_cast<int>(parse_integer(text.substr(0, slash), "shard index I", 0, s.count - 1));
  return s;
}

bool looks_like_negative_number(std::string_view text) noexcept {
  return text.size() >= 2 && text[0] == '-' && text[1] >= '0' && text[1] <= '9';
}

}  // namespace nqueens::cli
