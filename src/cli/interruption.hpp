#pragma once

// What a command says when a stop signal (signals.hpp) ended it, or when
// its journal could not be finished: one line on stderr each, and the exit
// status that goes with it.

#include <string>
#include <string_view>

#include "nqueens/count.hpp"

namespace nqueens::cli {

/// "interrupted by SIGINT before counting began; nothing was counted".
std::string interrupted_before_counting(int sig);

/// `what`, said of a run stopped with nothing new kept, and where its
/// journal `checkpoint` is there (kept from before: none made for this run
/// is left), " this time: run the same command again to resume from ...".
std::string with_resume_hint(const std::string& what, const std::string& checkpoint);

/// Tells on stderr how far an interrupted count `r` got and whether its work
/// is kept in `checkpoint` (empty: none); returns the exit status, 128 +
/// signal. `sig` 0 means stop_signal(); `who` starts the line.
int report_interruption(const count_result& r, const std::string& checkpoint, int sig = 0,
                        const std::string& who = "nqueens");

/// The same for a command that keeps no journal: "nqueens: interrupted by
/// SIGINT " and `what` ("after 12 solutions were written", say).
int report_interruption_of(const std::string& what, int sig = 0);

/// The same for a count stopped before it began counting (while it planned,
/// or read its journal): nothing was counted, the journal is as it was.
int report_interruption_before_counting(const std::string& checkpoint, int sig = 0, const std::string& who = "nqueens");

/// The same for a job stopped before any subproblem was finished (nqueens-mpi:
/// its ranks may have begun one): "interrupted by SIGINT before any
/// subproblem was finished; nothing was kept".
int report_interruption_before_finishing(const std::string& checkpoint, int sig, const std::string& who);

/// The exit status of a count whose report is written: `status`, or, where
/// every subproblem was counted but the journal could not be finished
/// (count_result::journal_unfinished), 3 in place of 0, with a line on
/// stderr ("PROGRAM: why; ...") saying that the result stands and how to
/// finish the journal. Where the published table refutes a count, a line
/// says that the journal `checkpoint` (if any) holds it, and would give it
/// again: the way to count afresh, and to tell a damaged record from a
/// fault of this machine's, is another journal or none.
int status_after_journal(const count_result& r, int status, const char* program, const std::string& checkpoint);

}  // namespace nqueens::cli
