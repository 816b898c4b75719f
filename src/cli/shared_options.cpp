#include "cli/shared_options.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "cli/message_text.hpp"
#include "cli/signals.hpp"
#include "nqueens/board.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"
#include "run/journal/journal_run.hpp"

namespace nqueens::cli {

void add_worker_options(cxxopts::Options& options, const shared_options& which) {
  auto add = options.add_options();
  if (!which.threads.empty()) add("t,threads", which.threads, cxxopts::value<std::string>());
  if (!which.engine.empty()) {
    const std::string choice = which.engine == "auto" ? "auto, " : "";
    const std::string rule = which.engine == "auto" ? "; auto = " + which.engine_auto : "";
    // cxxopts appends the default.
    add("e,engine", "Counting engine: " + choice + std::string(engine_names()) + rule,
        cxxopts::value<std::string>()->default_value(which.engine));
  }
}

void add_closing_options(cxxopts::Options& options, const shared_options& which) {
  auto add = options.add_options();
  if (which.json) add("json", "Print one JSON object instead of text");
  add("h,help", "Show this help");
}

void add_plan_shape_options(cxxopts::Options& options, const std::string& max_memory_help) {
  options.add_options()(
      "split-depth",
      "How finely the plan is cut: rows fixed per subproblem, or for the quadrant engine slices of "
      "each class (default: automatic; for a count alone, the deepest that fits --max-memory where the "
      "automatic one does not)",
      cxxopts::value<std::string>())("max-memory", max_memory_help, cxxopts::value<std::string>());
}

std::string engines_help() {
  std::string text = "Engines:\n";
  for (const engine e : all_engines()) {
    std::string name(to_string(e));
    name.resize(std::max<std::size_t>(name.size() + 2, 12), ' ');
    text += "  " + name + std::string(engine_summary(e)) + '\n';
  }
  return text;
}

std::optional<engine> parse_engine_choice(const std::string& name) {
  if (name == "auto") return std::nullopt;
  if (const auto e = parse_engine(name)) return *e;
  throw usage_error("unknown engine '" + shown_operand(name) + "': expected auto or one of " +
                    std::string(engine_names()));
}

engine_choice engine_and_split_for(std::optional<engine> choice, int n, std::uint64_t max_memory, int threads,
                                   int split_depth, bool shared_plan) {
  count_options asked;
  asked.kind = choice.value_or(engine::automatic);
  asked.threads = threads;
  asked.split_depth = split_depth;
  asked.max_memory = max_memory;
  asked.cancel = &stop_requested();
  return choose_engine(n, asked, shared_plan);
}

engine engine_for(std::optional<engine> choice, int n, std::uint64_t max_memory, int threads, int split_depth) {
  if (choice) return *choice;  // no split is asked for: no plan to build
  return engine_and_split_for(choice, n, max_memory, threads, split_depth).kind;
}

namespace {

// What with_fitting_split appends: nothing where no shallower split fits.
std::string fitting_split_hint(engine kind, int n, std::uint64_t max_memory, int threads, int split_depth,
                               bool shared_plan, shard_spec shard) {
  try {
    const int depth = fitting_split_depth(n, kind, max_memory, threads, &stop_requested());
    // The automatic split is the deepest a plan takes unasked: where it was
    // refused, no depth fitting_split_depth calls automatic can fit.
    if (depth == 0) {
      return split_depth == 0 ? std::string()
                              : " (the automatic split fits: leave out --split-depth" +
                                    std::string(shared_plan ? " in every part of the run" : "") + ")";
    }
    if (split_depth != 0 && depth >= split_depth) return {};
    // fitting_split_depth says 1 where none fits too: the plan of depth 1,
    // the smallest, proves it.
    if (depth == 1) {
      static_cast<void>(plan_within_memory(n, plan_options{.kind = kind, .split_depth = 1, .cancel = &stop_requested()},
                                           max_memory, threads, shard));
    }
    return " (--split-depth " + std::to_string(depth) + " fits" +
           (shared_plan ? ": give every part of the run the same" : "") + ")";
  } catch (const run_cancelled&) {  // a stop signal is answered, never swallowed
    throw;
  } catch (const std::exception&) {  // none fits: nothing to add
    return {};
  }
}

// What with_fitting_split appends where the refusal advises another
// engine: the fastest that fits, at the split that fits, proved by its plan
// (nothing where none does, or it is the engine refused).
std::string other_engine_hint(engine kind, int n, std::uint64_t max_memory, int threads, int split_depth,
                              bool shared_plan, shard_spec shard) {
  try {
    const engine_choice fits = fastest_engine_and_split(n, max_memory, threads, 0, &stop_requested());
    if (fits.kind == kind) return {};
    static_cast<void>(plan_within_memory(
        n, plan_options{.kind = fits.kind, .split_depth = fits.split_depth, .cancel = &stop_requested()}, max_memory,
        threads, shard));
    // A --split-depth given means another thing to another engine (rows,
    // or slices): the hint says which split, or that none is to be given.
    const std::string split = fits.split_depth != 0 ? " --split-depth " + std::to_string(fits.split_depth)
                              : split_depth != 0    ? " and no --split-depth"
                                                    : "";
    return " (--engine " + std::string(to_string(fits.kind)) + split + " fits" +
           (shared_plan ? ": give every part of the run the same" : "") + ")";
  } catch (const run_cancelled&) {  // a stop signal is answered, never swallowed
    throw;
  } catch (const std::exception&) {  // none fits: nothing to add
    return {};
  }
}

}  // namespace

memory_limit_error with_fitting_split(const memory_limit_error& refusal, engine kind, int n, std::uint64_t max_memory,
                                      int threads, int split_depth, bool shared_plan, shard_spec shard) {
  std::string hint = refusal.shallower_split_helps()
                         ? fitting_split_hint(kind, n, max_memory, threads, split_depth, shared_plan, shard)
                         : std::string();
  // Another engine where no split of this one is named.
  if (hint.empty() && refusal.advises(memory_limit_error::remedy::other_engine)) {
    hint = other_engine_hint(kind, n, max_memory, threads, split_depth, shared_plan, shard);
  }
  if (hint.empty()) return refusal;
  // Said last, after every remedy.
  std::vector<memory_limit_error::advice> remedies = refusal.remedies();
  remedies.back().words += hint;
  return memory_limit_error(refusal.need(), std::move(remedies), refusal.split_depth(), refusal.split_depth_at_least());
}

memory_limit_error for_a_kept_journal(const memory_limit_error& refusal, const std::string& checkpoint, engine kind,
                                      int n, shard_spec shard) {
  // Where the journal is of this n, engine and shard (its split aside).
  const auto journal = detail::journal::journal_run_of(checkpoint);
  if (!journal || journal->n != n || journal->kind != kind || journal->shard != shard ||
      journal->scope != plan_scope::all) {
    return refusal;
  }
  // Its engine and split are the journal's: the remedies that change
  // them (another engine, another split, the automatic split's) are none.
  std::vector<memory_limit_error::advice> remedies;
  for (const memory_limit_error::advice& a : refusal.remedies()) {
    if (a.kind == memory_limit_error::remedy::fewer_threads || a.kind == memory_limit_error::remedy::more_memory) {
      remedies.push_back(a);
    }
  }
  if (remedies.empty()) return refusal;
  remedies.back().words +=
      " (the journal " + one_line(checkpoint) + " resumes on its own engine and split depth alone)";
  return memory_limit_error(refusal.need(), std::move(remedies));
}

void add_long_run_options(cxxopts::Options& options) {
  // The texts read the library's default and range: one place says them.
  const std::string interval = formatted("%g", count_options{}.checkpoint_interval_seconds);
  options.add_options()(
      "checkpoint",
      "Journal of finished subproblems: resume from it, keep it up to date (fsync every " + interval + " s)",
      cxxopts::value<std::string>())("checkpoint-interval",
                                     formatted("Seconds between journal flushes (fsync), %g to %g",
                                               min_checkpoint_interval_seconds, max_checkpoint_interval_seconds),
                                     cxxopts::value<std::string>()->default_value(interval));
  add_progress_options(options);
}

void add_progress_options(cxxopts::Options& options, const std::string& whose) {
  const std::string what = whose.empty() ? "progress" : "the progress of " + whose;
  options.add_options()("progress", "Show " + what + " on stderr (default when stderr is a terminal)")(
      "no-progress", "Never show " + what);
}

progress_choice read_progress_options(const cxxopts::ParseResult& result) {
  if (result.count("progress") && result.count("no-progress")) {
    throw usage_error("--progress and --no-progress contradict each other");
  }
  progress_choice choice;
  choice.progress_option = result.count("progress") ? 1 : result.count("no-progress") ? -1 : 0;
  choice.terminal = ::isatty(STDERR_FILENO) != 0;
  choice.progress = choice.progress_option > 0 || (choice.terminal && choice.progress_option == 0);
  return choice;
}

long_run_choice read_long_run_options(const cxxopts::ParseResult& result) {
  long_run_choice choice;
  if (result.count("checkpoint")) {
    choice.checkpoint = result["checkpoint"].as<std::string>();
    if (choice.checkpoint.empty()) throw usage_error("--checkpoint needs a file name");
    // Not standard input or output, as '-' is elsewhere: a journal is read
    // back and rewritten in place, which no stream allows.
    if (choice.checkpoint == "-") {
      throw usage_error(
          "--checkpoint takes a file, not '-': a journal is read back and written in place "
          "(for a file named -, give ./-)");
    }
  }
  choice.checkpoint_interval_seconds =
      parse_seconds(result["checkpoint-interval"].as<std::string>(), "--checkpoint-interval",
                    min_checkpoint_interval_seconds, max_checkpoint_interval_seconds);
  if (result.count("checkpoint-interval") && !result.count("checkpoint")) {  // it would act on nothing
    throw usage_error("--checkpoint-interval goes with --checkpoint");
  }
  choice.progress = read_progress_options(result);
  return choice;
}

void show_progress(progress_printer& printer, const progress_choice& choice, count_options& options) {
  printer.print_in_background(choice.progress_option > 0);
  if (choice.progress) options.on_progress = [&printer](const progress& p) { printer(p); };
}

plan_shape read_plan_shape(const cxxopts::ParseResult& result) {
  plan_shape shape;
  if (result.count("split-depth")) {
    shape.split_depth =
        static_cast<int>(parse_integer(result["split-depth"].as<std::string>(), "--split-depth", 1, max_split_depth));
  }
  if (result.count("max-memory")) {
    shape.max_memory = parse_byte_size(result["max-memory"].as<std::string>(), "--max-memory");
  }
  return shape;
}

void warn_of_memory_beyond_this_machine(std::uint64_t max_memory, const std::string& who) {
  const std::uint64_t here = 2 * default_memory_limit();  // the bound by default is half of it
  if (max_memory <= here) return;
  // One write: the ranks of an MPI job share their launcher's stderr, and
  // pieces of their lines would interleave.
  const std::string line = who + ": warning: --max-memory " + format_bytes(max_memory) + " is more than the " +
                           format_bytes(here) +
                           " this machine (or its container) has: a count that needs more would be killed, not "
                           "refused\n";
  std::cerr << line << std::flush;
}

void warn_of_memory_beyond_this_machine_once_valid(count_options options, int n) {
  // Validated only where there is a warning to give: count() validates
  // again, and for a GPU that looks at the device. The GPU's options are
  // left to the command's own checks, which say where they apply.
  if (options.max_memory <= 2 * default_memory_limit()) return;
  options.gpu = {};
  if (options.kind == engine::gpu) options.kind = engine::automatic;
  validate(options, n);
  warn_of_memory_beyond_this_machine(options.max_memory);
}

void add_gpu_options(cxxopts::Options& options) {
  options.add_options()("devices",
                        "GPUs for --engine gpu: all, or indices and UUIDs separated by commas, e.g. 0,2 (default: "
                        "every GPU this process sees, or under MPI its node-local rank's share)",
                        cxxopts::value<std::string>());
  options.add_options()("gpu-memory",
                        "Device memory --engine gpu may take of each GPU, its tables and every thread's buffers, e.g. "
                        "4G (default: its memory, a like part for each process counting on it); less than the tables "
                        "need leaves them on the host, and large subproblems are counted in slices",
                        cxxopts::value<std::string>());
}

gpu_options read_gpu_options(const cxxopts::ParseResult& result) {
  gpu_options gpu;
  if (result.count("devices")) {
    gpu.devices = result["devices"].as<std::string>();
    if (gpu.devices.empty()) throw usage_error("--devices needs all or a list of GPUs");
  }
  if (result.count("gpu-memory")) gpu.memory = parse_byte_size(result["gpu-memory"].as<std::string>(), "--gpu-memory");
  return gpu;
}

}  // namespace nqueens::cli
