#include "cli/arguments.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>

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
  const double value = std::strtod(std::string(text).c_str(), nullptr);
  if (!(value >= lo && value <= hi)) {
    throw usage_error(std::string(what) + " " + shown_operand(text) + " is out of range: " + range);
  }
  return value;
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
