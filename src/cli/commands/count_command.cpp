#include "cli/commands/count_command.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/count_report.hpp"
#include "cli/exit_status.hpp"
#include "cli/interruption.hpp"
#include "cli/progress_line.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory_limit.hpp"

namespace nqueens::cli {
namespace {

// From this board a count is hours of CPU time (Q(23): about 2.4
// thread-hours at 0.35 thread-ns a solution), and one stopped without a
// journal loses them all.
constexpr int long_count_board = 23;

// Where a person started it, at a terminal: scripts and job logs keep
// their stderr as it was.
void suggest_a_journal(const count_request& request) {
  if (!request.progress.terminal || request.n < long_count_board || !request.options.checkpoint.empty()) return;
  std::cerr << "nqueens: Q(" << request.n
            << ") is a long count: --checkpoint FILE keeps each finished subproblem through a stop or a crash, "
               "and the same command then resumes it\n";
}

}  // namespace

std::optional<count_request> parse_count_request(const std::vector<std::string>& args, bool plan_is_shared) {
  cxxopts::Options options(args.front(), "Count every solution of the n-queens problem on an N x N board.");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{.threads = worker_threads_help,
                              .engine = "auto",
                              .engine_auto = plan_is_shared
                                                 ? "the fastest engine for N that fits in --max-memory (by N "
                                                   "alone, so that every rank agrees)"
                                                 : "the fastest engine for N that fits in --max-memory (by N "
                                                   "alone with --shard, --checkpoint or MPI, so that every part "
                                                   "agrees)",
                              .json = true};
  add_worker_options(options, shared);
  add_plan_shape_options(options,
                         "Memory the run may use (the engine's tables, the plan and its lists), e.g. 8G, 512M "
                         "(default: half the physical memory)");
  // Parsed but unlisted where the plan is shared (nqueens-mpi refuses it
  // with a reason, agreement.cpp): its help shows only what it takes.
  options.add_options(plan_is_shared ? "refused" : "")(
      "shard", "Count only shard I of M (0-based), e.g. 2/8; combine the --json outputs with 'nqueens merge'",
      cxxopts::value<std::string>());
  add_gpu_options(options);
  add_long_run_options(options);
  add_closing_options(options, shared);
  add_board_size_operand(options);
  const auto result = parse_command_line(options, args, true);
  // nqueens-mpi's help is its whole help: its exit statuses too. (Appended:
  // GCC 12 misreads "\n" + string, -Wrestrict.)
  std::string help_tail = "N is a board size from " + board_size_range() + ".\n\n" + engines_help();
  if (plan_is_shared) {
    help_tail += "\n-V, --version alone prints the version, the commit built and the kernels this build runs here.\n\n";
    help_tail += exit_status_text(/*count_alone=*/true);
  }
  if (printed_help(result, options, help_tail)) {
    return std::nullopt;
  }

  count_request request;
  request.n = board_size_operand(result);
  count_options& opts = request.options;
  const std::string engine_name = result["engine"].as<std::string>();
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  const plan_shape shape = read_plan_shape(result);
  opts.split_depth = shape.split_depth;
  request.asked_split_depth = shape.split_depth;
  opts.max_memory = shape.max_memory;
  if (result.count("shard")) opts.shard = parse_shard(result["shard"].as<std::string>());
  opts.gpu = read_gpu_options(result);
  const long_run_choice long_run = read_long_run_options(result);
  opts.checkpoint = long_run.checkpoint;
  opts.checkpoint_interval_seconds = long_run.checkpoint_interval_seconds;
  // A plan that other processes share (shards, a journal resumed elsewhere,
  // MPI ranks) must not depend on this node's memory: auto then goes by n
  // alone, and a node it does not fit refuses rather than count another plan.
  request.shared_plan = plan_is_shared || !opts.shard.whole() || !opts.checkpoint.empty();
  const std::optional<engine> named = parse_engine_choice(engine_name);
  const engine_choice chosen =
      engine_and_split_for(named, request.n, opts.max_memory, opts.threads, opts.split_depth, request.shared_plan);
  request.engine_fitted_to_memory = !named && chosen.kind != shared_plan_engine(request.n);
  opts.kind = chosen.kind;
  opts.split_depth = chosen.split_depth;
  request.progress = long_run.progress;
  request.json = result.count("json") != 0;
  return request;
}

std::vector<count_setting> count_settings(const count_request& request) {
  const count_options& o = request.options;
  const auto number_or_none = [](auto value) { return value == 0 ? std::string() : std::to_string(value); };
  char interval[32];
  std::snprintf(interval, sizeof interval, "%g", o.checkpoint_interval_seconds);
  return {
      {"N", std::to_string(request.n)},
      {"--engine", std::string(to_string(o.kind))},
      {"--split-depth", number_or_none(o.split_depth)},
      {"--threads", number_or_none(o.threads)},
      {"--max-memory", o.max_memory == 0 ? std::string() : std::to_string(o.max_memory) + " bytes"},
      {"--devices", o.gpu.devices},
      {"--gpu-memory", number_or_none(o.gpu.memory)},
      {"--checkpoint", o.checkpoint},
      {"--checkpoint-interval", interval},
      {"--json", request.json ? "yes" : ""},
      {"--progress", request.progress.progress_option > 0 ? "yes" : ""},
      {"--no-progress", request.progress.progress_option < 0 ? "yes" : ""},
  };
}

int run_count(const std::vector<std::string>& args) {
  // Before the request is read: choosing the engine takes a while at large
  // n (28: a fifth of a second), and a stop signal then is answered, not
  // left to kill the process without a word.
  install_stop_handlers();
  std::optional<count_request> request = parse_count_request(args);
  if (!request) return 0;  // --help
  count_options& opts = request->options;
  progress_printer printer(request->progress.terminal);
  show_progress(printer, request->progress, opts);
  warn_of_memory_beyond_this_machine_once_valid(opts, request->n);
  suggest_a_journal(*request);
  opts.cancel = &stop_requested();

  std::optional<count_result> counted;
  try {
    counted = count(request->n, opts);
  } catch (const run_cancelled&) {
    printer.finish();  // a line drawn while the tables were built
    return report_interruption_before_counting(opts.checkpoint);
  } catch (const memory_limit_error& e) {
    printer.finish();
    // A journal kept from before holds its engine and split: no other can resume it.
    if (!opts.checkpoint.empty() && std::filesystem::exists(opts.checkpoint)) {
      throw for_a_kept_journal(e, opts.checkpoint, opts.kind, request->n, opts.shard);
    }
    throw with_fitting_split(e, opts.kind, request->n, opts.max_memory, opts.threads, request->asked_split_depth,
                             request->shared_plan, opts.shard);
  }
  const count_result& r = *counted;
  if (!r.complete) return report_interruption(r, opts.checkpoint);
  count_report report(r, opts.checkpoint);
  report.engine_fitted_to_memory = request->engine_fitted_to_memory;
  // The GPUs it counted on, chosen again as the count chose them: a choice
  // that succeeded a moment ago does not fail now, and were it to, the
  // count stands without the line.
  if (counts_on_gpus(r.kind)) {
    try {
      report.gpus = gpus_taken(opts.gpu, opts.threads);
    } catch (const std::exception&) {
    }
  }
  write_report(report, format_for(request->json));
  // A signal that came once every subproblem was counted is never
  // swallowed, nor by a journal left without its end (3, said above):
  // status_after_closing_output says the run was stopped, with its whole
  // result written (the scheduler that sent it is told so).
  const int verdict = r.check.ok() ? 0 : 1;
  const int status = status_after_journal(r, verdict, "nqueens", opts.checkpoint);
  return stop_requested() ? verdict : status;
}

}  // namespace nqueens::cli
