#include "cli/machine_refusal.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "cli/exit_status.hpp"

namespace nqueens::cli {

namespace {

std::atomic<const char*> line_prefix{"nqueens"};
std::atomic<refusal_finisher> finisher{nullptr};

// Who ends the process: a refused thread, or the main thread's exit,
// whichever comes first; the other waits for it. Else a refusal on a
// worker (oneTBB starting one more, late) and a count that finished
// without it raced: the line printed, and the status 0, or 3, or both lines.
enum ending_state : int { running, refused, exiting };
std::atomic<int> ending{running};

[[noreturn]] void wait_for_the_end() noexcept {
  for (;;) ::pause();
}

// At exit (std::atexit): a refusal already ending the process ends it.
void on_exit() noexcept {
  int expected = running;
  if (!ending.compare_exchange_strong(expected, exiting) && expected == refused) wait_for_the_end();
}

// What the machine refused, not what the program got wrong.
bool refused_by_machine(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::bad_alloc&) {
    return true;
  } catch (const std::system_error& e) {
    return e.code() == std::errc::resource_unavailable_try_again;
  } catch (const std::runtime_error& e) {
    return std::string(e.what()).starts_with("pthread_create has failed");
  } catch (...) {
  }
  return false;
}

[[noreturn]] void end_with_uncaught_exception() noexcept {
  const std::exception_ptr error = std::current_exception();
  if (error == nullptr || !refused_by_machine(error)) std::abort();
  // The first here ends the process; a thread after it, or one that came
  // as the process exits (its status stands: it ran without this thread),
  // waits for that end.
  int expected = running;
  if (!ending.compare_exchange_strong(expected, refused)) wait_for_the_end();
  try {
    const std::string line = std::string(line_prefix.load()) + ": " + failure_of(error).message + "\n";
    // One write, unbuffered: other threads still run, and nothing is
    // flushed or destroyed on the way out.
    static_cast<void>(::write(2, line.data(), line.size()));
  } catch (...) {  // no memory left for the line: the status says it
  }
  constexpr int status = 3;  // failure_of's for each kind refused_by_machine takes
  if (const refusal_finisher finish = finisher.load()) finish(status);
  ::_exit(status);
}

}  // namespace

void end_machine_refusals_cleanly(const char* prefix, refusal_finisher finish) noexcept {
  line_prefix = prefix;
  finisher = finish;
  static const bool watching_exit = std::atexit(on_exit) == 0;
  static_cast<void>(watching_exit);
  std::set_terminate(end_with_uncaught_exception);
}

void end_process(int status) noexcept {
  int expected = running;
  if (!ending.compare_exchange_strong(expected, exiting)) wait_for_the_end();  // a refusal is ending it
  // What exit() would flush (standard output itself is closed by now).
  std::cout.flush();
  static_cast<void>(std::fflush(nullptr));
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizers' own checks (leaks, the status of a race) run at exit.
  ending = running;  // on_exit's turn
  std::exit(status);
#else
  ::_exit(status);
#endif
}

}  // namespace nqueens::cli
