#pragma once

// The options several commands share (--threads, --engine, --json, --help,
// and the long runs' --checkpoint, --checkpoint-interval and --progress),
// declared once so that their spelling, short forms and help read the same in
// every command.

#include <optional>
#include <string>

#include "cli/command_line.hpp"
#include "cli/progress_line.hpp"
#include "cli/whole_operands.hpp"
#include "nqueens/count.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/shard.hpp"

namespace nqueens::cli {

/// --threads help for a command that takes one worker-thread count.
inline constexpr const char* worker_threads_help = "Worker threads (default: all hardware threads)";

/// Which shared options a command takes; -h, --help is always added.
struct shared_options {
  /// --threads (-t) help, e.g. worker_threads_help; empty: no --threads.
  std::string threads;
  /// --engine (-e) default: "auto" (the fastest engine for N) or an engine
  /// name; empty: no --engine.
  std::string engine;
  /// What "auto" means for this command, naming only options it takes.
  std::string engine_auto = "the fastest engine for N";
  /// Adds --json.
  bool json = false;
};

/// Adds --threads and --engine where `which` names them: called before the
/// command's own options, so that the choices every count takes lead its help.
void add_worker_options(cxxopts::Options& options, const shared_options& which);

/// Adds --json where `which` names it, and -h, --help: called after the
/// command's own options, so that they close its help.
void add_closing_options(cxxopts::Options& options, const shared_options& which);

/// --checkpoint-interval's and --progress's own: a journal's flushes and the
/// progress display, for the commands that count for long (count, rotational).
void add_long_run_options(cxxopts::Options& options);

/// --progress and --no-progress alone (scale: each count's progress; plan:
/// the run of --stats, `whose` in the help).
void add_progress_options(cxxopts::Options& options, const std::string& whose = {});

/// What add_progress_options' options asked for.
struct progress_choice {
  bool progress = false;
  int progress_option = 0;  ///< +1 --progress, -1 --no-progress, 0 neither
  bool terminal = false;    ///< stderr is a terminal
};

/// Reads add_progress_options' options; throws usage_error.
progress_choice read_progress_options(const cxxopts::ParseResult& result);

/// Shows `choice`'s progress with `printer`, fed from `options`' progress
/// reports where it is shown at all, and printed off the terminal's
/// foreground only where --progress asked for it (print_in_background).
/// `printer` must outlive the count.
void show_progress(progress_printer& printer, const progress_choice& choice, count_options& options);

/// What add_long_run_options' options asked for.
struct long_run_choice {
  std::string checkpoint;
  double checkpoint_interval_seconds = count_options{}.checkpoint_interval_seconds;
  progress_choice progress;
};

/// Reads add_long_run_options' options; throws usage_error.
long_run_choice read_long_run_options(const cxxopts::ParseResult& result);

/// --split-depth and --max-memory: how finely a plan is cut and the memory a
/// count may use (count and plan take them alike). `max_memory_help` says
/// what the bound covers for the command.
void add_plan_shape_options(cxxopts::Options& options, const std::string& max_memory_help);

/// What add_plan_shape_options' options asked for (0: automatic / the
/// default bound).
struct plan_shape {
  int split_depth = 0;
  std::uint64_t max_memory = 0;
};

/// Reads add_plan_shape_options' options; throws usage_error.
plan_shape read_plan_shape(const cxxopts::ParseResult& result);

/// Warns on stderr where `max_memory` is more than this machine (or its
/// container) has: a run that needs it would be killed for memory, not
/// refused. For the commands that count here, not for `plan`, which may
/// price a larger node.
/// `who` opens the line ("nqueens", "nqueens-mpi: rank 2").
void warn_of_memory_beyond_this_machine(std::uint64_t max_memory, const std::string& who = "nqueens");

/// The same warning for counts of `options` on an n-board (0: several),
/// once the options are valid (nqueens::validate, which throws as count()
/// would; the GPU's options aside): an option a count refuses is then the
/// one line on stderr. Given before the count, whose plan and tables are
/// what a machine short of memory kills it for; a journal count() refuses,
/// or a GPU's refusal, comes after it.
void warn_of_memory_beyond_this_machine_once_valid(count_options options, int n = 0);

/// --devices and --gpu-memory: the GPUs --engine gpu counts on and what it
/// may take of each (count, verify, plan and scale take them alike).
void add_gpu_options(cxxopts::Options& options);

/// What add_gpu_options' options asked for; throws usage_error.
gpu_options read_gpu_options(const cxxopts::ParseResult& result);

/// "Engines:" and one line per engine, for the help of a command with --engine.
std::string engines_help();

/// Parses an --engine value that may be "auto": nullopt for auto (the
/// library's choose_engine picks, engine_and_split_for), else the engine;
/// throws usage_error naming the valid engines.
std::optional<engine> parse_engine_choice(const std::string& name);

/// The engine `choice` (parse_engine_choice) counts n on, and its split: the
/// library's choose_engine within `max_memory` on `threads`, as count()
/// chooses (by n alone and at `split_depth` where other processes share the
/// plan, `shared_plan`: shards, a journal, MPI ranks). A stop signal cuts
/// the pricing short (run_cancelled).
engine_choice engine_and_split_for(std::optional<engine> choice, int n, std::uint64_t max_memory, int threads,
                                   int split_depth, bool shared_plan = false);

/// engine_and_split_for's engine alone (an engine named is returned as it is, no plan built).
engine engine_for(std::optional<engine> choice, int n, std::uint64_t max_memory, int threads, int split_depth);

/// `refusal`, of a count of `kind` on an n-board within `max_memory` at
/// `split_depth` (0: automatic), with what it advises made exact where it
/// advises a smaller --split-depth: " (--split-depth D fits ...)" where a
/// shallower split than the refused one fits (checked as the count checks
/// it, for shard `shard`), " (the automatic split fits ...)" where that one
/// does; where it advises another engine instead, " (--engine E
/// --split-depth D fits)" for the fastest that fits; else as it is.
/// `shared_plan` (as for engine_for) asks every part of the run to take the
/// same. Prices plans: a stop signal throws run_cancelled.
memory_limit_error with_fitting_split(const memory_limit_error& refusal, engine kind, int n, std::uint64_t max_memory,
                                      int threads, int split_depth, bool shared_plan, shard_spec shard = {});

/// `refusal`, of a count of `kind` on an n-board (shard `shard`) that would
/// resume the journal `checkpoint`, with only the remedies that resume it
/// (fewer threads, more memory) where the journal is of that n, engine and
/// shard: it holds its engine and split depth, which no other can take up.
/// Else (a journal of another run, or no journal) as it is.
memory_limit_error for_a_kept_journal(const memory_limit_error& refusal, const std::string& checkpoint, engine kind,
                                      int n, shard_spec shard = {});

}  // namespace nqueens::cli
