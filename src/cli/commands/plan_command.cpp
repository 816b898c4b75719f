#include "cli/commands/plan_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/count_report.hpp"
#include "cli/interruption.hpp"
#include "cli/io/json.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output.hpp"
#include "cli/progress_line.hpp"
#include "cli/report.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/estimate.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/threads.hpp"
#include "nqueens/verify.hpp"
#include "run/measure/load_balance.hpp"

namespace nqueens::cli {
namespace {

// --estimate-seconds's range.
constexpr double min_estimate_seconds = 0.1, max_estimate_seconds = 3600;

// "plan for n = 20: engine quadrant, split depth 1, 48,880 subproblems,
// fingerprint f93b86e1b28dbc92": the first line of every form of `plan`.
void write_plan_line(std::ostream& out, const plan& p) {
  out << formatted("plan for n = %d: engine %s, split depth %d, %s subproblems, fingerprint %s\n", p.board_size(),
                   std::string(to_string(p.kind())).c_str(), p.split_depth(), format_grouped(p.size()).c_str(),
                   format_fingerprint(p.fingerprint()).c_str());
}

// "2.31e+14 +- 3.5%" style, for a projection and its error ("+- ?" where
// one draw left it unknown).
std::string with_error(double value, double error, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  char share[32];
  if (std::isnan(error)) return std::string(text) + " +- ?";
  std::snprintf(share, sizeof share, " +- %.1f%%", value > 0 ? 100.0 * error / value : 0.0);
  return std::string(text) + share;
}

std::string end_text(estimate_end end, double seconds) {
  switch (end) {
    case estimate_end::precise:
      return formatted("stopped once its standard error was within %.0f%%", 100 * estimate_options{}.target_error);
    case estimate_end::exhausted:
      return "every subproblem counted: exact";
    default:
      return formatted("stopped at the %s limit", format_duration(seconds).c_str());
  }
}

// What makes a projection mean little: too few draws (of a plan with
// more), a sample whose Q(n) is far off the published value, or cores
// another process shared while it sampled (the wall time here assumes
// them all, the thread time does not: it is the draws' own). Said on
// stderr, each as a warning, and kept in --json's "warnings" for a script
// that reads only that.
std::vector<std::string> warnings_about(const cost_estimate& e, const plan& p, double off) {
  const int n = p.board_size();
  std::vector<std::string> warnings;
  if (e.draws_cut > 0) {
    warnings.push_back(formatted(
        "%zu draw%s still counting at twice the sampling time %s stopped and left out: the slowest subproblems are "
        "missing, so the projection is low; sample longer (--estimate-seconds)",
        e.draws_cut, e.draws_cut == 1 ? "" : "s", e.draws_cut == 1 ? "was" : "were"));
  }
  if (e.shared_its_cpus()) {
    warnings.push_back(formatted(
        "the sampling kept %.2g of the %.3g CPU%s it ran on busy: another process was using the cores, and a count "
        "beside it takes longer than the wall time here says",
        e.busy_threads(), e.cpus_here(), e.cpus_here() == 1 ? "" : "s"));
  }
  if (e.ended == estimate_end::exhausted) return warnings;
  // The engine's draws: the rotation search's light tasks say little of the cost.
  const std::size_t engine_runs = e.runs - e.rotation_runs;
  const bool every_engine_subproblem = e.sampled - e.rotation_sampled == p.engine_subproblems();
  if (engine_runs < min_estimate_runs && !every_engine_subproblem) {
    warnings.push_back(formatted(
        "the estimate rests on %zu draw%s of the engine's subproblems, fewer than %zu: it means little; sample "
        "longer (--estimate-seconds)",
        engine_runs, engine_runs == 1 ? "" : "s", min_estimate_runs));
  }
  if (std::isinf(off)) {
    warnings.push_back(formatted(
        "the sample's Q(%d) is off the published value and its draws show no spread to measure by: the sample is "
        "too small or too uneven to trust; sample longer (--estimate-seconds)",
        n));
  } else if (off > 4) {
    warnings.push_back(formatted(
        "the sample's Q(%d) is %.0f standard errors off the published value: the sample is too small or too uneven "
        "to trust; sample longer (--estimate-seconds)",
        n, off));
  }
  // Past the table, the one check left: Q(n) grows with n (from n = 7), so
  // a sample under the board before's count missed the heavy subproblems
  // (n = 28's 10 s sample read 1.4e16, under Q(27)'s 2.3e17).
  if (const std::optional<std::uint64_t> before = published_total(n - 1);
      n > 7 && !published_total(n) && before && e.total < static_cast<double>(*before)) {
    warnings.push_back(formatted(
        "the sample's Q(%d), %.3g, is under the published Q(%d), %s, which it must exceed: the draws missed the "
        "heaviest subproblems, so the projection is low; sample longer (--estimate-seconds)",
        n, e.total, n - 1, to_string(*before).c_str()));
  }
  return warnings;
}

// What a bound made of the plan: parts of one run (shards, journals, MPI)
// take the engine and split of n alone whatever their bounds, so they count
// this plan only where told what the bound chose.
struct fitted_choice {
  bool engine = false;  // auto took a slower engine: the fastest does not fit
  bool split = false;   // a split shallower than the engine's automatic one
  bool any() const noexcept { return engine || split; }
};

// What every form of `plan` says of the plan: the fields its JSON opens
// with, and the memory a count would need (0: next to nothing).
struct plan_facts {
  const plan& p;
  std::uint64_t memory = 0;
  fitted_choice fitted{};
  int split_asked = 0;  // the --split-depth given (0: none), which parts of the run must be given too

  json_object json() const {
    json_object o;
    o.add("n", p.board_size())
        .add("engine", to_string(p.kind()))
        .add("isa", to_string(active_isa()))
        .add("split_depth", p.split_depth())
        .add("subproblems", p.size())
        .add("plan_fingerprint", format_fingerprint(p.fingerprint()))
        .add("published_total", verify(p.board_size(), std::nullopt).published_total);  // what a count must give
    if (memory > 0) o.add("memory_estimate_bytes", memory);
    o.add("fitted_to_memory", fitted.any());  // shards and MPI then need the engine and split named
    return o;
  }

  // Under the plan line of every text form, as "fitted_to_memory" is in
  // every JSON form: the options that make the parts of a run count it.
  void write_fitted_note(std::ostream& out) const {
    if (!fitted.any()) return;
    const char* what = !fitted.engine ? "split depth fitted to"
                       : fitted.split ? "engine and split depth chosen to fit"
                                      : "engine chosen to fit";
    const bool split_named = fitted.split || split_asked != 0;
    out << formatted("%s --max-memory; shards, journals and MPI count this plan\n  given --engine %s%s\n", what,
                     std::string(to_string(p.kind())).c_str(),
                     split_named ? formatted(" --split-depth %d", p.split_depth()).c_str() : "");
  }
};

// `plan N`: the plan's size, fingerprint and the memory a count would need.
class plan_report final : public report {
 public:
  plan_report(plan_facts facts, int threads) : facts_(facts), threads_(threads) {}
  void write_text(std::ostream& out) const override {
    write_plan_line(out, facts_.p);
    if (facts_.memory > 0) {
      const int threads = threads_or_hardware(threads_);
      out << formatted("memory: about %.1f MiB at the peak on %d thread%s\n",
                       static_cast<double>(facts_.memory) / (1024.0 * 1024.0), threads, threads == 1 ? "" : "s");
    }
    facts_.write_fitted_note(out);
  }
  json_object json() const override { return facts_.json(); }

 private:
  plan_facts facts_;
  int threads_;
};

// `plan N --estimate`: the projection from a sample. `cores`: 0, or the
// cores to project the wall time on too; `limit`: the sampling's time limit.
class estimate_report final : public report {
 public:
  estimate_report(plan_facts facts, const cost_estimate& e, int cores, double limit, std::uint64_t seed)
      : facts_(facts),
        e_(e),
        cores_(cores),
        limit_(limit),
        seed_(seed),
        published_(published_total(facts.p.board_size())),
        warnings_(warnings_about(e, facts.p, e.standard_errors_off(published_))) {}

  const cost_estimate& estimate() const noexcept { return e_; }

  void write_text(std::ostream& out) const override {
    const cost_estimate& e = e_;
    write_plan_line(out, facts_.p);
    facts_.write_fitted_note(out);
    const std::size_t engine_runs = e.runs - e.rotation_runs;
    out << formatted(
        "estimate from %.1f s of sampling on %d thread%s%s: %s random draw%s of %zu subproblem%s and %s of the "
        "rotation "
        "search's tasks (%s), the tables built in %s%s\n",
        e.sample_seconds, e.threads, e.threads == 1 ? "" : "s",
        seed_ == estimate_options{}.seed ? "" : (", seed " + std::to_string(seed_)).c_str(),
        format_grouped(engine_runs).c_str(), engine_runs == 1 ? "" : "s", e.draw_length, e.draw_length == 1 ? "" : "s",
        format_grouped(e.rotation_runs).c_str(), end_text(e.ended, limit_).c_str(),
        format_duration(e.setup_seconds).c_str(),
        e.threads > 1 ? formatted(" (%s of it serial)", format_duration(e.setup_serial_seconds).c_str()).c_str() : "");
    out << formatted("  whole count          %s %s-hours (one standard error)\n",
                     with_error(e.thread_seconds / 3600, e.thread_seconds_error / 3600, "%.4g").c_str(),
                     e.device_timed ? "stream" : "thread");
    const std::optional<double> quota = e.device_timed ? std::nullopt : cpu_quota();
    // "about" where the lines above put their figures, whatever the counts' widths.
    const auto label = [](std::string text) {
      text.resize(std::max<std::size_t>(text.size() + 1, 24), ' ');
      return text;
    };
    out << formatted("%sabout %s wall, the tables included%s\n",
                     label(formatted("  here, %2d thread%s", e.threads, e.threads == 1 ? "" : "s")).c_str(),
                     format_duration(e.wall_seconds_here()).c_str(),
                     quota && *quota < e.threads ? formatted(", within a CPU quota of %.3g CPUs", *quota).c_str() : "");
    if (cores_ > 0) {
      // A subproblem runs on one thread: past the plan's size, more cores
      // leave the wall time as it is (cost_estimate::wall_seconds).
      const bool idle = static_cast<std::size_t>(cores_) > e.subproblems;
      out << formatted("%sabout %s wall%s\n",
                       label(formatted("  on %d core%s", cores_, cores_ == 1 ? "" : "s")).c_str(),
                       format_duration(e.wall_seconds(cores_)).c_str(),
                       idle ? formatted(", the plan's %s subproblems keeping at most as many busy",
                                        format_grouped(e.subproblems).c_str())
                                  .c_str()
                            : "");
    }
    out << formatted("  Q(%d) from the sample %s", facts_.p.board_size(),
                     with_error(e.total, e.total_error, "%.4g").c_str());
    if (const std::optional<bool> exact = e.exact_match(published_)) {  // every subproblem counted
      out << formatted("; published %s, %s\n", to_string(*published_).c_str(),
                       *exact ? "the same" : "NOT the same: a miscount");
    } else if (const double errors = e.standard_errors_off(published_); std::isinf(errors)) {
      out << formatted("; published %s, off with no spread to measure by\n", to_string(*published_).c_str());
    } else if (errors >= 0) {
      out << formatted("; published %s, %.1f standard errors off\n", to_string(*published_).c_str(), errors);
    } else if (published_ && e.total_error == 0 && e.total == static_cast<double>(*published_)) {
      // Draws that covered every stratum, short of the whole plan.
      out << formatted("; published %s, the same\n", to_string(*published_).c_str());
    } else {
      out << '\n';
    }
    out << "  (every thread busy to the end; a count's last subproblems leave some idle)\n";
    if (e.device.host_list_nanoseconds != 0 && e.sampled != 0) {  // which side bounds it: beside the stream's time
      const auto sampled = static_cast<double>(e.sampled);
      out << formatted("  own quarter lists a subproblem: %.3g ms of host thread time, %sB staged\n",
                       static_cast<double>(e.device.host_list_nanoseconds) / 1e6 / sampled,
                       format_scaled(static_cast<double>(e.device.staged_list_bytes) / sampled).c_str());
    }
  }

  json_object json() const override {
    const cost_estimate& e = e_;
    json_object o = facts_.json();
    o.add("threads", e.threads)
        .add("seed", seed_)
        .add("sample_seconds", e.sample_seconds)
        .add("busy_threads", e.busy_threads())
        .add("setup_seconds", e.setup_seconds)
        .add("setup_serial_seconds", e.setup_serial_seconds)
        .add("setup_parallel_seconds", e.setup_parallel_seconds)
        .add("sample_runs", e.runs)
        .add("draws_cut", e.draws_cut)
        .add("rotation_runs", e.rotation_runs)
        .add("rotation_sampled", e.rotation_sampled)
        .add("run_length", e.run_length)
        .add("draw_length", e.draw_length)
        .add("device_timed", e.device_timed)
        .add("sampled_subproblems", e.sampled)
        .add("thread_hours", e.thread_seconds / 3600)
        .add("thread_hours_error", e.thread_seconds_error / 3600)
        .add("wall_seconds", e.wall_seconds_here())
        .add("wall_seconds_error", e.wall_seconds_here_error());
    if (cores_ > 0) {
      o.add("cores", cores_)
          .add("wall_seconds_on_cores", e.wall_seconds(cores_))
          .add("wall_seconds_on_cores_error", e.wall_seconds_error(cores_));
    }
    o.add("projected_total", e.total)
        .add("projected_total_error", e.total_error)
        .add("ended", std::string(to_string(e.ended)));
    o.add("verified", e.exact_match(published_));  // null: a sample, not a count
    if (counts_on_gpus(facts_.p.kind())) {         // over the sampled subproblems, as a count's JSON has them
      add_device_work(o, e.device);
    }
    o.add_raw("warnings", json_array_of(std::span<const std::string>(warnings_)));
    return o;
  }

  /// Says each warning on stderr.
  void warn() const {
    for (const std::string& w : warnings_) std::cerr << "nqueens: warning: " << w << '\n';
  }

 private:
  plan_facts facts_;
  cost_estimate e_;
  int cores_;
  double limit_;
  std::uint64_t seed_;
  std::optional<std::uint64_t> published_;
  std::vector<std::string> warnings_;  // after published_, which they are made from
};

// `plan N --stats`: one timed run of every subproblem, and how evenly the
// work is spread.
class stats_report final : public report {
 public:
  stats_report(plan_facts facts, const detail::load_balance& lb) : facts_(facts), lb_(lb) {}
  bool ok() const noexcept { return lb_.check.ok(); }

  void write_text(std::ostream& out) const override {
    const detail::load_balance& lb = lb_;
    write_plan_line(out, facts_.p);
    facts_.write_fitted_note(out);
    out << formatted("timed run on %d thread%s: %.3f s wall, Q(%d) = %s %s\n", lb.threads, lb.threads == 1 ? "" : "s",
                     lb.wall_seconds, facts_.p.board_size(), to_string(lb.total).c_str(),
                     describe(lb.check.total, lb.check.published_total, oeis_total).c_str());
    out << formatted("  work (sum of subproblem times)  %10.3f s\n", lb.total_seconds);
    out << formatted("  longest subproblem              %10.6f s  (%.3f%% of the work)\n", lb.longest_seconds,
                     100.0 * lb.longest_share);
    out << formatted("  median subproblem               %10.6f s\n", lb.median_seconds);
    out << formatted("  speed-up bound (work / longest) %10.0f\n", lb.bound);
    out << formatted("  ETA error, replayed, 10-90%%     %+9.1f%%  (progress ETA on these times, dispatch order)\n",
                     100.0 * lb.eta_worst_error);
  }

  json_object json() const override {
    const detail::load_balance& lb = lb_;
    json_object o = facts_.json();
    o.add("threads", lb.threads)
        .add("wall_seconds", lb.wall_seconds)
        .add("total_seconds", lb.total_seconds)
        .add("longest_seconds", lb.longest_seconds)
        .add("median_seconds", lb.median_seconds)
        .add("longest_share", lb.longest_share)
        .add("bound", lb.bound)
        .add("eta_worst_error", lb.eta_worst_error)
        .add("total", lb.total)
        .add_raw("verified", verified_json(lb.check));
    return o;
  }

 private:
  plan_facts facts_;
  detail::load_balance lb_;
};

// `plan N --estimate`: samples the plan and writes the projection.
int run_estimate(plan_facts facts, const cxxopts::ParseResult& result, int threads, output_format format,
                 std::uint64_t max_memory, const gpu_options& gpu) {
  estimate_options eo;
  eo.threads = threads;
  eo.gpu = gpu;
  eo.seconds = parse_seconds(result["estimate-seconds"].as<std::string>(), "--estimate-seconds", min_estimate_seconds,
                             max_estimate_seconds);
  eo.max_memory = max_memory;  // the run's bound: estimate_cost leaves the engine what the lists do not take
  int cores = 0;
  if (result.count("cores"))
    cores = static_cast<int>(parse_integer(result["cores"].as<std::string>(), "--cores", 1, 100000000));
  if (result.count("seed")) {
    eo.seed = static_cast<std::uint64_t>(
        parse_integer(result["seed"].as<std::string>(), "--seed", 0, std::numeric_limits<long long>::max()));
  }
  eo.cancel = &stop_requested();
  // Sampling counts subproblems: a stop says so, not "before counting".
  const std::string stopped = "while --estimate sampled the subproblems; no estimate is printed";
  std::optional<cost_estimate> estimate;
  try {
    estimate = estimate_cost(facts.p, eo);
  } catch (const run_cancelled&) {
    return report_interruption_of(stopped);
  }
  if (stop_requested()) return report_interruption_of(stopped);  // as count: a signal is never swallowed
  const estimate_report report(facts, *estimate, cores, eo.seconds, eo.seed);
  report.warn();
  write_report(report, format);
  // A sample that counted every subproblem is a count: a miscount fails it, as it fails `count`.
  if (report.estimate().exact_match(published_total(facts.p.board_size())) == false) {
    std::cerr << formatted(
        "nqueens: the sample counted every subproblem and its Q(%d) differs from the published value\n",
        facts.p.board_size());
    return 1;
  }
  return 0;
}

cxxopts::Options plan_command_options() {
  cxxopts::Options options("nqueens plan",
                           "Describe the plan for N: its subproblems and fingerprint. With --stats, run it once,\n"
                           "timing every subproblem, and print how evenly the work is spread.");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{.threads =
                                  "Worker threads of the count priced (its memory), and for --stats and --estimate "
                                  "(default: all hardware threads)",
                              .engine = "auto",
                              .engine_auto = "the fastest engine for N that fits in --max-memory",
                              .json = true};
  add_worker_options(options, shared);
  options.add_options()("stats", "Run the plan and report per-subproblem times and the speed-up bound")(
      "estimate",
      "Sample the plan on every thread and project what the whole count will cost: thread-hours, and wall time "
      "here and on --cores")(
      "estimate-seconds",
      formatted("Seconds to sample for --estimate, %g to %g; the tables are built first, and a draw begun by then "
                "is finished, so the wall time is longer",
                min_estimate_seconds, max_estimate_seconds),
      cxxopts::value<std::string>()->default_value(formatted("%g", estimate_options{}.seconds)))(
      "cores", "With --estimate, also project the wall time on this many cores (a cluster, say)",
      cxxopts::value<std::string>())(
      "seed",
      "With --estimate, the seed of the order its draws are taken in, 0 to 2^63 - 1 (default 1: the same draws each "
      "time; another seed, another sample)",
      cxxopts::value<std::string>());
  add_plan_shape_options(options,
                         "Memory a count may use, as for count: refuse a plan that would need more, e.g. 8G, "
                         "512M (default: half the physical memory)");
  add_gpu_options(options);
  add_progress_options(options, "the run of --stats");
  add_closing_options(options, shared);
  add_board_size_operand(options);
  return options;
}

// GPU options with an engine that counts on the CPU are refused. A GPU is
// needed only where the plan is run (`runs`), or where --devices or
// --gpu-memory are given to be checked as a count would check them.
void check_engine_options(engine kind, int n, int threads, const gpu_options& gpu, bool runs) {
  const bool checks_gpu = counts_on_gpus(kind) && !gpu.is_default();
  if (runs || !counts_on_gpus(kind) || checks_gpu) {
    check_runnable(kind, runs || checks_gpu ? n : 0, threads, gpu);
    return;
  }
  // Threads too few for the GPUs here (given, or all the hardware's, as the
  // count's default), which count refuses, are refused too; where no GPU is
  // usable the plan is still described.
  try {
    static_cast<void>(gpus_taken(gpu, threads));
  } catch (
      const std::runtime_error&) {  // NOLINT(bugprone-empty-catch): no GPU here (too few threads: invalid_argument)
  }
}

// Runs the plan once, timing every subproblem, and reports how evenly the
// work is spread: exit 1 where the run's counts are wrong.
int run_stats(const plan_facts& facts, int threads, std::uint64_t engine_memory, const gpu_options& gpu,
              const progress_choice& shown, output_format format) {
  const std::string stopped = "while --stats timed the subproblems; nothing is reported";
  std::optional<detail::load_balance> lb;
  progress_printer printer(shown.terminal);
  printer.print_in_background(shown.progress_option > 0);
  std::function<void(const progress&)> on_progress;
  if (shown.progress) on_progress = [&printer](const progress& q) { printer(q); };
  try {
    lb = detail::measure_load_balance(facts.p, threads, engine_memory, &stop_requested(), gpu, on_progress);
  } catch (const run_cancelled&) {
    printer.finish();
    return report_interruption_of(stopped);
  }
  printer.finish();
  if (stop_requested()) return report_interruption_of(stopped);  // as count: a signal is never swallowed
  const stats_report report(facts, *lb);
  write_report(report, format);
  return report.ok() ? 0 : 1;
}

}  // namespace

int run_plan(const std::vector<std::string>& args) {
  cxxopts::Options options = plan_command_options();
  const auto result = parse_command_line(options, args, true);
  if (printed_help(result, options, engines_help())) return 0;
  // The engine's choice (n = 28: a fifth of a second) and a large plan
  // (n = 28: about 1 s) take a while: a stop signal in them is answered, not
  // left to kill the process without a word, and so is one while --stats
  // or --estimate runs the plan, or while its report waits on a reader
  // (status_after_closing_output).
  install_stop_handlers();
  const int n = board_size_operand(result);
  const plan_shape shape = read_plan_shape(result);
  plan_options po;
  int threads = 0;
  if (result.count("threads")) threads = parse_threads(result["threads"].as<std::string>());
  const std::optional<engine> choice = parse_engine_choice(result["engine"].as<std::string>());
  const engine_choice chosen = engine_and_split_for(choice, n, shape.max_memory, threads, shape.split_depth);
  po.kind = chosen.kind;
  po.split_depth = chosen.split_depth;
  const gpu_options gpu = read_gpu_options(result);
  const progress_choice shown = read_progress_options(result);  // --stats's run: a count's length
  const bool runs = result.count("stats") != 0 || result.count("estimate") != 0;
  check_engine_options(po.kind, n, threads, gpu, runs);
  if (result.count("estimate") && result.count("stats")) {
    throw usage_error("--estimate and --stats are two ways to time the plan: give one");
  }
  if (!result.count("estimate") &&
      (result.count("estimate-seconds") || result.count("cores") || result.count("seed"))) {
    throw usage_error("--estimate-seconds, --cores and --seed go with --estimate");
  }
  // Asked for and never shown, --progress is refused; --no-progress is
  // kept without --stats too (nothing is shown), for a wrapper that adds it
  // to every command.
  if (!result.count("stats") && shown.progress_option > 0) {
    throw usage_error("--progress goes with --stats, whose run it shows (--estimate shows none)");
  }
  // After every refusal of the options: one line on stderr for those. A
  // plain plan may price a larger node.
  if (runs) warn_of_memory_beyond_this_machine(shape.max_memory);
  po.cancel = &stop_requested();
  std::optional<planned_run> planned;
  try {
    // What a count of the whole plan with these options would be refused
    // for (exit 2) is refused here too.
    planned = plan_within_memory(n, po, shape.max_memory, threads);
  } catch (const run_cancelled&) {
    return report_interruption_before_counting("");
  } catch (const memory_limit_error& e) {
    // With the split that fits, where one does, as count says it.
    throw with_fitting_split(e, po.kind, n, shape.max_memory, threads, shape.split_depth, false);
  }
  if (stop_requested()) return report_interruption_before_counting("");
  const plan& p = planned->p;
  const std::uint64_t engine_memory = planned->engine_memory;

  const plan_facts facts{
      p,
      memory_estimate(n, p.kind(), threads, engine_memory) + run_lists_estimate(p),
      {.engine = !choice && p.kind() != shared_plan_engine(n), .split = shape.split_depth == 0 && po.split_depth != 0},
      shape.split_depth};
  const output_format format = format_for(result.count("json") != 0);
  if (result.count("estimate")) return run_estimate(facts, result, threads, format, shape.max_memory, gpu);
  if (result.count("stats")) return run_stats(facts, threads, engine_memory, gpu, shown, format);
  write_report(plan_report(facts, threads), format);
  return 0;
}

}  // namespace nqueens::cli
