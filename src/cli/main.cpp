// The `nqueens` command-line tool: parses, calls the library, prints.

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/io/placement_io.hpp"
#include "cli/io/standard_descriptors.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/machine_refusal.hpp"
#include "cli/message_text.hpp"
#include "cli/stack_limit.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/version.hpp"

namespace {

using namespace nqueens::cli;

// What the hidden `--list WHAT` prints, a name a line, for the shell
// completion and the test suite (their one source): the registry's engines,
// the build's instruction sets, the commands and the placement formats.
struct name_list {
  const char* name;
  std::vector<std::string> (*names)();
};
template <typename Range, typename Name>
std::vector<std::string> names_of(const Range& range, Name name) {
  std::vector<std::string> out;
  out.reserve(std::size(range));
  for (const auto& item : range) out.emplace_back(name(item));
  return out;
}
const name_list name_lists[] = {
    {"engines",
     [] { return names_of(nqueens::all_engines(), [](nqueens::engine e) { return nqueens::to_string(e); }); }},
    {"isas", [] { return names_of(nqueens::all_isas(), [](nqueens::isa k) { return nqueens::to_string(k); }); }},
    {"commands", [] { return names_of(commands(), [](const command& c) { return c.name; }); }},
    {"formats", [] { return names_of(placement_format_names, [](std::string_view f) { return f; }); }},
};

int dispatch(const std::vector<std::string>& argv) {
  if (argv.size() < 2) throw usage_error("missing command: try 'nqueens count N' or 'nqueens --help'");
  const std::string& first = argv[1];
  if (first == "-h" || first == "--help" || first == "help" || asks_help_and_version(argv)) {
    // `nqueens help count`: that command's help; `help help`, `help
    // --help`, `--help --version` and `--version --help`: this one.
    // Anything else is refused.
    const bool asks_this_help = argv.size() == 3 && (argv[2] == "help" || argv[2] == "-h" || argv[2] == "--help" ||
                                                     argv[2] == "--version" || argv[2] == "-V");
    if (argv.size() > 2 && !asks_this_help) {
      if (argv.size() > 3)
        throw usage_error(first + " takes at most one command's name ('" + shown_operand(argv[3]) + "' is extra)");
      const command& c = command_named(argv[2], false);  // `help 12`: the help of what `nqueens 12` runs
      return c.run({"nqueens " + c.name, "--help"});
    }
    std::cout << usage_text();  // before the NQUEENS_ISA check: help works in any environment
    return 0;
  }
  // NQUEENS_ISA is checked once, before any command reads or writes anything:
  // a wrong one is a one-line usage error (isa_error, exit 2), not a failure
  // halfway through a table, a journal or a merge.
  static_cast<void>(nqueens::active_isa());
  // Hidden (name_lists).
  if (first == "--list") {
    const std::string what = argv.size() == 3 ? argv[2] : "";
    for (const name_list& list : name_lists) {
      if (what == list.name) {
        for (const std::string& name : list.names()) std::cout << name << '\n';
        return 0;
      }
    }
    std::string choices;
    for (std::size_t k = 0; k < std::size(name_lists); ++k) {
      choices += k == 0 ? "'" : k + 1 == std::size(name_lists) ? " or '" : ", '";
      choices += std::string(name_lists[k].name) + "'";
    }
    throw usage_error("--list takes " + choices);
  }
  if (first == "--version" || first == "-V") {
    if (argv.size() > 2) throw usage_error(first + " takes no arguments ('" + shown_operand(argv[2]) + "' is extra)");
    std::cout << version_text("nqueens");
    return 0;
  }
  // `nqueens -- 8`: what follows "--" is the command or the board size,
  // never an option of this level.
  const bool after_options_end = first == "--";
  if (after_options_end && argv.size() == 2) throw usage_error("missing command after '--'");
  if (after_options_end && argv[2] == "help") {  // a command in all but the table: `nqueens -- help count`
    std::vector<std::string> without(argv);
    without.erase(without.begin() + 1);
    return dispatch(without);
  }
  const std::string& name = after_options_end ? argv[2] : first;
  std::vector<std::string> rest(argv.begin() + (after_options_end ? 3 : 2), argv.end());
  const bool shorthand = find_command(name) == nullptr;
  const command& c = command_named(name, !after_options_end);
  if (shorthand) rest.insert(rest.begin(), name);  // `nqueens 12`: the board size is the command's operand
  rest.insert(rest.begin(), "nqueens " + c.name);  // args[0] names the command in its help and errors
  return c.run(rest);
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
  prepare_standard_streams("nqueens");
  if (!ensure_least_stack("nqueens")) end_process(3);
  end_machine_refusals_cleanly("nqueens");
  buffer_standard_output();
  end_process(status_after_closing_output(run_command(std::vector<std::string>(argv, argv + argc)), "nqueens"));
}
