#pragma once

// Runs the real `nqueens` binary (NQUEENS_CLI_PATH) through the shell and
// captures its exit status, stdout and stderr: the helpers of the CLI tests.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace nqueens::test {

struct cli_run {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs `command_line` in the shell, stdin from /dev/null.
inline cli_run run_cli_command(const std::string& command_line) {
  const auto dir = std::filesystem::temp_directory_path();
  static int calls = 0;  // ctest runs each test in its own process: pid + call number is unique
  const auto tag = std::to_string(::getpid()) + "-" + std::to_string(++calls);
  const auto out = dir / ("nqueens-cli-" + tag + ".out");
  const auto err = dir / ("nqueens-cli-" + tag + ".err");
  const std::string command = command_line + " >" + out.string() + " 2>" + err.string() + " </dev/null";
  const int raw = std::system(command.c_str());
  cli_run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

/// `nqueens ARGS`; `args` is passed through the shell unquoted, so keep it to
/// simple words.
inline cli_run run_cli(const std::string& args) { return run_cli_command(std::string(NQUEENS_CLI_PATH) + " " + args); }

/// Runs a shell script in which $NQ is the nqueens binary (for background
/// runs, signals and limits); stdout and stderr are captured as for run_cli.
inline cli_run run_script(const std::string& script) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto file = dir / ("nqueens-cli-" + std::to_string(::getpid()) + ".sh");
  {
    std::ofstream out(file);
    out << "NQ='" << NQUEENS_CLI_PATH << "'\n" << script << '\n';
  }
  cli_run r = run_cli_command("sh " + file.string());
  std::filesystem::remove(file);
  return r;
}

inline int lines_in(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace nqueens::test
