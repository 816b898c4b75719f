// The `nqueens` command-line tool: parses, calls the library, prints.

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/standard_descriptors.hpp"
#include "cli/standard_output.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/version.hpp"

namespace {

using namespace nqueens::cli;

/// One sub-command. The table below is the one list of them: it drives both
/// dispatch and the usage text of `nqueens --help`.
struct command {
  std::string name;
  std::string operands;  ///< as shown in the usage text, e.g. "N"
  std::string summary;   ///< one line for the usage text
  int (*run)(const std::vector<std::string>& args);
  /// `nqueens N ...` means this command (one command has it).
  bool takes_shorthand = false;
};

const std::vector<command>& commands() {
  static const std::vector<command> table = {
      {"count", "N", "Count the solutions on an N x N board (N from " + board_size_range() + ")", run_count, true},
      {"verify", "", "Count a range of N and check each against the published table", run_verify},
      {"scale", "N", "Time the count with 1, 2, 4, ... threads: speed-up and efficiency", run_scale},
      {"rotational", "N", "Count the solutions a half or a quarter turn leaves unchanged (N up to 32)", run_rotational},
      {"plan", "N", "Describe the plan for N; --stats times every subproblem", run_plan},
      {"merge", "F...", "Add up the --json outputs of 'count N --shard I/M' and verify", run_merge},
      {"list", "N", "Print the solutions, smallest tuple first (--unique: one per class)", run_list},
      {"first", "N", "Print one solution, built by formula, for N up to 100,000,000", run_first},
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

// "  name     summary", the summary in column 15.
std::string usage_line(const std::string& name, const std::string& summary) {
  std::string line = "  " + name;
  line.resize(std::max<std::size_t>(line.size() + 2, 15), ' ');
  return line + summary + '\n';
}

std::string usage_text() {
  std::string text = "Usage: nqueens <command> [options]\n\nCommands:\n";
  for (const command& c : commands()) {
    text += usage_line(c.operands.empty() ? c.name : c.name + " " + c.operands, c.summary);
  }
  const command& shorthand = shorthand_command();
  text += usage_line(shorthand.operands, "Shorthand for '" + shorthand.name + " " + shorthand.operands + "'");
  return text + "\nOptions:\n" +
         usage_line("-h, --help", "Show this help; 'nqueens <command> --help' shows a command's options") +
         usage_line("--version", "Print the version and the instruction set the kernels use") +
         "\n"
         "Exit status: 0 ok, 1 a count differs from the published value, 2 usage error,\n"
         "3 runtime failure, 128 + signal interrupted (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 131\n"
         "SIGQUIT, 138/140 SIGUSR1/SIGUSR2, 152 SIGXCPU; a journal is flushed first).\n";
}

// True for text a user meant as a board size: "12", "12x", "-3", " 12", "+12"
// (the count then reports or takes it, rather than "unknown command").
bool looks_like_board_size(const std::string& text) {
  const std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  const std::size_t digit = text[start] == '+' || text[start] == '-' ? start + 1 : start;
  return digit < text.size() && std::isdigit(static_cast<unsigned char>(text[digit]));
}

int dispatch(const std::vector<std::string>& argv) {
  if (argv.size() < 2) throw usage_error("missing command: try 'nqueens count N' or 'nqueens --help'");
  const std::string& first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    std::cout << usage_text();  // before the NQUEENS_ISA check: help works in any environment
    return 0;
  }
  // NQUEENS_ISA is checked once, before any command reads or writes anything:
  // a wrong one is a one-line usage error (isa_error, exit 2), not a failure
  // halfway through a table, a journal or a merge.
  const nqueens::isa kernels = nqueens::active_isa();
  // Hidden: the registry's engines and the build's instruction sets, a name a
  // line, for the shell completion and the test suite (their one source).
  if (first == "--list") {
    const std::string what = argv.size() == 3 ? argv[2] : "";
    if (what == "engines") {
      for (const nqueens::engine e : nqueens::all_engines()) std::cout << nqueens::to_string(e) << '\n';
    } else if (what == "isas") {
      for (const nqueens::isa k : nqueens::all_isas()) std::cout << nqueens::to_string(k) << '\n';
    } else {
      throw usage_error("--list takes 'engines' or 'isas'");
    }
    return 0;
  }
  if (first == "--version" || first == "-V") {
    std::cout << "nqueens " << nqueens::version() << "\nisa: " << nqueens::to_string(kernels) << '\n';
    return 0;
  }
  std::vector<std::string> rest(argv.begin() + 2, argv.end());
  const command* c = find_command(first);
  if (c == nullptr && looks_like_board_size(first)) {
    c = &shorthand_command();
    rest.insert(rest.begin(), first);
  }
  if (c == nullptr) throw usage_error("unknown command '" + first + "' (try 'nqueens --help')");
  rest.insert(rest.begin(), "nqueens " + c->name);  // args[0] names the command in its help and errors
  return c->run(rest);
}

// Runs the command and maps what it throws to an exit status, one line on stderr.
int run_command(const std::vector<std::string>& args) {
  try {
    return dispatch(args);
  } catch (...) {
    const failure f = failure_of(std::current_exception());
    std::cerr << "nqueens: " << f.message << '\n';
    return f.status;
  }
}

}  // namespace

int main(int argc, char** argv) {
  reserve_standard_descriptors("nqueens");  // before anything opens a file
  // Past a file-size limit, write() should fail with EFBIG (reported), not
  // kill the process.
  std::signal(SIGXFSZ, SIG_IGN);
  buffer_standard_output();
  const int status = run_command(std::vector<std::string>(argv, argv + argc));
  try {
    close_standard_output();
  } catch (const output_error& e) {
    // Lost output outranks success and a count mismatch (whose report it
    // held); a usage error, a failure or an interruption says more.
    if (status != 0 && status != 1) return status;
    std::cerr << "nqueens: " << e.what() << '\n';
    return 3;
  }
  return status;
}
