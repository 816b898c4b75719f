#include "cli/commands/verify_command.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/io/json.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/message_text.hpp"
#include "cli/output.hpp"
#include "cli/progress_line.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory.hpp"

namespace nqueens::cli {
namespace {

// The default range finishes in well under a second on two cores.
constexpr int default_from = 1;
constexpr int default_to = 15;

// What a verify run found, for its last line or its JSON object.
struct verify_summary {
  int from = 0, to = 0;
  std::optional<nqueens::engine> chosen;  // empty: auto
  isa kernels = isa::portable;
  int threads = 0;
  double seconds = 0;
  int mismatches = 0;
};

// Verify's output as the counts come (google/benchmark's reporters: a
// context, the runs, a finish): a table row per board at once in text; the
// rows gathered into one object in JSON.
class verify_writer {
 public:
  virtual ~verify_writer() = default;
  // begin and row return false where a stop cut their output short.
  virtual bool begin() = 0;
  virtual bool row(const count_result& r, bool ok) = 0;
  virtual void finish(const verify_summary& v) = 0;
};

// Each column as wide as its header and the range's published values, the
// engine's as its longest name: the header and the rows fit 80 columns to
// n = 25 (62 for the default range; one width for every n took 97, wrapping
// every row on an 80-column terminal). A count that differs may run past
// its column, and a MISMATCH past 80.
struct verify_columns {
  int total = 5, unique = 6, engine_name = 6;

  verify_columns(int from, int to, std::span<const engine> kinds) {
    const auto digits = [](std::optional<std::uint64_t> value) {
      return value ? static_cast<int>(std::to_string(*value).size()) : 0;
    };
    for (int n = from; n <= to; ++n) {
      total = std::max(total, digits(published_total(n)));
      unique = std::max(unique, digits(published_unique(n)));
    }
    for (const engine kind : kinds) engine_name = std::max(engine_name, static_cast<int>(to_string(kind).size()));
  }
};

class verify_text_writer final : public verify_writer {
 public:
  explicit verify_text_writer(const verify_columns& columns) : columns_(columns) {}
  // "half-turn" and "quarter" hold every published value to n = 27 (9 and 4
  // digits); each heading one word, as each column is, for awk and CI logs.
  bool begin() override {
    std::cout << formatted("%2s %*s %*s %9s %7s %-*s %9s %s\n", "n", columns_.total, "total", columns_.unique, "unique",
                           "half-turn", "quarter", columns_.engine_name, "engine", "seconds", "status");
    return flush_standard_output();
  }
  // A mismatch adds the published values.
  bool row(const count_result& r, bool ok) override {
    std::cout << formatted("%2d %*s %*s %9s %7s %-*s %9.3f %s\n", r.n, columns_.total, to_string(r.total).c_str(),
                           columns_.unique, r.unique ? to_string(*r.unique).c_str() : "-",
                           to_string(r.symmetric_180).c_str(), to_string(r.symmetric_90).c_str(), columns_.engine_name,
                           std::string(to_string(r.kind)).c_str(), r.seconds, ok ? "OK" : "MISMATCH");
    if (!ok) {
      std::cout << formatted("   published: %s %s %s %s\n", to_string(*r.check.published_total).c_str(),
                             to_string(*r.check.published_unique).c_str(),
                             to_string(*r.check.published_symmetric_180).c_str(),
                             to_string(*r.check.published_symmetric_90).c_str());
    }
    return flush_standard_output();  // a long range shows each row as it finishes
  }
  void finish(const verify_summary& v) override {
    const int checked = v.to - v.from + 1;
    if (v.mismatches == 0) {
      std::cout << (checked == 1
                        ? formatted("the count matches the published values (%.3f s)\n", v.seconds)
                        : formatted("all %d counts match the published values (%.3f s)\n", checked, v.seconds));
    } else {
      std::cout << formatted("%d of %d counts DO NOT match the published values\n", v.mismatches, checked);
    }
  }

 private:
  verify_columns columns_;
};

class verify_json_writer final : public verify_writer {
 public:
  bool begin() override { return true; }
  bool row(const count_result& r, bool ok) override {
    rows_ += rows_.empty() ? "" : ",";
    json_object o;
    rows_ += add_counts(o, counts_of(r))
                 .add("verified", ok)
                 .add("engine", to_string(r.kind))
                 .add("seconds", r.seconds)
                 .add("subproblems", r.subproblems)
                 .add("split_depth", r.split_depth)
                 .add("plan_fingerprint", format_fingerprint(r.plan_fingerprint))
                 .str();
    return true;
  }
  void finish(const verify_summary& v) override {
    std::cout << json_object()
                     .add("from", v.from)
                     .add("to", v.to)
                     .add("engine", v.chosen ? to_string(*v.chosen) : std::string_view("auto"))
                     .add("isa", to_string(v.kernels))
                     .add("threads", v.threads)
                     .add("seconds", v.seconds)
                     .add("checked", v.to - v.from + 1)
                     .add("mismatches", v.mismatches)
                     .add("ok", v.mismatches == 0)
                     .add_raw("results", "[" + rows_ + "]")
                     .str()
              << '\n';
  }

 private:
  std::string rows_;  // comma-separated
};

// The engine and split depth of each board of the range, each checked as
// count() checks it before a line is printed: a refusal (no GPU, say) is
// exit 2 with nothing on stdout, as for count.
struct range_plan {
  std::vector<engine> kinds;
  std::vector<int> split_depths;

  // The engine and its memory, the plan's lists included, as count()
  // prices it. The plans take seconds (n = 27: a build of about a second
  // on 2 vCPUs for the choice, another for the price), and a stop is heard
  // in them (run_cancelled).
  void add(int n, std::optional<engine> chosen, const count_options& opts) {
    count_options o = opts;
    const engine_choice picked = engine_and_split_for(chosen, n, opts.max_memory, opts.threads, 0);
    o.kind = kinds.emplace_back(picked.kind);
    o.split_depth = split_depths.emplace_back(picked.split_depth);
    validate(o, n);
    static_cast<void>(plan_within_memory(n, {.kind = o.kind, .split_depth = o.split_depth, .cancel = opts.cancel},
                                         o.max_memory, o.threads));
  }
};

cxxopts::Options verify_options() {
  cxxopts::Options options("nqueens verify",
                           "Count Q(n) for every n in a range and check it, the fundamental count and the\n"
                           "solutions unchanged by a half and a quarter turn against the published tables.\n"
                           "Exit status 1 when any count differs.");
  options.custom_help("[options]");
  options.positional_help("");
  const shared_options shared{.threads = worker_threads_help,
                              .engine = "auto",
                              .engine_auto = "the fastest engine for each N that fits in --max-memory",
                              .json = true};
  add_worker_options(options, shared);
  options.add_options()("from", "First board size",
                        cxxopts::value<std::string>()->default_value(std::to_string(default_from)))(
      "to", "Last board size (default: " + std::to_string(default_to) + ", or --from where that is larger)",
      cxxopts::value<std::string>())("extra", "", cxxopts::value<std::vector<std::string>>())(
      "max-memory", "Memory each count may use, as for count, e.g. 8G, 512M (default: half the physical memory)",
      cxxopts::value<std::string>());
  add_gpu_options(options);
  add_progress_options(options);
  add_closing_options(options, shared);
  options.parse_positional({"extra"});
  return options;
}

// --from and --to.
std::pair<int, int> read_range(const cxxopts::ParseResult& result) {
  if (result.count("extra")) {
    throw usage_error("unexpected argument '" + shown_operand(result["extra"].as<std::vector<std::string>>().front()) +
                      "' (verify takes --from and --to)");
  }
  const int from =
      static_cast<int>(parse_integer(result["from"].as<std::string>(), "--from", 1, max_published_board_size));
  // --from alone past the default end checks that one size: the user never
  // typed the end it would otherwise be refused against.
  const int to =
      result.count("to")
          ? static_cast<int>(parse_integer(result["to"].as<std::string>(), "--to", 1, max_published_board_size))
          : std::max(from, default_to);
  if (from > to) {
    throw usage_error("--from " + std::to_string(from) + " is greater than --to " + std::to_string(to));
  }
  return {from, to};
}

}  // namespace

int run_verify(const std::vector<std::string>& args) {
  cxxopts::Options options = verify_options();
  const auto result = parse_command_line(options, args, false);
  if (printed_help(result, options,
                   "Board sizes with published counts: 1 to " + std::to_string(max_published_board_size) + ".\n\n" +
                       engines_help())) {
    return 0;
  }
  // Named, not bound: the lambdas below take them (clang 14 cannot capture
  // a structured binding).
  const std::pair<int, int> range = read_range(result);
  const int from = range.first;
  const int to = range.second;
  count_options opts;
  const std::optional<engine> chosen = parse_engine_choice(result["engine"].as<std::string>());
  if (result.count("threads")) opts.threads = parse_threads(result["threads"].as<std::string>());
  opts.gpu = read_gpu_options(result);
  opts.max_memory = read_plan_shape(result).max_memory;
  // Each count's progress, named by its board: a range past n = 18 runs for
  // minutes to days, and its rows come only as each count ends.
  const progress_choice shown = read_progress_options(result);
  progress_printer printer(shown.terminal);
  show_progress(printer, shown, opts);
  warn_of_memory_beyond_this_machine_once_valid(opts);
  install_stop_handlers();
  opts.cancel = &stop_requested();
  range_plan plans;
  for (int n = from; n <= to; ++n) {
    try {
      plans.add(n, chosen, opts);
    } catch (const run_cancelled&) {
      return report_interruption_of(formatted("while checking the plan of Q(%d); none was counted", n));
    }
  }
  verify_text_writer text(verify_columns(from, to, plans.kinds));
  verify_json_writer json;
  verify_writer& out = result.count("json") != 0 ? static_cast<verify_writer&>(json) : text;
  verify_summary summary{.from = from, .to = to, .chosen = chosen};
  // A stop leaves the rows printed so far (text), or no object at all (JSON:
  // one object, whole or none), and says how far the range got: `checked`
  // counts were checked, and the stop came while counting the next or (where
  // `writing`) while writing to a reader that took nothing.
  const auto stopped = [&](int checked, bool writing) {
    printer.finish();
    const std::string matched = summary.mismatches == 0 ? "all matching"
                                : checked == 1          ? "not matching"
                                                        : formatted("%d not matching", summary.mismatches);
    const std::string where =
        writing ? "while writing the output, which is cut short" : formatted("while counting Q(%d)", from + checked);
    if (checked == 0)
      return report_interruption_of(where + (writing ? "; none was checked" : ", the first; none was checked"));
    return report_interruption_of(formatted("%s; %s %s checked, %s", where.c_str(),
                                            counted(static_cast<std::size_t>(checked), "count").c_str(),
                                            checked == 1 ? "was" : "were", matched.c_str()));
  };
  if (!out.begin()) return stopped(0, true);
  for (int n = from; n <= to; ++n) {
    opts.kind = plans.kinds[static_cast<std::size_t>(n - from)];
    opts.split_depth = plans.split_depths[static_cast<std::size_t>(n - from)];
    printer.set_label(formatted("Q(%d), %d of %d", n, n - from + 1, to - from + 1));
    std::optional<count_result> counted_n;
    try {
      counted_n = count(n, opts);
    } catch (const run_cancelled&) {
      return stopped(n - from, false);
    } catch (const std::runtime_error& e) {
      // A failure mid-range (a GPU's, a journal's write) names the count it
      // ended; the refusals of their own kind keep it (and their exit status).
      if (typeid(e) != typeid(std::runtime_error)) throw;
      throw std::runtime_error(std::string(e.what()) + " (while counting Q(" + std::to_string(n) + "))");
    }
    if (!counted_n->complete || stop_requested()) return stopped(n - from, false);
    const count_result& r = *counted_n;
    summary.threads = r.threads;
    summary.kernels = r.kernels;
    summary.seconds += r.seconds;
    const bool ok = r.check.verified();
    summary.mismatches += ok ? 0 : 1;
    printer.finish();  // the row starts on a line of its own
    if (!out.row(r, ok)) return stopped(n - from + 1, true);
  }
  out.finish(summary);
  const int mismatches = summary.mismatches;
  return mismatches == 0 ? 0 : 1;
}

}  // namespace nqueens::cli
