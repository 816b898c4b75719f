// The `nqueens` command-line tool: parses, calls the library, prints.

#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/version.hpp"

namespace {

constexpr const char* usage_text =
    "Usage: nqueens <command> [options]\n"
    "\n"
    "Commands:\n"
    "  count N      Count the solutions on an N x N board (N from 1 to 32)\n"
    "  verify       Count a range of N and check each against the published table\n"
    "  scale N      Time the count with 1, 2, 4, ... threads: speed-up and efficiency\n"
    "  plan N       Describe the plan for N; --stats times every subproblem\n"
    "  merge F...   Add up the --json outputs of 'count N --shard I/M' and verify\n"
    "  list N       Print the solutions, smallest tuple first (--unique: one per class)\n"
    "  first N      Print one solution, built by formula, for N up to 100,000,000\n"
    "  check [P]    Check a placement such as \"1 3 0 2\" (or every line of stdin)\n"
    "  N            Shorthand for 'count N'\n"
    "\n"
    "Options:\n"
    "  -h, --help   Show this help; 'nqueens <command> --help' shows a command's options\n"
    "  --version    Print the version\n"
    "\n"
    "Exit status: 0 ok, 1 a count differs from the published value, 2 usage error,\n"
    "3 runtime failure, 130/143 interrupted by SIGINT/SIGTERM.\n";

int dispatch(const std::vector<std::string>& argv) {
  using namespace nqueens::cli;
  if (argv.size() < 2) throw usage_error("missing command: try 'nqueens count N' or 'nqueens --help'");
  const std::string& first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    std::cout << usage_text;
    return 0;
  }
  if (first == "--version" || first == "-V") {
    std::cout << "nqueens " << nqueens::version() << '\n';
    return 0;
  }
  std::vector<std::string> rest(argv.begin() + 2, argv.end());
  auto command_args = [&](const std::string& name, std::vector<std::string> tail) {
    tail.insert(tail.begin(), "nqueens " + name);
    return tail;
  };
  if (first == "count") return run_count(command_args("count", rest));
  if (first == "verify") return run_verify(command_args("verify", rest));
  if (first == "scale") return run_scale(command_args("scale", rest));
  if (first == "plan") return run_plan(command_args("plan", rest));
  if (first == "merge") return run_merge(command_args("merge", rest));
  if (first == "list") return run_list(command_args("list", rest));
  if (first == "first") return run_first(command_args("first", rest));
  if (first == "check") return run_check(command_args("check", rest));
  // `nqueens N ...` is `nqueens count N ...`; anything number-like goes to
  // count so that "12x" or "-3" get the board-size message.
  if (!first.empty() && (std::isdigit(static_cast<unsigned char>(first[0])) || looks_like_negative_number(first))) {
    rest.insert(rest.begin(), first);
    return run_count(command_args("count", rest));
  }
  throw usage_error("unknown command '" + first + "' (try 'nqueens --help')");
}

}  // namespace

int main(int argc, char** argv) {
  // Past a file-size limit, write() should fail with EFBIG (reported), not
  // kill the process.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> args(argv, argv + argc);
  try {
    return dispatch(args);
  } catch (const nqueens::checkpoint_error& e) {
    // A journal that belongs elsewhere, is damaged or cannot be opened is a
    // problem with the command line (2); failing to write mid-run is not (3).
    std::cerr << "nqueens: " << e.what() << '\n';
    return e.why() == nqueens::checkpoint_error::reason::write ? 3 : 2;
  } catch (const nqueens::memory_limit_error& e) {
    // Refused before anything was allocated: a request this machine (or the
    // given --max-memory) cannot serve, reported like a usage error.
    std::cerr << "nqueens: " << e.what() << '\n';
    return 2;
  } catch (const nqueens::cli::usage_error& e) {
    std::cerr << "nqueens: " << e.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "nqueens: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "nqueens: error: " << e.what() << '\n';
    return 3;
  }
}
