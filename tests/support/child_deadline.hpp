#pragma once

// Waiting for a forked child under a deadline: a child that hangs (the
// defect a test guards against) fails its test instead of holding the
// whole run until CI's limit, with no word of which test hung.

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <optional>
#include <thread>

namespace nqueens::test {

/// The child's wait status once it ends, or nullopt (the child then
/// killed and reaped) where it has not ended within `limit`.
inline std::optional<int> wait_for_child(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(60)) {
  int raw = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < deadline;) {
    if (::waitpid(pid, &raw, WNOHANG) == pid) return raw;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &raw, 0);
  return std::nullopt;
}

}  // namespace nqueens::test
