#pragma once

// Runs a real process for the fault-injection tests: argv without a shell,
// extra environment variables, a file-size limit, stdout/stderr captured in
// files (or any standard descriptor closed), signals sent at chosen moments,
// and a deadline after which the whole process group is killed (a hang fails
// the test instead of stalling CTest).

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace nqueens::test {

struct process_options {
  std::vector<std::string> env;  ///< "NAME=value", added to this process's environment
  long file_size_limit = -1;     ///< RLIMIT_FSIZE in bytes; -1: unchanged
  std::string stdout_path;       ///< empty: a temporary file, read back into finished::out; else not read
  std::vector<int> closed;       ///< of 0, 1, 2: started with these closed (stdout/stderr then read back empty)
  int stdin_fd = -1;             ///< a descriptor the process reads as stdin (a pipe); -1: /dev/null
  int stdout_fd = -1;            ///< one it writes as stdout (a pipe), not read back; -1: as stdout_path says
  int stderr_fd = -1;            ///< one it writes as stderr (a pipe), not read back; -1: a temporary file
};

struct finished {
  int status = -1;         ///< exit status, 128 + signal if killed, -1 if it hung
  std::string out, err;    ///< stdout (unless redirected) and stderr
  long max_rss_kib = 0;    ///< peak resident memory of the process
  double cpu_seconds = 0;  ///< user + system CPU time of the process
  double seconds = 0;      ///< from start to exit
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A started process, in a process group of its own (so that mpirun and its
/// ranks are signalled together).
class child {
 public:
  child(const std::vector<std::string>& argv, const process_options& options = {}) {
    static int serial = 0;
    const auto tag = std::to_string(::getpid()) + "-" + std::to_string(++serial);
    const auto dir = std::filesystem::temp_directory_path();
    out_ = options.stdout_path.empty() ? (dir / ("nqueens-fault-" + tag + ".out")).string() : options.stdout_path;
    own_out_ = options.stdout_path.empty() && options.stdout_fd < 0;
    err_ = (dir / ("nqueens-fault-" + tag + ".err")).string();
    start_ = std::chrono::steady_clock::now();
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::setpgid(0, 0);
      // The signals a test sends act as at a terminal, whatever the runner
      // ignores (nohup ignores SIGHUP, which the tool then keeps ignored).
      for (const int sig : {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU}) ::signal(sig, SIG_DFL);
      for (const std::string& e : options.env) ::putenv(const_cast<char*>(e.c_str()));
      if (options.file_size_limit >= 0) {
        const rlimit limit{static_cast<rlim_t>(options.file_size_limit), static_cast<rlim_t>(options.file_size_limit)};
        ::setrlimit(RLIMIT_FSIZE, &limit);
      }
      const int in = options.stdin_fd >= 0 ? options.stdin_fd : ::open("/dev/null", O_RDONLY);
      const int out =
          options.stdout_fd >= 0 ? options.stdout_fd : ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err =
          options.stderr_fd >= 0 ? options.stderr_fd : ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      for (const int fd : options.closed) ::close(fd);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    ::setpgid(pid_, pid_);  // also here: no race with the first signal
  }
  child(const child&) = delete;
  child& operator=(const child&) = delete;
  ~child() {
    if (!done_) {
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (own_out_) std::filesystem::remove(out_);
    std::filesystem::remove(err_);
  }

  pid_t pid() const noexcept { return pid_; }
  /// The process's state letter from /proc (R, S, T stopped, Z exited...).
  char state() const {
    const std::string stat = read_file("/proc/" + std::to_string(pid_) + "/stat");
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : 'Z';
  }
  /// Sends `sig` to the process alone, or to its whole group.
  void signal(int sig, bool group = false) const { ::kill(group ? -pid_ : pid_, sig); }
  bool running() {
    if (done_) return false;
    int raw = 0;
    rusage usage{};
    if (::wait4(pid_, &raw, WNOHANG, &usage) == pid_) record(raw, usage);
    return !done_;
  }
  /// Waits up to `deadline_seconds` from now; past it the group is killed
  /// and the status is -1.
  finished wait(double deadline_seconds = 300) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(deadline_seconds);
    while (running()) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(-pid_, SIGKILL);
        int raw = 0;
        rusage usage{};
        ::wait4(pid_, &raw, 0, &usage);
        record(raw, usage);
        result_.status = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(-pid_, SIGKILL);                       // whatever the group left behind (mpirun's daemons)
    if (own_out_) result_.out = read_file(out_);  // a caller's file may be /dev/full: endless zeros
    result_.err = read_file(err_);
    return result_;
  }

 private:
  void record(int raw, const rusage& usage) {
    done_ = true;
    result_.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    result_.max_rss_kib = usage.ru_maxrss;
    const auto seconds_of = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
    result_.cpu_seconds = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  pid_t pid_ = -1;
  bool done_ = false;
  bool own_out_ = true;
  std::string out_, err_;
  std::chrono::steady_clock::time_point start_;
  finished result_;
};

/// Sends `sig` to every process whose command line contains `needle` (an MPI
/// rank is a grandchild of mpirun, in a process group of its own), and, for
/// SIGKILL, waits until they are gone. Returns how many were signalled.
inline int signal_matching(const std::string& needle, int sig) {
  const auto matching = [&] {
    std::vector<pid_t> pids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const pid_t pid = static_cast<pid_t>(std::stol(name));
      if (pid == ::getpid()) continue;
      std::string cmdline = read_file(entry.path() / "cmdline");
      for (char& c : cmdline) c = c == '\0' ? ' ' : c;
      if (cmdline.find(needle) != std::string::npos) pids.push_back(pid);
    }
    return pids;
  };
  const std::vector<pid_t> pids = matching();
  for (const pid_t pid : pids) ::kill(pid, sig);
  // Gone, or a zombie (state Z after the name in parentheses): dead either way.
  const auto running = [](const std::filesystem::path& stat_path) {
    const std::string stat = read_file(stat_path);
    const auto close = stat.rfind(')');
    return !stat.empty() && close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' &&
           stat[close + 2] != 'X';
  };
  for (int k = 0; sig == SIGKILL && k < 1000; ++k) {
    bool alive = false;
    for (const pid_t pid : pids) {
      // Every thread, not only the leader: a killed leader shows Z while its
      // other threads still exit, holding its open files (and their locks).
      std::error_code gone;  // the process may vanish while it is read
      for (std::filesystem::directory_iterator task("/proc/" + std::to_string(pid) + "/task", gone), end;
           !gone && task != end; task.increment(gone)) {
        if (running(task->path() / "stat")) alive = true;
      }
    }
    if (!alive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return static_cast<int>(pids.size());
}

/// Runs argv to the end (or the deadline).
inline finished run(const std::vector<std::string>& argv, const process_options& options = {},
                    double deadline_seconds = 300) {
  child c(argv, options);
  return c.wait(deadline_seconds);
}

}  // namespace nqueens::test
