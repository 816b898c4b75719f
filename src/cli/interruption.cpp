#include "cli/interruption.hpp"

#include <filesystem>
#include <iostream>

#include "cli/exit_status.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/message_text.hpp"
#include "cli/signals.hpp"

namespace nqueens::cli {

int report_interruption_of(const std::string& what, int sig) {
  if (sig == 0) sig = stop_signal();
  std::cerr << start_of_a_stop_message() << "nqueens: interrupted by " << signal_name(sig) << ' ' << what << '\n';
  return interrupted_status(sig);
}

std::string interrupted_before_counting(int sig) {
  return "interrupted by " + signal_name(sig) + " before counting began; nothing was counted";
}

std::string with_resume_hint(const std::string& what, const std::string& checkpoint) {
  std::error_code unknown;  // a journal that cannot be looked at now: no hint, not a throw
  const bool kept = !checkpoint.empty() && std::filesystem::exists(checkpoint, unknown);
  return kept ? what + " this time: run the same command again to resume from '" + one_line(checkpoint) + "'" : what;
}

namespace {

// "<who>: <what>", and how to resume the journal where it is there.
int report_stop_with_nothing_new(const std::string& what, const std::string& checkpoint, int sig,
                                 const std::string& who) {
  std::cerr << start_of_a_stop_message() << who << ": " << with_resume_hint(what, checkpoint) << '\n';
  return interrupted_status(sig);
}

}  // namespace

int report_interruption_before_counting(const std::string& checkpoint, int sig, const std::string& who) {
  if (sig == 0) sig = stop_signal();
  return report_stop_with_nothing_new(interrupted_before_counting(sig), checkpoint, sig, who);
}

int report_interruption_before_finishing(const std::string& checkpoint, int sig, const std::string& who) {
  if (sig == 0) sig = stop_signal();
  return report_stop_with_nothing_new(
      "interrupted by " + signal_name(sig) + " before any subproblem was finished; nothing was kept", checkpoint, sig,
      who);
}

int report_interruption(const count_result& r, const std::string& checkpoint, int sig, const std::string& who) {
  if (sig == 0) sig = stop_signal();
  // A shard's run counts its own subproblems, not the plan's.
  const bool part = !r.shard.whole();
  const std::string whose =
      part ? "shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) + "'s " : "";
  const std::size_t all = part ? r.shard_subproblems : r.subproblems;
  std::cerr << start_of_a_stop_message() << who << ": interrupted by " << signal_name(sig)
            << (r.complete
                    ? " after all " + std::to_string(all) + (part ? " of " + whose : " ") +
                          "subproblems were counted, before the result was written; "
                    : " after " + std::to_string(r.finished) + " of " + whose + std::to_string(all) + " subproblems; ")
            << (checkpoint.empty() ? "no --checkpoint was given, so this work is lost"
                                   : "run the same command again to resume from '" + one_line(checkpoint) + "'")
            << '\n';
  // A run stopped as its journal's last write failed: that is said too,
  // with how the journal is finished.
  if (!r.journal_unfinished.empty()) std::cerr << who << ": " << one_line(r.journal_unfinished) << '\n';
  return interrupted_status(sig);
}

int status_after_journal(const count_result& r, int status, const char* program, const std::string& checkpoint) {
  if (!r.check.ok() && !checkpoint.empty()) {
    std::cerr << program << ": the journal " << one_line(checkpoint) << " holds the " << r.shard_subproblems
              << " subproblem counts this result adds up ("
              << (r.resumed == 0 ? std::string("all of them from this run")
                                 : std::to_string(r.resumed) + " of them from before this run")
              << ") and would give them again: count with another --checkpoint, or none, to count afresh and tell a "
                 "damaged record from a machine's fault\n";
  }
  if (r.journal_unfinished.empty()) return status;
  std::cerr << program << ": every subproblem was counted, and the result above stands, but "
            << one_line(r.journal_unfinished) << '\n';
  return status == 0 ? 3 : status;
}

}  // namespace nqueens::cli
