#include <cstdio>
#include <iostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/placement_io.hpp"
#include "cli/shared_options.hpp"
#include "nqueens/check.hpp"

namespace nqueens::cli {

namespace {

// Attacking pairs printed per placement; the rest are counted.
constexpr std::size_t shown_attacks = 20;

// Checks one placement; prints what is wrong (prefixed by `where`) and returns
// whether it is a solution. A column out of range is a usage error.
bool check_one(const std::string& text, const std::string& where) {
  std::vector<int> columns;
  check_result r;
  try {
    columns = parse_placement(text);
    r = check(columns, shown_attacks);
  } catch (const usage_error& e) {  // malformed text
    throw usage_error(where + e.what());
  } catch (const std::invalid_argument& e) {  // a column off the board
    throw usage_error(where + e.what());
  }
  if (r.is_solution()) return true;
  std::printf("%snot a solution: %zu pair%s of queens attack each other\n", where.c_str(), r.attack_count,
              r.attack_count == 1 ? "" : "s");
  for (const attack& a : r.attacks) {
    const int c1 = columns[a.first_row];
    const int c2 = columns[a.second_row];
    if (a.line == attack_line::column) {
      std::printf("  rows %zu and %zu: same column (%d)\n", a.first_row, a.second_row, c1);
    } else {
      std::printf("  rows %zu and %zu: same %s (columns %d and %d)\n", a.first_row, a.second_row, to_string(a.line), c1,
                  c2);
    }
  }
  if (r.attack_count > r.attacks.size()) std::printf("  ... and %zu more\n", r.attack_count - r.attacks.size());
  return false;
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens check",
                           "Check a placement: the column (0-based) of the queen in each row, as \"1 3 0 2\",\n"
                           "\"1,3,0,2\" or \"(1, 3, 0, 2)\". Without arguments, checks every line of standard\n"
                           "input (so 'nqueens list 8 | nqueens check' checks all 92).\n"
                           "Exit status: 0 all are solutions, 1 some queens attack each other, 2 malformed input.");
  options.custom_help("[PLACEMENT]");
  options.positional_help("");
  add_shared_options(options, {});
  // The placement is taken verbatim, not through cxxopts, which would split
  // "1,,3" at commas and hide the empty entry.
  std::string text;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << options.help() << '\n';
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-' && !looks_like_negative_number(arg)) {
      throw usage_error("unknown option '" + arg + "' (check takes only a placement)");
    }
    text += arg + ' ';
  }
  if (!text.empty()) {
    const bool ok = check_one(text, "");
    const std::size_t n = parse_placement(text).size();
    if (ok) std::printf("solution: %zu queen%s, no two attack each other\n", n, n == 1 ? "" : "s");
    return ok ? 0 : 1;
  }
  std::size_t checked = 0, failed = 0, line_number = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++checked;
    if (!check_one(line, "line " + std::to_string(line_number) + ": ")) ++failed;
  }
  if (checked == 0) throw usage_error("no placement given (as arguments or on standard input)");
  if (failed == 0) {
    std::printf("%zu placement%s checked: %s\n", checked, checked == 1 ? "" : "s",
                checked == 1 ? "a solution" : "all are solutions");
    return 0;
  }
  std::printf("%zu placement%s checked: %zu %s not a solution\n", checked, checked == 1 ? "" : "s", failed,
              failed == 1 ? "is" : "are");
  return 1;
}

}  // namespace nqueens::cli
