#include "cli/signals.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>  // program_invocation_short_name
#include <csignal>
#include <cstdint>
#include <ctime>

#include "cli/exit_status.hpp"

namespace nqueens::cli {
namespace {

constexpr std::array<int, 7> caught = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU};

std::atomic<bool> stop_asked{false};
std::atomic<int> signal_number{0};
std::atomic<std::int64_t> first_signal_ns{0};  // CLOCK_MONOTONIC, when the first came
std::atomic<bool> stderr_is_terminal{false};   // looked up when the handlers are installed
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
                  std::atomic<std::int64_t>::is_always_lock_free,
              "signal handlers may only touch lock-free atomics");

// A signal this soon after the first is the same request sent twice, not a
// second one: a scheduler, a process-group kill or a wrapper script often
// sends two at once, and leaving at the second would lose the work the
// first's stop was about to flush.
constexpr std::int64_t repeat_window_ns = 1'000'000'000;

// signal_name() for the handler: a literal, no allocation.
const char* caught_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "a signal";
  }
}

// The status a second signal leaves with: what a SIGALRM that cuts its
// line short exits with too (on_line_too_slow).
std::atomic<int> leaving_status{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_line_too_slow(int) { _exit(leaving_status.load()); }

// The signal is stored before the flag is raised: a thread that sees the
// flag then reads which signal it was (stop_signal), never the default.
extern "C" void on_stop_signal(int sig) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  const std::int64_t at = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  std::int64_t unset = 0;
  first_signal_ns.compare_exchange_strong(unset, at);  // set before the signal: a racing second sees it
  int first = 0;
  if (signal_number.compare_exchange_strong(first, sig)) {
    stop_asked.store(true);
    return;
  }
  // The kernel repeats SIGXCPU every CPU second past the soft limit (every
  // 1/16 s of wall time on 16 threads): a repeat is not a second request.
  if (sig == SIGXCPU && first == SIGXCPU) return;
  if (at - first_signal_ns.load() < repeat_window_ns) return;
  // A second signal: leave now, saying so in one line, the progress line
  // erased first. write() alone: it is async-signal-safe, stdio is not.
  // Only where stderr takes it without waiting: a full pipe that held up
  // the first stop's message would hold up this one too, and the process
  // would never leave (poll is async-signal-safe; a pipe that polls
  // writable has a page free, more than the line). Should another thread
  // fill it between the poll and the writes, SIGALRM ends the wait a
  // second later, with the same status (sigaction and alarm are
  // async-signal-safe too).
  leaving_status.store(interrupted_status(sig));
  struct sigaction cut {};
  cut.sa_handler = on_line_too_slow;
  sigemptyset(&cut.sa_mask);
  sigaction(SIGALRM, &cut, nullptr);
  alarm(1);
  pollfd err{.fd = STDERR_FILENO, .events = POLLOUT, .revents = 0};
  if (::poll(&err, 1, 0) == 1 && (err.revents & POLLOUT) != 0) {
    const auto say = [](const char* text) {
      std::size_t length = 0;
      while (text[length] != '\0') ++length;
      static_cast<void>(::write(STDERR_FILENO, text, length) >= 0);
    };
    if (stderr_is_terminal.load()) say("\r\033[K");
    say(program_invocation_short_name);
    say(": interrupted again, by ");
    say(caught_name(sig));
    say(": leaving at once; a journal keeps what its last flush saved\n");
  }
  _exit(interrupted_status(sig));
}

// Which caught signals stay ignored, looked up once, before this program
// changed any: SIGHUP where the process started with it ignored, as nohup
// starts it (a nohup'd count must outlive the terminal). A shell without
// job control starts its background jobs with SIGINT and SIGQUIT ignored
// too, yet a script's `kill -INT $pid` means stop: those are caught anyway.
const std::array<bool, caught.size()>& ignored_at_start() {
  static const std::array<bool, caught.size()> ignored = [] {
    std::array<bool, caught.size()> result{};
    for (std::size_t k = 0; k < caught.size(); ++k) {
      struct sigaction current {};
      result[k] = caught[k] == SIGHUP && sigaction(SIGHUP, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
    }
    return result;
  }();
  return ignored;
}

// Gives every caught signal not ignored from the start the action `handler`.
void set_stop_action(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  // Restarted, a write under way (the progress line's to a slow terminal)
  // goes on, where EINTR would leave its stream failed and the report after
  // it unwritten; every wait here looks at the flag anyway, and standard
  // output and input wait in a poll(), which a signal ends all the same
  // (stoppable_io.hpp).
  action.sa_flags = SA_RESTART;
  // The caught signals wait while a handler runs: two pending at once (sent
  // together) were otherwise handled one inside the other, and the inner,
  // the later delivered, decided the status. Now the one the kernel
  // delivers first (of those pending together, the lowest-numbered) does.
  sigemptyset(&action.sa_mask);
  for (const int sig : caught) sigaddset(&action.sa_mask, sig);
  for (std::size_t k = 0; k < caught.size(); ++k) {
    if (!ignored_at_start()[k]) sigaction(caught[k], &action, nullptr);
  }
}

}  // namespace

std::span<const int> stop_signals() { return caught; }

std::string signal_name(int sig) {
  const std::string name = caught_name(sig);
  return name == "a signal" ? "signal " + std::to_string(sig) : name;
}

void install_stop_handlers() {
  stderr_is_terminal.store(::isatty(STDERR_FILENO) == 1);
  set_stop_action(on_stop_signal);
  // A process may start with them blocked (a job runner's, a process
  // manager's mask, inherited through exec): then no stop reached the
  // handler, and a SIGTERM before a scheduler's SIGKILL did nothing. The
  // threads started from here on inherit the mask.
  sigset_t stops;
  sigemptyset(&stops);
  for (const int sig : caught) sigaddset(&stops, sig);
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
}

void restore_default_stop_handlers() { set_stop_action(SIG_DFL); }

const std::atomic<bool>& stop_requested() { return stop_asked; }

int stop_signal() {
  const int sig = signal_number.load();
  return sig == 0 ? SIGINT : sig;
}

}  // namespace nqueens::cli
