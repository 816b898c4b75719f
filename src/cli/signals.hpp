#pragma once

// SIGINT/SIGTERM for long counts: the first asks the count to stop handing out
// work (it then flushes its journal and returns); the second exits at once,
// leaving the journal valid up to its last whole record.

#include <atomic>
#include <string>

#include "nqueens/count.hpp"

namespace nqueens::cli {

/// Installs the handlers. Call once, before counting.
void install_stop_handlers();

/// Gives SIGINT and SIGTERM their default action back (ending the process
/// with 128 + signal): for the last moments of a run, where nothing would
/// look at stop_requested() any more.
void restore_default_stop_handlers();

/// Set by the first SIGINT or SIGTERM.
const std::atomic<bool>& stop_requested();

/// The signal that asked to stop (SIGINT or SIGTERM), 0 if none.
int stop_signal();

/// Tells on stderr how far an interrupted count `r` got and whether its work
/// is kept in `checkpoint` (empty: none); returns the exit status, 128 +
/// signal. `sig` 0 means stop_signal(); `who` starts the line.
int report_interruption(const count_result& r, const std::string& checkpoint, int sig = 0,
                        const std::string& who = "nqueens");

/// The same for a count stopped before it began counting (while it planned,
/// or read its journal): nothing was counted, the journal is as it was.
int report_interruption_before_counting(const std::string& checkpoint, int sig = 0, const std::string& who = "nqueens");

}  // namespace nqueens::cli
