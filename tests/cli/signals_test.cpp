#include "cli/signals.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "support/child_deadline.hpp"

namespace nqueens::cli {
namespace {

// What a child process wrote to stderr (a file, or `full_stderr`: a pipe
// nobody reads, full) and how it ended, after it
// installed the stop handlers and raised `first`, then, `gap` later,
// `second`. Raised in the child itself, a signal is handled before raise()
// returns, except under ThreadSanitizer, which defers it to a later call:
// the child waits for the first to be taken before the gap begins, so that
// the gap between the two handlers is at least `gap`.
struct ended {
  int status = -1;  ///< exit status, or 128 + the signal that killed it
  std::string err;
  double seconds = 0;  ///< from the fork to the end
};
ended after_two_signals(int first, std::chrono::milliseconds gap, int second, bool full_stderr = false) {
  const std::string file = ::testing::TempDir() + "signals-" + std::to_string(::getpid()) + ".err";
  int ends[2] = {-1, -1};
  if (full_stderr) {
    if (::pipe(ends) != 0) return {.err = "no pipe"};
    ::fcntl(ends[1], F_SETFL, ::fcntl(ends[1], F_GETFL) | O_NONBLOCK);
    const char byte = 'x';
    while (::write(ends[1], &byte, 1) == 1) {
    }
    ::fcntl(ends[1], F_SETFL, ::fcntl(ends[1], F_GETFL) & ~O_NONBLOCK);  // a write waits, as a real one does
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int err = full_stderr ? ends[1] : ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, STDERR_FILENO);
    install_stop_handlers();
    std::raise(first);
    for (int waited = 0; !stop_requested() && waited < 10000; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(gap);
    std::raise(second);
    ::_exit(stop_requested() ? 0 : 1);  // 0: the second was taken for a repeat of the first
  }
  const std::optional<int> waited = test::wait_for_child(pid);  // nullopt: it hung, and was killed
  const int raw = waited.value_or(0);
  std::stringstream text;
  if (full_stderr) {
    ::close(ends[1]);
    std::string held;
    char buffer[4096];
    for (ssize_t got; (got = ::read(ends[0], buffer, sizeof buffer)) > 0;) held.append(buffer, buffer + got);
    ::close(ends[0]);
    text << held.substr(std::min(held.find_first_not_of('x'), held.size()));  // what came after the filler
  } else {
    text << std::ifstream(file).rdbuf();
    std::remove(file.c_str());
  }
  return {!waited          ? -1
          : WIFEXITED(raw) ? WEXITSTATUS(raw)
                           : 128 + WTERMSIG(raw),
          text.str(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

// A second signal more than a second after the first leaves at once, with
// its own status and one line saying so (stderr a file: it takes the line).
TEST(SignalsTest, ASecondSignalLeavesAtOnceSayingSo) {
  const ended r = after_two_signals(SIGINT, std::chrono::milliseconds(1200), SIGTERM);
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_EQ(r.err, std::string(program_invocation_short_name) +
                       ": interrupted again, by SIGTERM: leaving at once; a journal keeps what its last flush saved\n");
}

// Where stderr takes nothing (a full pipe nobody reads), the second leaves
// at once all the same, without its line: a handler that waited to write it
// would never leave.
TEST(SignalsTest, ASecondSignalLeavesAtOnceThoughStderrIsFull) {
  const ended r = after_two_signals(SIGINT, std::chrono::milliseconds(1200), SIGTERM, /*full_stderr=*/true);
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_EQ(r.err, "");
}

// One within a second of the first is the same request sent twice (a
// scheduler's, a process group's): the stop goes on, nothing is said.
TEST(SignalsTest, ASecondSignalWithinASecondIsARepeat) {
  const ended r = after_two_signals(SIGTERM, std::chrono::milliseconds(0), SIGINT);
  // Back to back, the two come a second apart only where the machine held
  // the child still that long: then nothing is shown either way.
  if (r.status != 0 && r.seconds >= 1.0) GTEST_SKIP() << "the child was held " << r.seconds << " s between its signals";
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// SIGXCPU again, however late, is the kernel repeating it every CPU second
// past the soft limit while the first's stop flushes: never a second
// request (which would leave before the journal's last flush).
TEST(SignalsTest, SigxcpuRepeatedLaterIsStillTheFirst) {
  const ended r = after_two_signals(SIGXCPU, std::chrono::milliseconds(1200), SIGXCPU);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// Two signals pending at once are handled one after the other, never one
// inside the other: the first delivered decides. The kernel delivers the
// lower-numbered first, so SIGINT; had SIGTERM's handler run inside
// SIGINT's (the handlers' mask empty), SIGTERM would have been taken first.
// (Not SIGHUP: under nohup the handlers rightly leave it ignored.)
TEST(SignalsTest, TwoSignalsPendingAtOnceAreHandledInTurn) {
  const pid_t pid = ::fork();
  if (pid == 0) {  // one thread: both signals pending on it
    install_stop_handlers();
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGINT);
    sigaddset(&both, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &both, nullptr);
    ::kill(::getpid(), SIGTERM);
    ::kill(::getpid(), SIGINT);
    ::pthread_sigmask(SIG_UNBLOCK, &both, nullptr);
    for (int waited = 0; !stop_requested() && waited < 10000; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::_exit(stop_requested() ? stop_signal() : 100);
  }
  const std::optional<int> raw = test::wait_for_child(pid);
  ASSERT_TRUE(raw.has_value()) << "the child hung";
  ASSERT_TRUE(WIFEXITED(*raw)) << "killed by signal " << WTERMSIG(*raw);
  EXPECT_EQ(WEXITSTATUS(*raw), SIGINT) << "100: no stop was asked";
}

}  // namespace
}  // namespace nqueens::cli
