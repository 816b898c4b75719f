#include "cli/command_line.hpp"

#include <algorithm>
#include <iostream>

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

void print_help(cxxopts::Options& options, const std::string& tail) {
  std::cout << options.help({""}) << '\n' << tail;  // the board size operand has a group of its own, unlisted
}

bool printed_help(const cxxopts::ParseResult& result, cxxopts::Options& options, const std::string& tail) {
  if (result.count("help") == 0) return false;
  print_help(options, tail);
  return true;
}

namespace {

// Every option of `options` with its details (positionals included).
std::vector<cxxopts::HelpOptionDetails> every_option(const cxxopts::Options& options) {
  std::vector<cxxopts::HelpOptionDetails> all;
  for (const std::string& group : options.groups()) {
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options) all.push_back(o);
  }
  return all;
}

std::string spelling(const cxxopts::HelpOptionDetails& o) { return o.l.empty() ? "-" + o.s : "--" + o.l.front(); }

// A flag takes no value: "--json=false" would otherwise act as --json.
void refuse_flag_values(const std::vector<cxxopts::HelpOptionDetails>& all, const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") return;  // operands from here on
    const std::size_t equals = arg.find('=');
    if (!arg.starts_with("--") || equals == std::string::npos) continue;
    const std::string name = arg.substr(2, equals - 2);
    for (const cxxopts::HelpOptionDetails& o : all) {
      if (o.is_boolean && std::find(o.l.begin(), o.l.end(), name) != o.l.end()) {
        throw usage_error("--" + name + " takes no value ('" + arg + "'): give --" + name + " alone, or leave it out");
      }
    }
  }
}

// An option given twice would keep its last value in silence: refused, but
// for the operands, which list (the board size is checked on its own).
void refuse_repeats(const std::vector<cxxopts::HelpOptionDetails>& all, const cxxopts::ParseResult& result) {
  for (const cxxopts::HelpOptionDetails& o : all) {
    if (o.is_container) continue;
    const std::size_t given = result.count(o.l.empty() ? o.s : o.l.front());
    if (given > 1) {
      throw usage_error(spelling(o) + " was given " + std::to_string(given) + " times: give it once");
    }
  }
}

}  // namespace

cxxopts::ParseResult parse_command_line(cxxopts::Options& options, const std::vector<std::string>& args,
                                        bool board_size_positional, int largest_board_size) {
  const std::vector<cxxopts::HelpOptionDetails> all = every_option(options);
  refuse_flag_values(all, args);
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
    cxxopts::ParseResult result = options.parse(static_cast<int>(argv.size()), argv.data());
    refuse_repeats(all, result);
    return result;
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
