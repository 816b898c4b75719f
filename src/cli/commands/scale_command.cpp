#include "cli/commands/scale_command.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/cpu_name.hpp"
#include "cli/interruption.hpp"
#include "cli/io/json.hpp"
#include "cli/io/output_file.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"
#include "cli/output.hpp"
#include "cli/progress_line.hpp"
#include "cli/report.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/scaling.hpp"
#include "nqueens/threads.hpp"
#include "nqueens/version.hpp"

namespace nqueens::cli {
namespace {

// A one-thread run shorter than this times start-up and noise more than
// counting: speed-ups of 7x on 2 cores came from Q(10).
constexpr double min_telling_seconds = 0.5;

// A row whose runs kept fewer of their threads busy than this share was
// measured on cores another process held (a steady competitor does not
// widen the spread), or on work that did not spread: 2 threads on 2 cores
// keep 1.9 busy on a quiet machine at n = 16, and 1.0 beside a busy loop.
constexpr double min_busy_share = 0.75;

// "1..4", "1-4" or "1:4": digits, a range's mark, digits.
bool looks_like_a_range(std::string_view text) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const std::size_t mark = text.find_first_of(".-:");
  if (mark == 0 || mark == std::string_view::npos || !digit(text[mark - 1])) return false;
  const std::size_t after = text.find_first_not_of(".-:", mark);
  return after != std::string_view::npos && digit(text[after]) && after - mark <= 2;
}

// Every element is parsed, an empty one included (getline would drop a
// trailing one: "1," must be refused as ",1" is). A range ("1..4", "1-4")
// is refused with the list's form, which its error would not name.
std::vector<int> parse_thread_list(const std::string& text) {
  std::vector<int> counts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view element = std::string_view(text).substr(start, comma - start);
    // A range, or an empty element ("1,", "1,,2"), whose own message
    // would name nothing: the list is named.
    if (looks_like_a_range(element) || element.empty()) {
      throw usage_error("--threads takes a comma-separated list of thread counts, such as 1,2,4: got '" +
                        shown_operand(text) + "'");
    }
    const int count = parse_threads(element);
    // Twice the same row would measure nothing the first did not.
    if (std::ranges::find(counts, count) != counts.end()) {
      throw usage_error("--threads names " + std::to_string(count) + " twice ('" + shown_operand(text) +
                        "'): give each thread count once");
    }
    counts.push_back(count);
    if (comma == std::string::npos) return counts;
    start = comma + 1;
  }
}

// What every row of a measurement shares: what ran, and where.
struct measured_on {
  int n = 0;
  engine kind = engine::symmetric;
  std::string isa_name = std::string(to_string(active_isa()));
  std::string kernels = std::string(kernels_name(active_isa()));
  int hardware = hardware_threads();
  /// A CFS quota's CPUs (a container's --cpus), which hardware does not see.
  std::optional<double> quota = cpu_quota();
  std::string cpu = cpu_name();
  /// What made the table less telling, as each warning said it on stderr:
  /// in --json too, for a script that reads only that.
  std::vector<std::string> warnings{};
};

// Says `message` on stderr as a warning, and keeps it for --json.
void warn(measured_on& on, const std::string& message) {
  std::cerr << "nqueens: warning: " << message << '\n';
  on.warnings.push_back(message);
}

double fastest(const scaling_row& row) { return *std::min_element(row.seconds.begin(), row.seconds.end()); }
double slowest(const scaling_row& row) { return *std::max_element(row.seconds.begin(), row.seconds.end()); }

// A row a line, each with what it measured (n, engine, kernels) and where
// (hardware threads, version, processor), so that a file read alone says
// what it is; the first columns as they were. The CSV's first line; a file
// that starts as every version's did (six columns until 2026-11-29) is one
// --csv may replace. cpu_quota is empty where no CFS quota bounds the
// process, as JSON's null.
constexpr std::string_view csv_header =
    "threads,median_seconds,speedup,efficiency,total,runs,min_seconds,max_seconds,n,engine,isa,kernels,busy_threads,"
    "hardware_threads,version,cpu,gpus,cpu_quota,split_depth,subproblems\n";
// The six columns every version's header began with: a file whose header
// is this or ours up to one of its commas is an earlier --csv's.
constexpr std::string_view csv_oldest_header = "threads,median_seconds,speedup,efficiency,total,runs";

// The version a row was measured with, and the commit as SemVer's build
// metadata ("0.1.0+1b1231176d4b"): rows of two builds are told apart.
std::string version_measured() {
  std::string measured(version());
  if (!build_commit().empty()) measured.append("+").append(build_commit());  // appended: GCC 12 misreads "+" + string
  return measured;
}

std::string csv_of(const scaling_result& r, const measured_on& on) {
  std::string csv(csv_header);
  char line[256];
  for (const scaling_row& row : r.rows) {
    std::snprintf(line, sizeof line, "%d,%.6f,%.4f,%.4f,%s,%zu,%.6f,%.6f,%d,%s,%s,%s,%.2f,%d,", row.threads,
                  row.median_seconds, row.speedup, row.efficiency, to_string(row.total).c_str(), row.seconds.size(),
                  fastest(row), slowest(row), on.n, std::string(to_string(on.kind)).c_str(), on.isa_name.c_str(),
                  on.kernels.c_str(), row.busy_threads, on.hardware);
    csv += line;
    csv += csv_field(version_measured()) + "," + csv_field(on.cpu) + "," + std::to_string(row.gpus) + "," +
           (on.quota ? json_number(*on.quota) : std::string()) + "," + std::to_string(r.split_depth) + "," +
           std::to_string(r.subproblems) + "\n";
  }
  return csv;
}

// Where a row kept far fewer threads busy than it ran: its speed-up measures
// the other process or the idle threads, not this machine. One line, for the
// row that kept the smallest share busy. Not for the GPU engine, whose
// threads wait for their devices.
void warn_of_idle_threads(const scaling_result& r, measured_on& on) {
  if (counts_on_gpus(on.kind) || r.rows.size() < 2 || r.rows.front().median_seconds < min_telling_seconds) return;
  const scaling_row* worst = nullptr;
  double worst_share = min_busy_share;
  for (const scaling_row& row : r.rows) {
    const double share = busy_share(row.threads, row.busy_threads, on.hardware, on.quota);
    if (share < worst_share) {
      worst = &row;
      worst_share = share;
    }
  }
  if (worst == nullptr) return;
  warn(on, formatted("the %d-thread runs kept %.2f hardware threads busy: another process is using the cores, or "
                     "the count did not spread, so the speed-ups are not this machine's",
                     worst->threads, worst->busy_threads));
}

// A CFS quota (a container's --cpus, a cgroup's cpu.max) gives the process
// less CPU time than its hardware threads, which it sees all the same:
// rows of more threads than the quota share its time, so their speed-ups
// are the quota's. Said once, before the table.
void warn_of_a_cpu_quota(const scaling_result& r, measured_on& on) {
  if (!on.quota || counts_on_gpus(on.kind) || r.rows.empty()) return;
  const int most = std::ranges::max(r.rows, {}, &scaling_row::threads).threads;
  if (most <= *on.quota) return;
  const int within = static_cast<int>(*on.quota);
  const std::string shared =
      within == 0 ? "every run, one thread's too, gets only that"
                  : "runs of more than " + counted(static_cast<std::size_t>(within), "thread") + " share it";
  warn(on, formatted("a CPU quota (cgroup) gives this process %.3g CPUs of time: %s, so the speed-ups are the "
                     "quota's, not this machine's",
                     *on.quota, shared.c_str()));
}

// A board size whose one-thread count should take a few seconds, from one
// that took `seconds`: counts grow about 6x a size here, and a short
// count's time is mostly start-up, so aim at 8x the shortest telling time.
// Under 10 ms the time is start-up alone, whatever N, and says nothing of
// how the work grows: go on from Q(14) at 10 ms, about what one thread of
// the fastest machines measured takes (else Q(10)'s 0.2 ms named Q(16),
// itself too short).
int larger_telling_size(int n, double seconds) {
  constexpr int start_up_size = 14;
  constexpr double start_up_seconds = 0.01;
  if (seconds < start_up_seconds) {
    n = std::max(n, start_up_size);
    seconds = start_up_seconds;
  }
  int larger = n + 1;
  for (double t = seconds * 6; t < 8 * min_telling_seconds && larger < max_board_size; t *= 6) ++larger;
  return std::min(larger, max_board_size);
}

// What would make the table mislead, said on stderr before it: one-thread
// runs too short to time speed-ups by (start-up and noise, not counting),
// thread counts past the hardware's (they measure oversubscription).
// `engine_at` names the engine that would count a size: where auto hands a
// larger N to the quadrant engine, the fastest (symmetric's Q(15) takes
// longer than quadrant's Q(16)), the growth the advice assumes is a size
// short. (Where a memory bound hands it to a slower one, the advice errs
// long, which still times threads.)
void warn_of_weak_measurements(const scaling_result& r, measured_on& on, const std::function<engine(int)>& engine_at) {
  const int n = on.n;
  const engine measured = on.kind;
  // Only where there is a speed-up to mislead: one row compares nothing.
  if (r.rows.size() > 1 && r.rows.front().median_seconds < min_telling_seconds) {
    int larger = larger_telling_size(n, r.rows.front().median_seconds);
    if (larger < max_board_size && measured != engine::quadrant && engine_at(larger) == engine::quadrant) ++larger;
    warn(on, formatted("one thread took %.4f s, too short to time threads by (start-up and noise): take a larger N, "
                       "such as %d",
                       r.rows.front().median_seconds, larger));
  }
  // The GPU engine's threads mostly wait on their devices (streams): more
  // of them than the cores measure no sharing.
  const int hardware = hardware_threads();
  if (!counts_on_gpus(measured) && !r.rows.empty() && r.rows.back().threads > hardware) {
    warn(on, formatted("this process runs %s at once here (the cores its CPU affinity allows): rows past it measure "
                       "threads sharing them",
                       counted(static_cast<std::size_t>(hardware), "thread").c_str()));
  }
}

// Whether every run counted the same total, and whether it is the published one.
std::string verdict_of(const scaling_result& r) {
  return r.consistent
             ? "every run counted the same total, " + describe(r.check.total, r.check.published_total, oeis_total)
             : std::string("TOTALS DIFFER between runs");
}

// The scaling table: a row per thread count, and whether every run agreed.
class scale_report final : public report {
 public:
  scale_report(const scaling_result& r, const measured_on& on, int repeat) : r_(r), on_(on), repeat_(repeat) {}

  void write_text(std::ostream& out) const override {
    out << formatted("Q(%d) with engine %s, kernels %s, median of %d run%s per row\n", on_.n,
                     std::string(to_string(on_.kind)).c_str(), on_.kernels.c_str(), repeat_, repeat_ == 1 ? "" : "s");
    out << formatted("plan: split depth %d, %s subproblems\n", r_.split_depth, format_grouped(r_.subproblems).c_str());
    // The GPU engine's rows also name the GPUs they counted on.
    const bool gpus = counts_on_gpus(on_.kind);
    // 74 columns, 79 with the GPUs: an 80-column terminal wraps none.
    out << formatted("%7s %11s %7s %8s %10s %6s %19s", "threads", "seconds", "spread", "speedup", "efficiency", "busy",
                     "total")
        << (gpus ? formatted(" %4s", "gpus") : "") << '\n';
    for (const scaling_row& row : r_.rows) {
      // The spread: the slowest run less the fastest, against the median.
      // One run has none to show: "-", not a 0.0% that reads as runs alike.
      const double spread = row.median_seconds > 0 ? (slowest(row) - fastest(row)) / row.median_seconds : 0.0;
      const std::string spread_text = row.seconds.size() < 2 ? "-" : formatted("%.1f%%", 100.0 * spread);
      out << formatted("%7d %11.6f %7s %7.2fx %9.1f%% %6.2f %19s", row.threads, row.median_seconds, spread_text.c_str(),
                       row.speedup, 100.0 * row.efficiency, row.busy_threads, to_string(row.total).c_str())
          << (gpus ? formatted(" %4d", row.gpus) : "") << '\n';
    }
    out << verdict_of(r_) << '\n';
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
                  .add("busy_threads", row.busy_threads)
                  .add("gpus", row.gpus)
                  .add("total", row.total)
                  .add_raw("seconds", json_array_of(row.seconds))
                  .str();
    }
    return json_object()
        .add("n", on_.n)
        .add("engine", to_string(on_.kind))
        .add("split_depth", r_.split_depth)  // the plan every row counted
        .add("subproblems", r_.subproblems)
        .add("isa", on_.isa_name)
        .add("kernels", on_.kernels)
        .add("hardware_threads", on_.hardware)
        .add_raw("cpu_quota", on_.quota ? json_number(*on_.quota) : "null")
        .add("cpu", on_.cpu)
        .add("version", version_measured())
        .add("repeat", repeat_)
        .add("consistent", r_.consistent)
        .add_raw("verified", verified_json(r_.check))
        .add_raw("rows", "[" + rows + "]")
        .add_raw("warnings", json_array_of(std::span<const std::string>(on_.warnings)));
  }

 private:
  const scaling_result& r_;
  const measured_on& on_;
  int repeat_;
};

cxxopts::Options scale_options() {
  cxxopts::Options options("nqueens scale",
                           "Count Q(N) with 1, 2, 4, ... threads, R times each, and print the median time, the\n"
                           "speed-up over one thread and the parallel efficiency. A time is a whole count's wall\n"
                           "time (plan, tables, counting), after one untimed count; the runs go in rounds over\n"
                           "every thread count. On the GPU engine a row of T threads counts on T of the GPUs\n"
                           "(one thread drives each; threads past the GPUs drive more streams on them), so that\n"
                           "the rows scale over GPUs and efficiency is per GPU: above 100% where one stream left a\n"
                           "GPU idle. Exit 1 if a run's total differs, or from the published value.");
  options.custom_help("N [options]");
  options.positional_help("");
  const shared_options shared{.threads =
                                  "Comma-separated thread counts, such as 1,2,4 (1 is always run: speed-ups "
                                  "are over it; default: 1, 2, 4, ..., the cores where they run several "
                                  "threads each, and all hardware threads)",
                              .engine = "auto",
                              .engine_auto = "the fastest engine for N that fits in --max-memory",
                              .json = true};
  add_worker_options(options, shared);
  options.add_options()("r,repeat", "Runs per thread count; the median is reported",
                        cxxopts::value<std::string>()->default_value("3"))(
      "csv",
      "Also write the rows to this CSV file (replaced only once every run is done, and only if it is empty or one "
      "--csv wrote); "
      "'-' prints them on standard output in place of the table",
      cxxopts::value<std::string>());
  add_plan_shape_options(options,
                         "Memory each run may use, as for count, e.g. 8G, 512M (default: half the physical memory)");
  add_gpu_options(options);
  add_progress_options(options);
  add_closing_options(options, shared);
  add_board_size_operand(options);
  return options;
}

// The rows: on standard output as a table, JSON or CSV (`csv_on_stdout`),
// and into --csv's file where one is given; 3 where that file cannot be
// written, else 0.
int write_rows(const scaling_result& r, const measured_on& on, int repeat, bool json, bool csv_on_stdout,
               std::optional<output_file>& csv_file) {
  if (csv_on_stdout) {
    std::cout << csv_of(r, on);  // close_standard_output checks that it arrived
    // The table's last line, where it says what exit 1 means.
    if (!(r.consistent && r.check.ok())) std::cerr << "nqueens: " << verdict_of(r) << '\n';
  } else {
    write_report(scale_report(r, on, repeat), format_for(json));
  }
  // After the table: a file that cannot be written (a full disk, a file-size
  // limit) then costs the file, exit 3, not the runs' results.
  if (csv_file) {
    try {
      csv_file->write(csv_of(r, on));
      csv_file->commit();
    } catch (const std::runtime_error& e) {
      std::cerr << "nqueens: " << one_line(e.what()) << "; the results are on standard output\n";
      return 3;
    }
  }
  return 0;
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

double busy_share(int threads, double busy_threads, int hardware, std::optional<double> quota) {
  double could = std::min(threads, hardware);
  if (quota) could = std::min(could, *quota);
  return could > 0 ? busy_threads / could : 0.0;
}

std::function<void(const progress&)> with_line_first(std::function<void(const progress&)> shown, std::string line,
                                                     std::ostream& out) {
  // Shared by every copy: each count of a scale holds one.
  auto said = std::make_shared<std::atomic<bool>>(false);
  return [shown = std::move(shown), line = std::move(line), &out, said](const progress& p) {
    // Before the first progress line is drawn: there is none yet to break.
    if (!said->exchange(true)) out << line << std::flush;
    if (shown) shown(p);
  };
}

int run_scale(const std::vector<std::string>& args) {
  cxxopts::Options options = scale_options();
  const auto result = parse_command_line(options, args, true);
  if (printed_help(result, options, engines_help())) return 0;
  // A stop signal, from the engine's choice on (n = 28: a fifth of a
  // second), ends the runs early and returns here, so that the CSV's
  // temporary file is removed and its target keeps its old contents.
  install_stop_handlers();
  const int n = board_size_operand(result);
  const std::vector<int> threads =
      result.count("threads") ? parse_thread_list(result["threads"].as<std::string>()) : default_thread_counts();
  const int repeat = static_cast<int>(parse_integer(result["repeat"].as<std::string>(), "--repeat", 1, 1000));
  count_options opts;
  const plan_shape shape = read_plan_shape(result);
  opts.split_depth = shape.split_depth;
  opts.max_memory = shape.max_memory;
  opts.gpu = read_gpu_options(result);
  const progress_choice shown = read_progress_options(result);
  const bool csv_on_stdout = result.count("csv") && result["csv"].as<std::string>() == "-";
  if (csv_on_stdout && result.count("json")) {
    throw usage_error("--csv - and --json both print on standard output: give --csv a file name, or leave one out");
  }
  std::optional<output_file> csv_file;  // checked before the runs: a bad path fails at once
  bool csv_existed = false;             // what a stop says of it: kept, or never made
  if (result.count("csv") && !csv_on_stdout) {
    std::error_code ignored;
    csv_existed = std::filesystem::exists(result["csv"].as<std::string>(), ignored);
    csv_file.emplace(result["csv"].as<std::string>(), "--csv file",
                     own_first_line{.now = csv_header.substr(0, csv_header.size() - 1), .oldest = csv_oldest_header});
  }
  // Auto picks for the most threads asked: each thread's buffers count.
  const std::optional<engine> choice = parse_engine_choice(result["engine"].as<std::string>());
  // After every refusal of the options, each its one line; before the
  // engine's choice, which builds plans.
  {
    count_options asked = opts;  // as its largest row counts (measure_scaling checks that row so)
    asked.kind = choice.value_or(engine::automatic);
    asked.threads = *std::ranges::max_element(threads);
    warn_of_memory_beyond_this_machine_once_valid(asked, n);
  }
  try {
    const engine_choice chosen =
        engine_and_split_for(choice, n, shape.max_memory, *std::ranges::max_element(threads), shape.split_depth);
    opts.kind = chosen.kind;
    opts.split_depth = chosen.split_depth;
  } catch (const run_cancelled&) {  // said as a stop in the runs is: the user sees rows or none
    return report_interruption_of("before any row was printed");
  }
  opts.cancel = &stop_requested();
  // Each count's progress, named by its run: "run 5 of 12, 4 threads" (the
  // threads lead: the line's own threads field is the first to go).
  progress_printer printer(shown.terminal);
  show_progress(printer, shown, opts);
  // Said as the first of many whole counts begins counting, not after them
  // all, nor before a refusal of its plan, memory or GPUs (which is then
  // its one line): the count's first progress report comes once those passed.
  if (n >= 21) {
    const std::size_t counts = 1 + static_cast<std::size_t>(repeat) * threads.size();
    const std::string cost = formatted(
        "nqueens: warning: scale counts Q(%d) whole %zu times (an untimed first count, then %d at each of %zu thread "
        "count%s); from n = 21 one count takes minutes to months: 'nqueens plan %d --estimate' prices it\n",
        n, counts, repeat, threads.size(), threads.size() == 1 ? "" : "s", n);
    opts.on_progress = with_line_first(opts.on_progress, cost, std::cerr);
  }
  std::function<void(const scaling_step&)> on_step;
  if (shown.progress) {
    on_step = [&printer](const scaling_step& s) {
      const std::string on = counted(static_cast<std::size_t>(s.threads), "thread");
      printer.set_label(s.run == 0 ? "untimed first run, " + on : formatted("run %zu of %zu, ", s.run, s.runs) + on);
    };
  }

  const scaling_result r = [&] {
    try {
      return measure_scaling(n, threads, repeat, opts, on_step);
    } catch (const memory_limit_error& e) {  // with the split that fits, where one does, as count says it
      printer.finish();
      std::optional<memory_limit_error> advised;
      try {
        advised.emplace(with_fitting_split(e, opts.kind, n, opts.max_memory, *std::ranges::max_element(threads),
                                           shape.split_depth, false));
      } catch (const run_cancelled&) {  // stopped while the advice was priced: reported as a stop below
        scaling_result stopped;
        stopped.complete = false;
        return stopped;
      }
      throw *advised;
    }
  }();
  printer.finish();
  if (!r.complete || stop_requested()) {  // as count: a signal is never swallowed
    return report_interruption_of("before any row was printed" +
                                  (csv_file ? ", " + one_line(result["csv"].as<std::string>()) +
                                                  (csv_existed ? " left as it was" : " not written")
                                            : std::string()));
  }
  measured_on on{.n = n, .kind = opts.kind};
  warn_of_weak_measurements(r, on, [&](int size) {
    try {
      return engine_for(choice, size, shape.max_memory, *std::ranges::max_element(threads), shape.split_depth);
    } catch (const run_cancelled&) {  // a stop as the advice is priced: the rows measured still print
      return opts.kind;
    }
  });
  warn_of_a_cpu_quota(r, on);
  warn_of_idle_threads(r, on);
  if (const int status = write_rows(r, on, repeat, result.count("json") != 0, csv_on_stdout, csv_file); status != 0) {
    return status;
  }
  return r.consistent && r.check.ok() ? 0 : 1;
}

}  // namespace nqueens::cli
