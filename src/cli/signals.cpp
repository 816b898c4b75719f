#include "cli/signals.hpp"

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>

namespace nqueens::cli {
namespace {

std::atomic<bool> stop{false};
std::atomic<int> signal_number{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "signal handlers may only touch lock-free atomics");

extern "C" void on_stop_signal(int sig) {
  if (stop.exchange(true)) _exit(128 + sig);  // the second signal: leave now
  signal_number.store(sig);
}

// Gives SIGINT and SIGTERM the action `handler`.
void set_stop_action(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

void install_stop_handlers() { set_stop_action(on_stop_signal); }

void restore_default_stop_handlers() { set_stop_action(SIG_DFL); }

const std::atomic<bool>& stop_requested() { return stop; }

int stop_signal() { return signal_number.load(); }

namespace {

const char* signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : "SIGINT"; }

}  // namespace

int report_interruption_before_counting(const std::string& checkpoint, int sig, const std::string& who) {
  if (sig == 0) sig = stop_signal();
  if (sig == 0) sig = SIGINT;
  std::cerr << who << ": interrupted by " << signal_name(sig) << " before counting began; nothing was counted"
            << (checkpoint.empty() || !std::filesystem::exists(checkpoint)  // not created yet
                    ? std::string()
                    : " this time: run the same command again to resume from " + checkpoint)
            << '\n';
  return 128 + sig;
}

int report_interruption(const count_result& r, const std::string& checkpoint, int sig, const std::string& who) {
  if (sig == 0) sig = stop_signal();
  std::cerr << who << ": interrupted by " << signal_name(sig) << " after " << r.finished << " of " << r.subproblems
            << " subproblems; "
            << (checkpoint.empty() ? "no --checkpoint was given, so this work is lost"
                                   : "run the same command again to resume from " + checkpoint)
            << '\n';
  return 128 + (sig == 0 ? SIGINT : sig);
}

}  // namespace nqueens::cli
