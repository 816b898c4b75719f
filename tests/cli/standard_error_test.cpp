#include "cli/io/standard_error.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "cli/machine_refusal.hpp"
#include "support/child_deadline.hpp"

namespace nqueens::cli {
namespace {

// What a child that routed std::cerr, wrote `whole` and then the start of a
// line, and ended through exit() (`through_exit`) or end_process, left on
// its stderr (a file).
std::string left_on_stderr(bool through_exit) {
  const std::string file = ::testing::TempDir() + "standard-error-" + std::to_string(::getpid()) + ".err";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int err = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, STDERR_FILENO);
    route_standard_error();
    std::cerr << "nqueens: " << 1 << " whole line\n"
              << "the start";
    std::cerr << " of one";
    if (through_exit) std::exit(0);
    end_process(0);
  }
  if (!test::wait_for_child(pid)) ADD_FAILURE() << "the child did not end within a minute";
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  std::remove(file.c_str());
  return text.str();
}

// Written a line at a time, std::cerr loses nothing at the end: the start
// of a line still waiting is written by the exit, and by end_process. (A
// sanitized build's leak check may write after it: the child, forked from
// a process of many threads, holds what their stacks pointed to.)
TEST(StandardErrorTest, NothingWaitingIsLostAtTheEnd) {
  const std::string all = "nqueens: 1 whole line\nthe start of one";
  for (const bool through_exit : {true, false}) {
    const std::string left = left_on_stderr(through_exit);
    EXPECT_TRUE(left.starts_with(all)) << (through_exit ? "exit(): " : "end_process: ") << left;
  }
}

}  // namespace
}  // namespace nqueens::cli
