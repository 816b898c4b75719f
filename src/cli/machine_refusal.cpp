#include "cli/machine_refusal.hpp"

#include <link.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "cli/exit_status.hpp"

// libgcov's, linked where the library is instrumented for NQUEENS_PGO=generate
// (weak: null elsewhere), so that this file is the same in every build.
extern "C" void __gcov_dump(void) __attribute__((weak));

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
// Whether this thread is the one exiting: a refusal on it (a destructor at
// exit out of memory) cannot wait for an end that only it would bring.
thread_local bool exiting_here = false;

[[noreturn]] void wait_for_the_end() noexcept {
  for (;;) ::pause();
}

// At exit (std::atexit): a refusal already ending the process ends it.
void on_exit() noexcept {
  int expected = running;
  if (ending.compare_exchange_strong(expected, exiting)) {
    exiting_here = true;
  } else if (expected == refused) {
    wait_for_the_end();
  }
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
    return std::string_view(e.what()).starts_with("pthread_create has failed");
  } catch (...) {
  }
  return false;
}

// libstdc++ calls std::terminate with no exception in flight where it
// cannot allocate the exception itself: a bad_alloc with no memory for its
// object, and its emergency pool (taken at start) empty or never made, as
// under a `ulimit -v` that leaves the loaded libraries little more.
// A small allocation failing here tells that end from a defect's.
bool no_memory_for_an_exception() noexcept {
  void* const probe = std::malloc(256);
  // Seen to escape, or Clang folds the pair away and answers false.
  asm volatile("" : : "r"(probe) : "memory");
  std::free(probe);
  return probe == nullptr;
}

// One write, unbuffered and allocating nothing: other threads still run,
// and nothing is flushed or destroyed on the way out.
void write_line(std::string_view message) noexcept {
  const std::string_view prefix = line_prefix.load();
  char colon[] = ": ";
  char end[] = "\n";
  iovec parts[] = {{const_cast<char*>(prefix.data()), prefix.size()},
                   {colon, 2},
                   {const_cast<char*>(message.data()), message.size()},
                   {end, 1}};
  static_cast<void>(::writev(2, parts, 4) >= 0);  // a bare void cast does not quiet warn_unused_result
}

[[noreturn]] void end_with_uncaught_exception() noexcept {
  constexpr int status = 3;  // failure_of's for each kind refused_by_machine takes
  // Entered again from below: a step of this one that allocates found no
  // memory, not even libstdc++'s emergency pool, and it terminated too.
  // The end comes at once, said as out of memory where nothing was said.
  static thread_local int depth = 0;
  static thread_local bool said = false;
  if (++depth > 1) {
    if (!said) write_line(out_of_memory_message);
    ::_exit(status);
  }
  const std::exception_ptr error = std::current_exception();
  const bool out_of_memory = error == nullptr && no_memory_for_an_exception();
  if (!out_of_memory && (error == nullptr || !refused_by_machine(error))) std::abort();
  // The first here ends the process; a thread after it, or one that came
  // as the process exits (its status stands: it ran without this thread),
  // waits for that end; but not the exiting thread itself.
  int expected = running;
  if (!ending.compare_exchange_strong(expected, refused) && !exiting_here) wait_for_the_end();
  try {
    write_line(out_of_memory ? out_of_memory_message : failure_of(error).message);
    said = true;
  } catch (...) {  // no memory left for the line: the status says it
  }
  if (const refusal_finisher finish = finisher.load()) finish(status);
  ::_exit(status);
}

// Whether the CUDA driver (libcuda.so.1, which the GPU engine's module
// loads) is in the process: it, the CUDA runtime and NVIDIA's tools beside
// them (a profiler's last trace buffer) finish their work at exit.
bool cuda_driver_loaded() noexcept {
  return ::dl_iterate_phdr(
             [](dl_phdr_info* info, std::size_t, void*) noexcept -> int {
               const std::string_view path = info->dlpi_name == nullptr ? "" : info->dlpi_name;
               const std::string_view file = path.substr(path.rfind('/') + 1);  // npos + 1: all of it
               return file.starts_with("libcuda.so") ? 1 : 0;
             },
             nullptr) != 0;
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
  exiting_here = true;
  // What exit() would flush, unchecked as there (standard output is
  // closed by now where a command wrote it).
  std::cout.flush();
  std::cerr.flush();
  static_cast<void>(std::fflush(nullptr));
  // Still `exiting`: a refusal from here waits for the end (on_exit lets
  // the exit through).
  if (sanitizers_check_at_exit || cuda_driver_loaded()) std::exit(status);
  // The profile (scripts/pgo.sh), which exit() would write and _exit does not.
  if (__gcov_dump != nullptr) __gcov_dump();
  ::_exit(status);
}

}  // namespace nqueens::cli
