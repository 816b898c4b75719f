#include "cli/commands.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/commands/check_command.hpp"
#include "cli/commands/count_command.hpp"
#include "cli/commands/first_command.hpp"
#include "cli/commands/list_command.hpp"
#include "cli/commands/merge_command.hpp"
#include "cli/commands/plan_command.hpp"
#include "cli/commands/rotational_command.hpp"
#include "cli/commands/scale_command.hpp"
#include "cli/commands/verify_command.hpp"
#include "cli/exit_status.hpp"
#include "cli/help_text.hpp"
#include "cli/message_text.hpp"
#include "cli/nearest_word.hpp"
#include "cli/number_text.hpp"
#include "nqueens/first.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/version.hpp"

namespace nqueens::cli {

namespace {

// "  name     summary": the summary from column `column`, or two spaces
// after a longer name.
std::string usage_line(const std::string& name, const std::string& summary, std::size_t column) {
  std::string line = "  " + name;
  line.resize(std::max<std::size_t>(line.size() + 2, column), ' ');
  return line + summary + '\n';
}

}  // namespace

const std::vector<command>& commands() {
  static const std::vector<command> table = {
      {"count", "N", "Count the solutions on an N x N board (N from " + board_size_range() + ")", run_count, true},
      {"verify", "", "Count a range of N and check each against the published table", run_verify},
      {"scale", "N", "Time the count with 1, 2, 4, ... threads: speed-up and efficiency", run_scale},
      {"rotational", "N",
       "Count the solutions a half or a quarter turn leaves unchanged (N from " + board_size_range() + ")",
       run_rotational},
      {"plan", "N", "Describe the plan for N; --stats times every subproblem", run_plan},
      {"merge", "F...", "Add up the --json outputs of 'count N --shard I/M' and verify", run_merge},
      {"list", "N", "Print the solutions, smallest tuple first (--unique: one per class)", run_list},
      {"first", "N", "Print one solution, built by formula, for N up to " + format_grouped(max_constructed_board_size),
       run_first},
      {"check", "[P...]", "Check placements such as \"1 3 0 2\" (or every line of stdin)", run_check},
  };
  return table;
}

const command* find_command(const std::string& name) {
  for (const command& c : commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// The command `nqueens N` stands for.
const command& shorthand_command() {
  for (const command& c : commands()) {
    if (c.takes_shorthand) return c;
  }
  throw std::logic_error("no command takes the 'nqueens N' shorthand");
}

bool looks_like_board_size(const std::string& text) {
  const std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  const std::size_t digit = text[start] == '+' || text[start] == '-' ? start + 1 : start;
  return digit < text.size() && std::isdigit(static_cast<unsigned char>(text[digit]));
}

const command& command_named(const std::string& name, bool where_options_go) {
  if (const command* c = find_command(name)) return *c;
  if (looks_like_board_size(name)) return shorthand_command();
  if (where_options_go && name.starts_with('-')) {
    throw usage_error("'" + shown_operand(name) +
                      "' is an option, not a command: options go after the command or N, as in 'nqueens count 12 " +
                      "--threads 2' or 'nqueens 12 --threads 2'");
  }
  std::vector<std::string> names;
  for (const command& c : commands()) names.push_back(c.name);
  const std::string nearest = nearest_word(names, name);
  if (!nearest.empty())
    throw usage_error("unknown command '" + shown_operand(name) + "': did you mean '" + nearest + "'?");
  throw usage_error("unknown command '" + shown_operand(name) + "' (try 'nqueens --help')");
}

std::string usage_text() {
  const auto name_of = [](const command& c) { return c.operands.empty() ? c.name : c.name + " " + c.operands; };
  // Every summary starts in one column, two spaces past the longest name.
  constexpr std::string_view help_option = "-h, --help", version_option = "-V, --version";
  std::size_t column = std::max(help_option.size(), version_option.size()) + 4;
  for (const command& c : commands()) column = std::max(column, name_of(c).size() + 4);
  std::string text = "Usage: nqueens <command> [options]\n\nCommands:\n";
  for (const command& c : commands()) text += usage_line(name_of(c), c.summary, column);
  const command& shorthand = shorthand_command();
  text += usage_line(shorthand.operands, "Shorthand for '" + shorthand.name + " " + shorthand.operands + "'", column);
  return fit_help_text(text + "\nOptions:\n" +
                       usage_line(std::string(help_option),
                                  "Show this help; 'nqueens <command> --help' shows a command's options", column) +
                       usage_line(std::string(version_option),
                                  "Print the version, the commit built and the instruction set the kernels use",
                                  column) +
                       "\n" + exit_status_text());
}

std::string version_text(const std::string& program) {
  const isa kernels = active_isa();
  const std::string commit = build_commit().empty() ? "" : "\ncommit: " + std::string(build_commit());
  return program + " " + std::string(version()) + commit + "\nisa: " + std::string(to_string(kernels)) +
         "\nkernels: " + std::string(kernels_name(kernels)) + "\n";
}

bool asks_help_and_version(const std::vector<std::string>& args) {
  const auto is_help = [](const std::string& a) { return a == "--help" || a == "-h"; };
  const auto is_version = [](const std::string& a) { return a == "--version" || a == "-V"; };
  return args.size() == 3 && ((is_help(args[1]) && is_version(args[2])) || (is_version(args[1]) && is_help(args[2])));
}

}  // namespace nqueens::cli
