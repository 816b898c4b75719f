#include "mpi/agreement.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/count_report.hpp"
#include "cli/exit_status.hpp"
#include "cli/interruption.hpp"
#include "cli/message_text.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "mpi/rank_gpus.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/threads.hpp"
#include "nqueens/version.hpp"
#include "run/journal/journal_run.hpp"

namespace nqueens::mpi {
namespace {

// What a rank tells rank 0 about the run it is ready for, sent as six
// 64-bit words.
struct rank_plan {
  std::uint64_t status = 0;       // 0: ready; else the exit status of its refusal
  std::uint64_t fingerprint = 0;  // the plan's; 0 with no plan (--help, --version)
  std::uint64_t n = 0;
  std::uint64_t kind = 0;  // the engine's number
  std::uint64_t split_depth = 0;
  std::uint64_t threads = 0;  // its worker threads, resolved
  std::uint64_t kernels = 0;  // the instruction set its kernels use (a node's own: nodes differ)
};
constexpr int rank_plan_words = 7;
static_assert(sizeof(rank_plan) == rank_plan_words * sizeof(std::uint64_t), "sent as MPI_UINT64_T words");

rank_plan plan_of(const readiness& ready) {
  if (ready.status != 0 || !ready.p) return {.status = static_cast<std::uint64_t>(ready.status)};
  return {.status = 0,
          .fingerprint = ready.p->fingerprint(),
          .n = static_cast<std::uint64_t>(ready.p->board_size()),
          .kind = static_cast<std::uint64_t>(ready.p->kind()),
          .split_depth = static_cast<std::uint64_t>(ready.p->split_depth()),
          .threads = static_cast<std::uint64_t>(resolve_threads(ready.request->options.threads)),
          // Checked in prepare() (a bad NQUEENS_ISA is a refusal there).
          .kernels = static_cast<std::uint64_t>(runnable_isa(ready.request->options.kernels))};
}

// "plan 0123456789abcdef (n = 12, engine quadrant, split depth 2)"
std::string describe_plan(const rank_plan& p) {
  if (p.n == 0) return "no plan (it was given --help or --version)";
  return "plan " + format_fingerprint(p.fingerprint) + " (n = " + std::to_string(p.n) + ", engine " +
         std::string(to_string(static_cast<engine>(p.kind))) + ", split depth " + std::to_string(p.split_depth) + ")";
}

// Each rank's `mine` at rank 0, rank 0's first; empty elsewhere. Collective.
std::vector<std::string> gather_text(const std::string& mine, int rank, int ranks) {
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lengths.size(), 0);
  int text_size = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = text_size;
    text_size += lengths[r];
  }
  std::string text(static_cast<std::size_t>(text_size), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, text.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> all;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    all.push_back(text.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  }
  return all;
}

// A request's options as "option\tlength\tvalue\n": the value by its
// length, so that a tab or a newline in it (a --checkpoint path may hold
// any byte but NUL) is read back whole, never as a setting of its own.
std::string settings_text(const cli::count_request& request) {
  std::string text;
  for (const cli::count_setting& s : cli::count_settings(request)) {
    text += s.option + '\t' + std::to_string(s.value.size()) + '\t' + s.value + '\n';
  }
  return text;
}

std::vector<cli::count_setting> settings_of(const std::string& text) {
  std::vector<cli::count_setting> settings;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t tab = text.find('\t', at);
    const std::size_t length_end = text.find('\t', tab + 1);
    if (tab == std::string::npos || length_end == std::string::npos) break;  // every rank runs this program
    const auto length = static_cast<std::size_t>(std::stoull(text.substr(tab + 1, length_end - tab - 1)));
    settings.push_back({text.substr(at, tab - at), text.substr(length_end + 1, length)});
    at = length_end + 1 + length + 1;
  }
  return settings;
}

// "--checkpoint mx.ckpt", "--json", "no --checkpoint", "N 12".
std::string describe_setting(const cli::count_setting& s) {
  if (s.value.empty()) return "no " + s.option;
  return s.value == "yes" ? s.option : s.option + " " + s.value;
}

}  // namespace

readiness parse(const std::vector<std::string>& args) {
  readiness ready;
  try {
    static_cast<void>(active_isa());  // a bad NQUEENS_ISA is refused before any work
    if (args.size() == 2 && (args[1] == "--version" || args[1] == "-V")) {  // which build runs on each node
      std::cout << cli::version_text("nqueens-mpi");
      return ready;
    }
    // Every rank parses the same command line, so every rank agrees on errors.
    // `nqueens-mpi count 12` reads as `nqueens count 12` does.
    // `--help --version` prints the help, as it does for nqueens.
    std::vector<std::string> count_args =
        cli::asks_help_and_version(args) ? std::vector<std::string>{args[0], "--help"} : args;
    // `nqueens-mpi help` and `help count` (as `nqueens help count`), `help
    // help`, `help --help`, `help --version`: the help; `help merge` is
    // refused below as merge itself is.
    if (count_args.size() > 1 && count_args[1] == "help") {
      if (count_args.size() > 3) {
        throw cli::usage_error("help takes at most one command's name ('" + cli::shown_operand(count_args[3]) +
                               "' is extra)");
      }
      const auto asks_help = [](const std::string& word) {
        return word == "count" || word == "help" || word == "-h" || word == "--help" || word == "--version" ||
               word == "-V";
      };
      if (count_args.size() == 2 || asks_help(count_args[2])) {
        count_args = {args[0], "--help"};
      } else if (cli::find_command(count_args[2]) != nullptr) {
        count_args.erase(count_args.begin() + 1);
      } else {
        throw cli::usage_error("unknown command '" + cli::shown_operand(count_args[2]) + "': nqueens-mpi only counts");
      }
    }
    if (count_args.size() > 1 && count_args[1] == "count") count_args.erase(count_args.begin() + 1);
    // Another command of nqueens ("merge x") would read as two board sizes.
    if (count_args.size() > 1 && count_args[1] != "count" && cli::find_command(count_args[1]) != nullptr) {
      throw cli::usage_error("'" + count_args[1] +
                             "' is a command of nqueens, not of nqueens-mpi, which only counts: " +
                             "mpirun -np R nqueens-mpi N [count options] (or run 'nqueens " + count_args[1] + "')");
    }
    ready.request = cli::parse_count_request(count_args, /*plan_is_shared=*/true);
    if (!ready.request) return ready;                // --help
    ready.settings = settings_text(*ready.request);  // as given, before rank 0 prices its lists
  } catch (...) {                                    // as nqueens would exit, with the same line
    const cli::failure f = cli::failure_of(std::current_exception());
    ready.status = f.status;
    ready.problem = f.message;
  }
  return ready;
}

void prepare(readiness& ready, int rank) {
  if (ready.status != 0 || !ready.request) return;
  bool checking_node = false;
  try {
    count_options& o = ready.request->options;
    // Each rank of its own node: nodes may differ.
    cli::warn_of_memory_beyond_this_machine(o.max_memory, "nqueens-mpi: rank " + std::to_string(rank));
    if (!o.shard.whole()) throw cli::usage_error("--shard is for separate jobs, not nqueens-mpi");
    checking_node = true;
    check_runnable(o.kind, ready.request->n, o.threads, o.gpu);  // every rank: its own GPUs
    if (counts_on_gpus(o.kind)) ready.gpus = gpus_taken(o.gpu, o.threads);
    checking_node = false;
    ready.checked = std::chrono::steady_clock::now();
    // A journal kept from before holds its split: no other can resume it.
    const bool journal_kept = !o.checkpoint.empty() && std::filesystem::exists(o.checkpoint);
    // A shard's journal: only the shard's own count can resume it, which
    // nqueens-mpi, refusing --shard, cannot be.
    const auto kept = rank == 0 && journal_kept ? detail::journal::journal_run_of(o.checkpoint) : std::nullopt;
    if (kept && !kept->shard.whole()) {
      const std::string part = std::to_string(kept->shard.index) + "/" + std::to_string(kept->shard.count);
      const std::string n = std::to_string(kept->n);
      throw cli::usage_error("checkpoint '" + cli::one_line(o.checkpoint) + "' is the journal of shard " + part +
                             " of n = " + n + ": resume it with 'nqueens count " + n + " --engine " +
                             std::string(to_string(kept->kind)) + " --split-depth " +
                             std::to_string(kept->split_depth) + " --shard " + part +
                             " --checkpoint FILE', not with nqueens-mpi, or use another checkpoint file");
    }
    if (rank == 0 && !o.checkpoint.empty()) ready.journal = checkpoint_file(o.checkpoint);
    const plan_options options{.kind = o.kind,
                               .split_depth = o.split_depth,
                               .cancel = &cli::stop_requested(),
                               .max_memory = memory_limit_or_default(o.max_memory)};
    if (rank == 0) {
      // Rank 0 lists the plan's subproblems too, priced as count prices
      // them: a refusal names the lists, and the split depth that fits.
      try {
        planned_run run = plan_within_memory(ready.request->n, options, o.max_memory, o.threads);
        o.max_memory = run.engine_memory;
        ready.p.emplace(std::move(run.p));
      } catch (const memory_limit_error& e) {
        ready.plan_memory_problem = cli::failure_of(std::make_exception_ptr(e)).message;
        try {
          check_memory(ready.request->n, o.kind, o.max_memory, o.threads);
        } catch (const memory_limit_error& alone) {
          ready.engine_memory_problem = cli::failure_of(std::make_exception_ptr(alone)).message;
        }
        // A kept journal of another run is named first, as count names it.
        ready.journal.require_run_of(ready.request->n, o.kind, e.split_depth(), {}, e.split_depth_at_least());
        if (journal_kept) throw cli::for_a_kept_journal(e, o.checkpoint, o.kind, ready.request->n);
        throw cli::with_fitting_split(e, o.kind, ready.request->n, o.max_memory, o.threads, o.split_depth,
                                      /*shared_plan=*/true);
      }
    } else {
      // A worker builds its own tables and holds a chunk of the list: its
      // tables must fit, checked before the plan (seconds at 10^8
      // subproblems), which a signal stops.
      check_memory(ready.request->n, o.kind, o.max_memory, o.threads);
      ready.p.emplace(ready.request->n, options);
    }
  } catch (...) {  // as nqueens would exit, with the same line
    const cli::failure f = cli::failure_of(std::current_exception());
    ready.status = f.status;
    ready.problem = f.message;
    ready.node_problem = checking_node;
  }
}

namespace {

// Everything the ranks said, rank 0's first: at rank 0 only.
struct reports {
  std::vector<rank_plan> plans;
  std::vector<std::string> problems;  // a refusal, worded where it happened
  std::vector<std::string> settings;  // the options as given (settings_text)
  std::vector<std::string> gpus;      // the GPUs each counts on (encode_gpus)
};

// Every rank's plan, problem and options to rank 0. Collective.
reports gather_reports(const readiness& ready, int rank, int ranks) {
  const rank_plan mine = plan_of(ready);
  reports all;
  all.plans.resize(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(&mine, rank_plan_words, MPI_UINT64_T, all.plans.data(), rank_plan_words, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  all.problems = gather_text(ready.problem, rank, ranks);
  all.settings = gather_text(ready.settings, rank, ranks);
  all.gpus = gather_text(encode_gpus(ready.gpus), rank, ranks);
  return all;
}

// Rank 0's decision: the ranks' refusals first (a usage error, 2, wins),
// then, when all are ready, any rank whose plan or options differ from rank
// 0's. Adds each line to tell to `lines`, once.
agreement judge(const reports& all, const readiness& own, std::vector<std::string>& lines) {
  // A rank stopped before counting left rank 0's journal, where there is
  // one, as it was: each such line says how to resume it, as count's does.
  const std::string checkpoint = own.request ? own.request->options.checkpoint : std::string();
  const auto said = [&](std::uint64_t status, const std::string& problem) {
    return status > 128 ? cli::with_resume_hint(problem, checkpoint) : problem;
  };
  const std::string own_problem = said(static_cast<std::uint64_t>(own.status), own.problem);
  std::vector<std::string> problems;
  for (std::size_t r = 0; r < all.plans.size(); ++r) problems.push_back(said(all.plans[r].status, all.problems[r]));
  const auto add_line = [&](const std::string& line) {
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  };
  agreement result;
  // Rank 0's problems and those every rank shares (the command line's, the
  // journal's, which rank 0 alone takes) read as nqueens would say them; a
  // problem of its own names the rank, and so does one of rank 0's node
  // (its GPUs) where another rank's node had no such problem.
  // Ranks that say the same are named on one line: 63 ranks short of
  // memory are one line, not 63.
  const bool every_rank_alike = std::ranges::all_of(
      problems, [&](const std::string& problem) { return !own_problem.empty() && problem == own_problem; });
  std::vector<std::pair<std::string, std::vector<std::size_t>>> named;  // in the order first said
  for (std::size_t r = 0; r < all.plans.size(); ++r) {
    const auto status = static_cast<int>(all.plans[r].status);
    if (status == 0) continue;
    if (result.verdict == 0 || status == 2) result.verdict = status;
    const std::string& problem = problems[r];
    // A rank short of the memory rank 0 is short of (for the engine's
    // tables, or for the plan): rank 0's line says it, with its advice.
    if (r > 0 && !problem.empty() && (problem == own.engine_memory_problem || problem == own.plan_memory_problem)) {
      continue;
    }
    if (r == 0 ? !own.node_problem || every_rank_alike : problem == own_problem) {
      add_line(problem);
      continue;
    }
    const auto same = std::ranges::find(named, problem, &std::pair<std::string, std::vector<std::size_t>>::first);
    if (same != named.end()) {
      same->second.push_back(r);
    } else {
      named.emplace_back(problem, std::vector<std::size_t>{r});
    }
  }
  for (const auto& [problem, ranks] : named) add_line(cli::ranks_named(ranks) + ": " + problem);
  if (result.verdict != 0) return result;
  // A rank given --help or --version has no plan: it disagrees with one that counts.
  const rank_plan& root = all.plans.front();
  const std::vector<cli::count_setting> root_settings = settings_of(all.settings.front());
  result.rank_threads.push_back(static_cast<int>(root.threads));
  result.rank_kernels.push_back(static_cast<isa>(root.kernels));
  // Ranks that differ alike are named on one line: 63 ranks given another
  // --threads are one line, not 63. Each difference: what follows "rank R
  // built" or "rank R was given", in the order first found.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> built, given;
  const auto note = [](auto& differences, std::string difference, std::size_t r) {
    const auto same =
        std::ranges::find(differences, difference, &std::pair<std::string, std::vector<std::size_t>>::first);
    if (same != differences.end()) {
      same->second.push_back(r);
    } else {
      differences.emplace_back(std::move(difference), std::vector<std::size_t>{r});
    }
  };
  for (std::size_t r = 1; r < all.plans.size(); ++r) {
    const rank_plan& other = all.plans[r];
    result.rank_threads.push_back(static_cast<int>(other.threads));
    result.rank_kernels.push_back(static_cast<isa>(other.kernels));
    if (other.fingerprint != root.fingerprint) {
      note(built, describe_plan(other), r);
      continue;
    }
    // The same plan, but an option only one rank was given would be ignored
    // in silence (a worker's --checkpoint, --threads, --json...).
    const std::vector<cli::count_setting> theirs = settings_of(all.settings[r]);
    for (std::size_t k = 0; k < theirs.size() && k < root_settings.size(); ++k) {
      if (theirs[k].value == root_settings[k].value) continue;
      note(given, describe_setting(theirs[k]) + ", rank 0 " + describe_setting(root_settings[k]), r);
    }
  }
  for (const auto& [plan_built, ranks] : built) {
    add_line(cli::ranks_named(ranks) + " built " + plan_built + ", rank 0 " + describe_plan(root) +
             ": every rank must count the same plan (give each the same N, --engine and --split-depth); "
             "nothing was counted");
  }
  for (const auto& [setting, ranks] : given) {
    add_line(cli::ranks_named(ranks) + (ranks.size() == 1 ? " was given " : " were given ") + setting +
             ": every rank must be given the same options; nothing was counted");
  }
  if (!built.empty() || !given.empty()) result.verdict = 2;
  return result;
}

}  // namespace

agreement agree(const readiness& ready, int rank, int ranks) {
  const reports all = gather_reports(ready, rank, ranks);
  agreement result;
  if (rank == 0) {
    std::vector<std::string> lines;
    result = judge(all, ready, lines);
    if (result.verdict == 0 && !ready.gpus.empty()) {
      for (const std::string& gpus : all.gpus) result.rank_gpus.push_back(decode_gpus(gpus));
    }
    for (const std::string& line : lines) std::cerr << "nqueens-mpi: " << cli::one_line(line) << '\n';
  }
  MPI_Bcast(&result.verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return result;
}

}  // namespace nqueens::mpi
