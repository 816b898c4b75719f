#pragma once

// What the fault-injection suites share (tests/fault, tests/mpi): the tools'
// paths, MPI's environment, boards that run long enough to be interrupted,
// and a fixture with a directory of its own per test.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/process.hpp"

namespace nqueens::test {

namespace fs = std::filesystem;

const std::string nq = NQUEENS_CLI_PATH;
const std::string mpi = NQUEENS_MPI_PATH;  // empty: built without MPI
const std::string mpirun = NQUEENS_MPIRUN_PATH;
const std::vector<std::string> mpi_env = {"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                          "OMPI_MCA_rmaps_base_oversubscribe=1"};

#ifdef NQUEENS_SANITIZED  // sanitized kernels run 10-50x slower: smaller boards, same faults
constexpr int long_n = 16;
constexpr const char* long_total = "14772512";
#else
constexpr int long_n = 19;
constexpr const char* long_total = "4968057848";
#endif

// How much a sanitizer's checks stretch CPU time, which no load on the
// machine does: the CPU-time bounds of the stop tests are a plain build's,
// times this (TSan's checks stretch it most).
#if defined(__SANITIZE_THREAD__)
constexpr double sanitizer_cpu_factor = 20;
#elif defined(NQUEENS_SANITIZED)
constexpr double sanitizer_cpu_factor = 5;
#else
constexpr double sanitizer_cpu_factor = 1;
#endif

// A count that runs for minutes in every build, for the tests that stop or
// kill a run and never need its total: the symmetric engine (its speed
// stays put where the quadrant engine's keeps growing: a sanitized Q(16)
// once ended before a signal 0.3 s after its start landed) on one thread
// (a many-core machine is no faster), the journal's first record within a
// second.
inline std::vector<std::string> endless_count(std::vector<std::string> more) {
  std::vector<std::string> argv = {nq, "count", "20", "--engine", "symmetric", "--threads", "1"};
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

#define SKIP_WITHOUT_MPI() \
  if (mpi.empty() || mpirun.empty()) GTEST_SKIP() << "built without MPI"

inline int lines_in(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// Waits up to `seconds` until no running process has `needle` in its command
// line (signal 0 only counts them).
inline bool none_left(const std::string& needle, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (signal_matching(needle, 0) > 0) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

// CPU seconds a process has used (utime + stime from /proc): a measure of
// how far it got that a loaded machine does not stretch.
inline double cpu_seconds_of(pid_t pid) {
  const std::string text = read_file("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t after_name = text.rfind(')');
  if (after_name == std::string::npos) return 0;
  std::istringstream fields(text.substr(after_name + 2));
  std::string field;
  unsigned long long ticks[2] = {0, 0};
  for (int k = 3; k <= 15 && fields >> field; ++k) {  // fields 14 and 15: utime, stime
    if (k >= 14) ticks[k - 14] = std::stoull(field);
  }
  return static_cast<double>(ticks[0] + ticks[1]) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// Resident bytes of a process (VmRSS from /proc), 0 once it is gone.
inline std::uint64_t resident_bytes_of(pid_t pid) {
  std::istringstream lines(read_file("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // in kB
  }
  return 0;
}

// Waits until process `pid` (`c` or one of its children) has used `seconds`
// of CPU time, as long as `c` runs: work done, however loaded the machine.
inline bool wait_for_cpu_seconds(child& c, pid_t pid, double seconds, double deadline_seconds = 300) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(deadline_seconds);
  while (c.running() && cpu_seconds_of(pid) < seconds) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return c.running();
}

// Waits until process `pid` has used `seconds` more CPU time than it has
// now: work done from this moment, not counting what its start-up spent
// (an MPI rank spins in MPI_Init while a loaded machine starts the others).
inline bool wait_for_more_cpu_seconds(child& c, pid_t pid, double seconds, double deadline_seconds = 300) {
  return wait_for_cpu_seconds(c, pid, cpu_seconds_of(pid) + seconds, deadline_seconds);
}

// Whether process `pid` has a handler for `sig` (SigCgt in /proc).
inline bool catches(pid_t pid, int sig) {
  std::istringstream lines(read_file("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("SigCgt:", 0) == 0) return ((std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1) != 0;
  }
  return false;
}

// Whether every thread of `pid` sleeps (state S): waiting on something.
inline bool every_thread_sleeps(pid_t pid) {
  std::error_code gone;
  bool any = false;
  for (fs::directory_iterator task("/proc/" + std::to_string(pid) + "/task", gone), end; !gone && task != end;
       task.increment(gone)) {
    const std::string stat = read_file(task->path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'S') return false;
    any = true;
  }
  return any;
}

// Waits until `c` catches SIGTERM and then every one of its threads sleeps
// at ten looks in a row (a process that waits on a pipe, its work done):
// true; false where it ended or 120 s passed. Should it sleep for a
// moment in between, a signal then finds it working, which a test of a
// signal's answer accepts too.
inline bool wait_until_it_waits(child& c) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (int asleep = 0; asleep < 10;) {
    if (!c.running() || std::chrono::steady_clock::now() > deadline) return false;
    asleep = catches(c.pid(), SIGTERM) && every_thread_sleeps(c.pid()) ? asleep + 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// SIGKILLs every process of this user whose environment holds `entry`
// ("NAME=value"), and waits up to 10 s for them to go.
inline void kill_tagged(const std::string& entry) {
  const auto tagged = [&] {
    std::vector<pid_t> pids;
    std::error_code ec;
    for (const auto& proc : fs::directory_iterator("/proc", ec)) {
      const std::string name = proc.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const auto pid = static_cast<pid_t>(std::stol(name));
      if (pid == ::getpid()) continue;
      const std::string environment = read_file(proc.path() / "environ");
      for (std::size_t at = 0; at < environment.size();) {
        const std::size_t end = std::min(environment.find('\0', at), environment.size());
        if (environment.compare(at, end - at, entry) == 0) {
          pids.push_back(pid);
          break;
        }
        at = end + 1;
      }
    }
    return pids;
  };
  for (const pid_t pid : tagged()) ::kill(pid, SIGKILL);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    bool alive = false;
    for (const pid_t pid : tagged()) {
      const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
      const auto close = stat.rfind(')');
      alive = alive || (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z');
    }
    if (!alive) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '-');  // a parameterised test's "Name/0"
    dir_ = fs::temp_directory_path() / ("nqueens-fault-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  // Whatever a failed test left running of its MPI jobs goes too: ranks run
  // in process groups of their own, which ending mpirun's leaves behind.
  void TearDown() override {
    kill_tagged(test_tag());
    fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string bytes_of(const std::string& file) { return read_file(file); }
  static void write(const std::string& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  }
  // The test's tag, which each of its MPI jobs gives every rank (mpirun -x
  // test_tag()), so that TearDown finds what a failed test left running.
  std::string test_tag() const { return "NQUEENS_TEST_TAG=" + dir_.string(); }
  // Every rank carries the test's tag in its environment (TearDown).
  std::vector<std::string> mpi_job(int ranks, std::vector<std::string> args) const {
    std::vector<std::string> argv = {mpirun, "-x", test_tag(), "-np", std::to_string(ranks), mpi};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  // Waits until `file` is longer than `size` bytes (a run has journaled work).
  static bool wait_for_size(const std::string& file, std::uintmax_t size, child& c, double seconds = 60) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline && c.running()) {
      std::error_code ec;
      if (fs::file_size(file, ec) > size && !ec) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  // Waits until `file` exists, while `c` runs, for at most `seconds`: an
  // event a hook announces (NQUEENS_MPI_TEST_COUNTED).
  static bool wait_for_file(const std::string& file, child& c, double seconds = 120) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline && c.running()) {
      if (fs::exists(file)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return fs::exists(file);  // made as the process ended
  }
  // A field of `nqueens plan N [options] --json` (a string's value without
  // its quotes): what a plan is, asked of the tool, not copied into a test.
  static std::string plan_field(const std::vector<std::string>& plan_args, const std::string& key) {
    std::vector<std::string> argv = {nq, "plan"};
    argv.insert(argv.end(), plan_args.begin(), plan_args.end());
    argv.push_back("--json");
    const finished r = run(argv);
    const std::string tag = "\"" + key + "\":";
    const std::size_t at = r.out.find(tag);
    if (r.status != 0 || at == std::string::npos) return "(plan: no " + key + ")";
    std::size_t from = at + tag.size(), to = r.out.find_first_of(",}", from);
    if (r.out[from] == '"') to = r.out.find('"', ++from);
    return r.out.substr(from, to - from);
  }
  // Digits grouped by thousands, as the report prints a count of
  // subproblems: "1,322".
  static std::string grouped(std::string digits) {
    for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
    return digits;
  }
  // Resumes `journal` with `count` and expects the exact, verified total.
  static void expect_resumes_to(const std::string& journal, int n, const std::string& total,
                                const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {nq, "count", std::to_string(n), "--checkpoint", journal, "--json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    // A hang's deadline, not a speed bound: a whole count under a loaded
    // machine's full CPU hogs took past 120 s.
    const finished r = run(argv, {}, 600);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"total\":" + total + ","), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
  }

  fs::path dir_;
};

}  // namespace nqueens::test
