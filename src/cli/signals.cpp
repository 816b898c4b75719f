#include "cli/signals.hpp"

#include <unistd.h>

#include <csignal>

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

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

const std::atomic<bool>& stop_requested() { return stop; }

int stop_signal() { return signal_number.load(); }

}  // namespace nqueens::cli
