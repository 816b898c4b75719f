#include "cli/exit_status.hpp"

#include <csignal>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>

#include "cli/arguments.hpp"
#include "cli/interruption.hpp"
#include "cli/io/line_reader.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/message_text.hpp"
#include "cli/signals.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/memory.hpp"

namespace nqueens::cli {

namespace {

failure classify(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const output_error& e) {  // list and first write standard output themselves
    return {3, e.what()};
  } catch (const input_error& e) {  // check reads standard input
    return {3, e.what()};
  } catch (const checkpoint_error& e) {
    // A journal that belongs elsewhere, is damaged or cannot be opened is a
    // problem with the command line (2); failing to write mid-run is not (3).
    return {e.why() == checkpoint_error::reason::write ? 3 : 2, e.what()};
  } catch (const memory_limit_error& e) {
    // Refused before anything was allocated: a request this machine (or the
    // given --max-memory) cannot serve, reported like a usage error.
    return {2, e.what()};
  } catch (const run_cancelled&) {  // a signal while the command planned
    const int sig = stop_signal();
    return {interrupted_status(sig), interrupted_before_counting(sig)};
  } catch (const usage_error& e) {
    return {2, e.what()};
  } catch (const std::invalid_argument& e) {  // isa_error (NQUEENS_ISA) among them
    return {2, e.what()};
  } catch (const std::bad_alloc&) {  // past what the machine, or a limit on the process (ulimit -v), gives
    return {3, std::string(out_of_memory_message)};
  } catch (const std::system_error& e) {
    // std::thread's refusal says only "Resource temporarily unavailable":
    // what was refused, and the usual limits, are said with it.
    if (e.code() == std::errc::resource_unavailable_try_again) {
      return {3, "error: a thread could not start (" + e.code().message() +
                     "): too many threads, or too little memory for one? see ulimit -u and ulimit -v"};
    }
    return {3, std::string("error: ") + e.what()};
  } catch (const std::runtime_error& e) {
    // oneTBB's own refusal to start a worker, as std::thread's above.
    const std::string what = e.what();
    if (what.starts_with("pthread_create has failed")) {
      return {3, "error: a thread could not start (" + what +
                     "): too many threads, or too little memory for one? see ulimit -u and ulimit -v"};
    }
    return {3, "error: " + what};
  } catch (const std::exception& e) {
    return {3, std::string("error: ") + e.what()};
  } catch (...) {
    return {3, "error: an unknown exception"};
  }
}

}  // namespace

failure failure_of(const std::exception_ptr& error) {
  // Messages quote what the user gave (an operand, a path): a line break
  // or an escape sequence in it must not split the line or act on the terminal.
  failure f = classify(error);
  f.message = one_line(f.message);
  return f;
}

std::string exit_status_text(bool count_alone) {
  std::string words =
      count_alone
          ? "Exit status: 0 ok, 1 a count differs from the published value, 2 usage error or a refusal before "
            "counting (ranks that disagree among them), 3 runtime failure (a write, a rank failing mid-job, the "
            "machine refusing memory, a thread or a stack), 128 + signal interrupted ("
          : "Exit status: 0 ok, 1 a count differs from the published value (check: a placement is not a solution, "
            "or not of the class size given; first: there is none; scale: runs disagree; merge: a shard is missing or "
            "its file empty, given twice or of another run), 2 usage error or a refusal before counting, 3 runtime "
            "failure (a "
            "write, check's read of stdin, plan --estimate finishing no draw in its time, an MPI rank failing "
            "mid-job, the machine refusing memory, a thread or a stack), 128 + signal interrupted (";
  const std::span<const int> signals = stop_signals();
  for (std::size_t k = 0; k < signals.size(); ++k) {
    words += std::to_string(interrupted_status(signals[k])) + " " + signal_name(signals[k]) +
             (k + 1 < signals.size() ? ", " : "");
  }
  words += "; a journal is flushed first)";
  if (count_alone) words += "; mpirun may report a status of its own";
  return words + ".\n";  // wrapped with the rest (fit_help_text)
}

}  // namespace nqueens::cli
