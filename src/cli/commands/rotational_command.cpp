#include "cli/commands/rotational_command.hpp"

#include <unistd.h>

#include <iostream>
#include <string>
#include <utility>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output.hpp"
#include "cli/progress_line.hpp"
#include "cli/report.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"

namespace nqueens::cli {

namespace {

// The solutions unchanged by a half and a quarter turn: what rotational
// prints.
class rotational_report final : public report {
 public:
  rotational_report(const count_result& r, std::string checkpoint) : r_(r), checkpoint_(std::move(checkpoint)) {}

  void write_text(std::ostream& out) const override {
    out << "N = " << r_.n << '\n'
        << describe_symmetric_counts(r_.symmetric_180, r_.symmetric_90, r_.check) << "  "
        << counted(static_cast<std::size_t>(r_.threads), "thread") << ", " << format_grouped(r_.subproblems)
        << " subproblems, " << format_seconds(r_.seconds) << '\n';
    out << describe_resumed(r_, checkpoint_);
  }
  json_object json() const override {
    json_object o;
    add_symmetric_counts(o.add("n", r_.n), r_.symmetric_180, r_.symmetric_90);
    return add_published_symmetric_counts(o, r_.check)
        .add_raw("verified", verified_json(r_.check))
        .add("isa", to_string(r_.kernels))
        .add("threads", r_.threads)
        .add("seconds", r_.seconds)
        .add("subproblems", r_.subproblems)
        .add("plan_fingerprint", format_fingerprint(r_.plan_fingerprint))
        .add("resumed", r_.resumed);
  }

 private:
  const count_result& r_;
  std::string checkpoint_;
};

}  // namespace

int run_rotational(const std::vector<std::string>& args) {
  cxxopts::Options options(
      "nqueens rotational",
      "Count the solutions on an N x N board that a half turn (180 degrees) or a quarter turn\n"
      "(90 degrees) of the board leaves unchanged, and check them against OEIS " +
          std::string(oeis_symmetric_180) + " and\n" + oeis_symmetric_90 +
          ". A small search next to Q(N): it builds only the queens of a half or a quarter\n"
          "of the board. (Not the 'symmetric' engine, which counts every solution by searching one\n"
          "member of each symmetry class.) 'nqueens count' reports these counts too.");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{.threads = worker_threads_help, .engine = "", .json = true};
  add_worker_options(options, shared);
  add_long_run_options(options);
  add_closing_options(options, shared);
  add_board_size_operand(options);
  const auto result = parse_command_line(options, args, true);
  if (printed_help(result, options,
                   "N is a board size from " + board_size_range() + "; published values up to " +
                       std::to_string(max_rotational_board_size) + ".\n")) {
    return 0;
  }
  const int n = board_size_operand(result);
  count_options opts;
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  const long_run_choice long_run = read_long_run_options(result);
  opts.checkpoint = long_run.checkpoint;
  opts.checkpoint_interval_seconds = long_run.checkpoint_interval_seconds;
  progress_printer printer(long_run.progress.terminal, STDERR_FILENO, false);  // its plan adds to no total
  show_progress(printer, long_run.progress, opts);
  install_stop_handlers();
  opts.cancel = &stop_requested();

  const count_result r = rotational_counts(n, opts);
  // A signal once every subproblem was counted: the result is written, and
  // status_after_closing_output says the run was stopped.
  if (!r.complete) return report_interruption(r, opts.checkpoint);
  write_report(rotational_report(r, opts.checkpoint), format_for(result.count("json") != 0));
  const int verdict = r.check.ok() ? 0 : 1;
  const int status = status_after_journal(r, verdict, "nqueens", opts.checkpoint);
  return stop_requested() ? verdict : status;  // as count: the stop outranks the journal's end
}

}  // namespace nqueens::cli
