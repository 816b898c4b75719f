#include "cli/arguments.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "nqueens/threads.hpp"

namespace nqueens::cli {

namespace {

// The length of the integer by number_rule at the start of `text`: 0 for none
// (no digit, or a leading zero followed by more digits).
std::size_t plain_digits(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  return digits > 1 && text.front() == '0' ? 0 : digits;
}

}  // namespace

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

namespace nqueens::cli {

std::vector<std::string> value_option_names(const cxxopts::Options& options) {
  std::vector<std::string> names;
  for (const std::string& group : options.groups()) {
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options) {
      // A flag has an implicit value ("true") and never takes the next argument.
      if (o.has_implicit) continue;
      if (!o.s.empty()) names.push_back("-" + o.s);
      for (const std::string& name : o.l) names.push_back("--" + name);
    }
  }
  return names;
}

bool printed_help(const cxxopts::ParseResult& result, cxxopts::Options& options, const std::string& tail) {
  if (result.count("help") == 0) return false;
  std::cout << options.help({""}) << '\n' << tail;  // the board size operand has a group of its own, unlisted
  return true;
}

cxxopts::ParseResult parse_command_line(cxxopts::Options& options, const std::vector<std::string>& args,
                                        bool board_size_positional, int largest_board_size) {
  const std::vector<std::string> value_options = value_option_names(options);
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (!looks_like_negative_number(args[i])) continue;
    if (std::find(value_options.begin(), value_options.end(), args[i - 1]) != value_options.end()) continue;
    if (board_size_positional) {  // throws the range message
      parse_integer(args[i], "board size", min_board_size, largest_board_size);
    }
    throw usage_error("unexpected argument '" + args[i] + "'");
  }
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    return options.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error(e.what());
  }
}

std::string single_positional(const cxxopts::ParseResult& result, std::string_view name, std::string_view what) {
  if (result.count(std::string(name)) == 0) throw usage_error("missing " + std::string(what));
  const auto values = result[std::string(name)].as<std::vector<std::string>>();
  if (values.size() != 1) {
    throw usage_error("expected one " + std::string(what) + ", got " + std::to_string(values.size()) + " ('" +
                      values[1] + "' is extra)");
  }
  return values.front();
}

void add_board_size_operand(cxxopts::Options& options) {
  options.add_options("operands")("n", "Board size", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"n"});
}

int board_size_operand(const cxxopts::ParseResult& result) {
  return parse_board_size(single_positional(result, "n", "board size N (" + board_size_range() + ")"));
}

}  // namespace nqueens::cli
