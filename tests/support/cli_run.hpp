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

/// A command's deadline: well inside CTest's for the test (600 s, 1800 s
/// sanitized, tests/CMakeLists.txt), where a sanitized build runs 10-50x slower.
#ifdef NQUEENS_SANITIZED
inline constexpr int cli_deadline_seconds = 1500;
#else
inline constexpr int cli_deadline_seconds = 300;
#endif

/// Runs `command_line` in the shell, stdin from /dev/null, under a deadline
/// of `deadline_seconds` (then SIGTERM, and SIGKILL 10 s on): a hung run
/// fails its test with status 124 or 137 rather than wait for CTest's
/// timeout. Its files lie in the test's own directory (own_directory.cpp).
inline cli_run run_cli_command(const std::string& command_line, int deadline_seconds = cli_deadline_seconds) {
  static int calls = 0;
  const std::string tag = "nqueens-cli-" + std::to_string(++calls);
  const std::string script = tag + ".sh", out = tag + ".out", err = tag + ".err";
  {
    std::ofstream file(script);
    // Off a terminal the tool's lines take $COLUMNS' width: the caller's
    // must not cut what the tests read (a command may still set its own).
    file << "unset COLUMNS\n" << command_line << '\n';
    file.close();
    if (!file) {
      ADD_FAILURE() << "cannot write " << std::filesystem::absolute(script);
      return {};
    }
  }
  const std::string command =
      "timeout -k 10 " + std::to_string(deadline_seconds) + " sh " + script + " >" + out + " 2>" + err + " </dev/null";
  const int raw = std::system(command.c_str());
  cli_run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  for (const std::string& file : {script, out, err}) std::filesystem::remove(file);
  return r;
}

/// `nqueens ARGS`; `args` is passed through the shell unquoted, so keep it to
/// simple words.
inline cli_run run_cli(const std::string& args) { return run_cli_command(std::string(NQUEENS_CLI_PATH) + " " + args); }

/// Runs a shell script in which $NQ is the nqueens binary (for background
/// runs, signals and limits); stdout and stderr are captured as for run_cli.
inline cli_run run_script(const std::string& script) {
  return run_cli_command("NQ='" + std::string(NQUEENS_CLI_PATH) + "'\n" + script);
}

inline int lines_in(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

/// The length of the longest line of `text`, in bytes.
inline std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    widest = std::max(widest, end - start);
    start = end + 1;
  }
  return widest;
}

}  // namespace nqueens::test
