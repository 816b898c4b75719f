#include "cli/scale_command.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/exit_status.hpp"
#include "cli/json.hpp"
#include "cli/message_text.hpp"
#include "cli/output.hpp"
#include "cli/output_file.hpp"
#include "cli/progress_line.hpp"
#include "cli/report.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/scaling.hpp"
#include "nqueens/threads.hpp"

namespace nqueens::cli {
namespace {

// A one-thread run shorter than this times start-up and noise more than
// counting: speed-ups of 7x on 2 cores came from Q(10).
constexpr double min_telling_seconds = 0.5;

// Every element is parsed, an empty one included (getline would drop a
// trailing one: "1," must be refused as ",1" is).
std::vector<int> parse_thread_list(const std::string& text) {
  std::vector<int> counts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    counts.push_back(parse_threads(std::string_view(text).substr(start, comma - start)));
    if (comma == std::string::npos) return counts;
    start = comma + 1;
  }
}

double fastest(const scaling_row& row) { return *std::min_element(row.seconds.begin(), row.seconds.end()); }
double slowest(const scaling_row& row) { return *std::max_element(row.seconds.begin(), row.seconds.end()); }

// A row a line, each with what it measured (n, engine, instruction set), so
// that a file read alone says what it is; the first columns as they were.
// The CSV's first line; a file that starts as every version's did (six
// columns until 2026-11-29) is one --csv may replace.
constexpr std::string_view csv_header =
    "threads,median_seconds,speedup,efficiency,total,runs,min_seconds,max_seconds,n,engine,isa\n";
constexpr std::string_view csv_start = "threads,median_seconds,speedup,efficiency,total,runs";

std::string csv_of(const scaling_result& r, int n, engine kind) {
  std::string csv(csv_header);
  char line[256];
  for (const scaling_row& row : r.rows) {
    std::snprintf(line, sizeof line, "%d,%.6f,%.4f,%.4f,%s,%zu,%.6f,%.6f,%d,%s,%s\n", row.threads, row.median_seconds,
                  row.speedup, row.efficiency, to_string(row.total).c_str(), row.seconds.size(), fastest(row),
                  slowest(row), n, std::string(to_string(kind)).c_str(), std::string(to_string(active_isa())).c_str());
    csv += line;
  }
  return csv;
}

// What would make the table mislead, said on stderr before it: one-thread
// runs too short to time speed-ups by (start-up and noise, not counting),
// thread counts past the hardware's (they measure oversubscription).
void warn_of_weak_measurements(const scaling_result& r, int n) {
  // Only where there is a speed-up to mislead: one row compares nothing.
  if (r.rows.size() > 1 && r.rows.front().median_seconds < min_telling_seconds) {
    std::cerr << formatted(
        "nqueens: warning: one thread took %.4f s, too short to time threads by (start-up and "
        "noise): take a larger N, such as %d\n",
        r.rows.front().median_seconds, std::min(n + 3, max_board_size));
  }
  const int hardware = hardware_threads();
  if (!r.rows.empty() && r.rows.back().threads > hardware) {
    std::cerr << formatted(
        "nqueens: warning: this machine runs %d threads at once: rows past it measure threads "
        "sharing them\n",
        hardware);
  }
}

// The scaling table: a row per thread count, and whether every run agreed.
class scale_report final : public report {
 public:
  scale_report(const scaling_result& r, int n, engine kind, int repeat) : r_(r), n_(n), kind_(kind), repeat_(repeat) {}

  void write_text(std::ostream& out) const override {
    out << formatted("Q(%d) with engine %s, median of %d run%s per row\n", n_, std::string(to_string(kind_)).c_str(),
                     repeat_, repeat_ == 1 ? "" : "s");
    out << formatted("%8s %12s %9s %9s %11s %20s\n", "threads", "seconds", "spread", "speedup", "efficiency", "total");
    for (const scaling_row& row : r_.rows) {
      // The spread: the slowest run less the fastest, against the median.
      const double spread = row.median_seconds > 0 ? (slowest(row) - fastest(row)) / row.median_seconds : 0.0;
      out << formatted("%8d %12.6f %8.1f%% %8.2fx %10.1f%% %20s\n", row.threads, row.median_seconds, 100.0 * spread,
                       row.speedup, 100.0 * row.efficiency, to_string(row.total).c_str());
    }
    out << (r_.consistent
                ? "every run counted the same total, " + describe(r_.check.total, r_.check.published_total, oeis_total)
                : std::string("TOTALS DIFFER between runs"))
        << '\n';
  }

  json_object json() const override {
    std::string rows;
    for (const scaling_row& row : r_.rows) {
      rows += rows.empty() ? "" : ",";
      rows += json_object()
                  .add("threads", row.threads)
                  .add("median_seconds", row.median_seconds)
                  .add("speedup", row.speedup)
                  .add("efficiency", row.efficiency)
                  .add("total", row.total)
                  .add_raw("seconds", json_array_of(row.seconds))
                  .str();
    }
    return json_object()
        .add("n", n_)
        .add("engine", to_string(kind_))
        .add("isa", to_string(active_isa()))
        .add("repeat", repeat_)
        .add("consistent", r_.consistent)
        .add_raw("verified", verified_json(r_.check))
        .add_raw("rows", "[" + rows + "]");
  }

 private:
  const scaling_result& r_;
  int n_;
  engine kind_;
  int repeat_;
};

}  // namespace

int run_scale(const std::vector<std::string>& args) {
  cxxopts::Options options("nqueens scale",
                           "Count Q(N) with 1, 2, 4, ... threads, R times each, and print the median time, the\n"
                           "speed-up over one thread and the parallel efficiency. A time is a whole count's wall\n"
                           "time (plan, tables, counting), after one untimed count; the runs go in rounds over\n"
                           "every thread count. Exit 1 if a run's total differs, or from the published value.");
  options.custom_help("N [options]");
  options.positional_help("");
  options.add_options()("r,repeat", "Runs per thread count; the median is reported",
                        cxxopts::value<std::string>()->default_value("3"))(
      "csv",
      "Also write the rows to this CSV file (replaced only once every run is done, and only if it is one --csv wrote)",
      cxxopts::value<std::string>());
  add_plan_shape_options(options,
                         "Memory each run may use, as for count, e.g. 8G, 512M (default: half the physical memory)");
  add_gpu_options(options);
  add_progress_options(options);
  add_shared_options(options, {.threads = "Comma-separated thread counts (default: 1, 2, 4, ..., the cores where they "
                                          "run several threads each, and all hardware threads)",
                               .engine = "auto",
                               .engine_auto = "the fastest engine for N that fits in --max-memory",
                               .json = true});
  add_board_size_operand(options);
  const auto result = parse_command_line(options, args, true);
  if (printed_help(result, options, engines_help())) return 0;
  const int n = board_size_operand(result);
  const std::vector<int> threads =
      result.count("threads") ? parse_thread_list(result["threads"].as<std::string>()) : default_thread_counts();
  const int repeat = static_cast<int>(parse_integer(result["repeat"].as<std::string>(), "--repeat", 1, 1000));
  count_options opts;
  const plan_shape shape = read_plan_shape(result);
  opts.split_depth = shape.split_depth;
  opts.max_memory = shape.max_memory;
  warn_of_memory_beyond_this_machine(opts.max_memory);
  opts.gpu = read_gpu_options(result);
  // Auto picks for the most threads asked: each thread's buffers count.
  const std::optional<engine> chosen = parse_engine_choice(result["engine"].as<std::string>());
  opts.kind =
      chosen ? *chosen : fastest_engine(n, shape.max_memory, *std::ranges::max_element(threads), shape.split_depth);
  std::optional<output_file> csv_file;  // checked before the runs: a bad path fails at once
  if (result.count("csv")) csv_file.emplace(result["csv"].as<std::string>(), "--csv file", csv_start);
  // A stop signal ends the runs early and return here, so that the CSV's
  // temporary file is removed and its target keeps its old contents.
  install_stop_handlers();
  opts.cancel = &stop_requested();
  // Each count's progress, named by its run: "run 5 of 12, 4 threads".
  const progress_choice shown = read_progress_options(result);
  progress_printer printer(shown.terminal);
  std::function<void(const scaling_step&)> on_step;
  if (shown.progress) {
    opts.on_progress = [&printer](const progress& p) { printer(p); };
    on_step = [&printer](const scaling_step& s) {
      const std::string on = counted(static_cast<std::size_t>(s.threads), "thread");
      printer.set_workers(s.run == 0 ? "untimed first run, " + on : formatted("run %zu of %zu, ", s.run, s.runs) + on);
    };
  }

  const scaling_result r = measure_scaling(n, threads, repeat, opts, on_step);
  printer.finish();
  if (!r.complete || stop_requested()) {  // as count: a signal is never swallowed
    const int sig = stop_signal();
    std::cerr << "nqueens: interrupted by " << signal_name(sig) << "; no rows printed"
              << (csv_file ? ", " + one_line(result["csv"].as<std::string>()) + " left as it was" : std::string())
              << '\n';
    return interrupted_status(sig);
  }
  warn_of_weak_measurements(r, n);
  if (csv_file) {
    csv_file->write(csv_of(r, n, opts.kind));
    csv_file->commit();
  }
  write_report(scale_report(r, n, opts.kind, repeat), format_for(result.count("json") != 0));
  return r.consistent && r.check.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
