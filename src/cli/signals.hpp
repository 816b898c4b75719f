#pragma once

// The signals that end a long count: SIGINT (Ctrl-C), SIGTERM, SIGHUP (a
// closed terminal or a dropped ssh session), SIGQUIT (Ctrl-\), SIGUSR1 and
// SIGUSR2 (what batch schedulers such as Slurm's --signal send before a time
// limit) and SIGXCPU (a CPU-time limit). The first asks the count to stop
// handing out work (it then flushes its journal and returns); a second, a
// second or more after the first, exits at once with one line on stderr,
// leaving the journal valid up to its last whole record (one sooner is the
// first sent twice). SIGHUP,
// where the process was started with it ignored (nohup), stays ignored.
// What a stopped command then says is interruption.hpp's.

#include <atomic>
#include <span>
#include <string>

namespace nqueens::cli {

/// Every signal install_stop_handlers catches, in the order docs list them.
std::span<const int> stop_signals();

/// "SIGHUP" for SIGHUP, and so on for every stop signal; "signal N" else.
std::string signal_name(int sig);

/// Installs the handlers, before counting, and unblocks their signals in
/// the calling thread (a process may start with them blocked); may be
/// called again (after a library that set its own, such as MPI_Init) and
/// puts them back.
void install_stop_handlers();

/// Gives every stop signal its default action back (ending the process with
/// 128 + signal), for the moments before the exit where nothing looks at
/// stop_requested() any more (status_after_closing_output).
void restore_default_stop_handlers();

/// Set by the first stop signal.
const std::atomic<bool>& stop_requested();

/// The signal that asked to stop, SIGINT if none did (the status a
/// cancelled run reports, 128 + this).
int stop_signal();

}  // namespace nqueens::cli
