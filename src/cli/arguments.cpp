#include "cli/arguments.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "nqueens/threads.hpp"

namespace nqueens::cli {

using detail::plain_digits;  // the rule the environment is read by too

long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi) {
  const std::string range = "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const std::size_t digits = plain_digits(text);
  if (!text.empty() && text.front() == '-' && plain_digits(text.substr(1)) == text.size() - 1) {
    throw usage_error(std::string(what) + " " + std::string(text) + " is out of range: " + range);
  }
  if (digits == 0 || digits != text.size()) {
    throw usage_error("invalid " + std::string(what) + " '" + std::string(text) + "': " + range + ", in " +
                      number_rule);
  }
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range || value < lo || value > hi) {
    throw usage_error(std::string(what) + " " + std::string(text) + " is out of range: " + range);
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
    throw usage_error("invalid " + std::string(what) + " '" + std::string(text) + "': " + range + ", in " +
                      number_rule + " (a fraction such as 2.5 allowed)");
  }
  const double value = std::strtod(std::string(text).c_str(), nullptr);
  if (!(value >= lo && value <= hi)) {
    throw usage_error(std::string(what) + " " + std::string(text) + " is out of range: " + range);
  }
  return value;
}

int parse_board_size(std::string_view text) {
  return static_cast<int>(parse_integer(text, "board size", min_board_size, max_board_size));
}

std::string board_size_range() { return std::to_string(min_board_size) + " to " + std::to_string(max_board_size); }

int parse_threads(std::string_view text) { return static_cast<int>(parse_integer(text, "--threads", 1, max_threads)); }

std::uint64_t parse_byte_size(std::string_view text, std::string_view what) {
  const auto invalid = [&] {
    return usage_error("invalid " + std::string(what) + " '" + std::string(text) +
                       "': expected a size such as 512M, 8G or 1T (at least 1M)");
  };
  const std::size_t digits = plain_digits(text);
  if (digits == 0 || digits > 15) throw invalid();
  int shift = 0;
  const std::string_view suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k")
    shift = 10;
  else if (suffix == "M" || suffix == "m")
    shift = 20;
  else if (suffix == "G" || suffix == "g")
    shift = 30;
  else if (suffix == "T" || suffix == "t")
    shift = 40;
  else if (!suffix.empty())
    throw invalid();
  const std::uint64_t value = std::stoull(std::string(text.substr(0, digits)));
  if (value > (UINT64_MAX >> shift)) throw invalid();
  const std::uint64_t bytes = value << shift;
  if (bytes < (std::uint64_t{1} << 20)) throw invalid();
  return bytes;
}

shard_spec parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    throw usage_error("invalid --shard '" + std::string(text) + "': expected I/M, e.g. 0/4");
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
