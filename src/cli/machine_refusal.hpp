#pragma once

// An exception that no thread catches and that says the machine refused the
// process something (memory, a thread: oneTBB's workers throw "pthread_create
// has failed" where `ulimit -v` leaves no room for one) ends the process as
// a failure, with one line and status 3, not as a defect, with an abort and
// a core dump. The journal keeps its last flush, as after a crash.

#include "cli/sanitized_build.hpp"

namespace nqueens::cli {

/// Called last, with the status, where the process must do more than exit
/// (nqueens-mpi: MPI_Abort, so that every launcher ends the job).
using refusal_finisher = void (*)(int status);

/// Installs the std::terminate handler. `prefix` ("nqueens", or
/// "nqueens-mpi: rank 3") leads the line, and must outlive the process;
/// a later call replaces both. A terminate with no exception in flight and
/// no memory left is libstdc++'s bad_alloc that found no memory for itself:
/// the out-of-memory line. Any other (no exception with memory to spare, or
/// one of another kind: a defect) still aborts. Of several threads that
/// reach it at once one ends the process, the others wait; and where the
/// process is already exiting (it finished without the refused thread),
/// its own status stands and no line is printed.
void end_machine_refusals_cleanly(const char* prefix, refusal_finisher finish = nullptr) noexcept;

/// main's last step, once everything is written and closed: ends the
/// process with `status` (after flushing what exit() would) without
/// destroying static objects. oneTBB starts its workers late, one from
/// another, and exit() destroyed oneTBB's objects under a worker still
/// starting: "pure virtual method called" and an abort, or that line after
/// status 0 (about one run in 200 under `ulimit -u`). Waiting for them
/// instead (tbb::finalize) hangs with oneTBB 2021.8 once
/// max_allowed_parallelism was raised and lowered, as every count on more
/// threads than cores does. Sanitized builds exit() as before, their
/// checks running at exit, and so does a process that loaded the CUDA
/// driver: the CUDA runtime and NVIDIA's profilers finish at exit.
[[noreturn]] void end_process(int status) noexcept;

/// Whether this build's sanitizers check at exit (leaks, ThreadSanitizer's
/// status): end_process then ends through exit().
inline constexpr bool sanitizers_check_at_exit = sanitized_build;

}  // namespace nqueens::cli
