#include "nqueens/merge.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <tuple>
#include <utility>

#include "nqueens/board.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/verify.hpp"

namespace nqueens {
namespace {

std::string describe_run(const count_result& r) {
  return "n = " + std::to_string(r.n) + ", engine " + std::string(to_string(r.kind)) + ", split depth " +
         std::to_string(r.split_depth) + ", plan " + format_fingerprint(r.plan_fingerprint) + ", " +
         std::to_string(r.shard.count) + (r.shard.count == 1 ? " shard" : " shards");
}

// How a problem names parts[k]: by its file name, where the caller gave one.
std::string part_name(std::span<const std::string> names, std::size_t k) {
  return k < names.size() ? names[k] : "part " + std::to_string(k);
}

// What the parts of one run share.
auto run_of(const count_result& r) {
  return std::tuple(r.n, r.kind, r.split_depth, r.plan_fingerprint, r.subproblems, r.shard.count);
}

// The part whose run most parts share (the earliest of those where runs
// tie): the parts are judged by it, so that a stray file is named as the
// stray wherever it sorts among the others (a glob's first, say). Parts of
// a whole count only, where there are any: a rotational count's part is
// named as such, not as another run.
std::size_t most_shared_run(std::span<const count_result> parts) {
  const bool any_whole = std::ranges::any_of(parts, [](const count_result& r) { return r.scope == plan_scope::all; });
  std::map<decltype(run_of(parts.front())), std::pair<std::size_t, std::size_t>> runs;  // run -> (parts, first)
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (any_whole && parts[k].scope != plan_scope::all) continue;
    auto& [count, first] = runs.try_emplace(run_of(parts[k]), 0, k).first->second;
    ++count;
  }
  std::size_t best = 0, best_count = 0;
  for (const auto& [run, seen] : runs) {
    const auto [count, first] = seen;
    if (count > best_count || (count == best_count && first < best)) {
      best = first;
      best_count = count;
    }
  }
  return best;
}

// Each part's problem, if any, judged by the run of parts[reference]; the
// shards seen whole are put in `seen` (shard index -> part).
std::vector<std::string> part_problems(std::span<const count_result> parts, std::size_t reference,
                                       std::span<const std::string> names, std::map<int, std::size_t>& seen) {
  const auto name = [&](std::size_t k) { return part_name(names, k); };
  const count_result& first = parts[reference];
  const auto sharing = static_cast<std::size_t>(
      std::ranges::count_if(parts, [&](const count_result& r) { return run_of(r) == run_of(first); }));
  const std::string judged_by =
      sharing > 1 ? "the " + std::to_string(sharing) + " parts such as " + name(reference) : name(reference);
  std::vector<std::string> problems;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const count_result& r = parts[k];
    if (!is_valid_board_size(r.n)) {  // a part built by hand: no board, no fundamental count
      problems.push_back(name(k) + " names n = " + std::to_string(r.n) + ", which no board has");
      continue;
    }
    if (r.shard.count < 1 || r.shard.index < 0 || r.shard.index >= r.shard.count) {
      problems.push_back(name(k) + " names shard " + std::to_string(r.shard.index) + "/" +
                         std::to_string(r.shard.count) + ", which no run has");
      continue;
    }
    if (r.scope != plan_scope::all) {  // its engine and split depth are no engine's: said before them
      problems.push_back(name(k) + " counted only the rotation-symmetric solutions");
      continue;
    }
    if (run_of(r) != run_of(first)) {
      problems.push_back(name(k) + " belongs to another run (" + describe_run(r) + ") than " + judged_by + " (" +
                         describe_run(first) + ")");
      continue;
    }
    // A part larger than its plan, or that resumed more than it finished,
    // was built by hand: named here (the sums are checked too, add_up).
    if (r.shard_subproblems > r.subproblems) {
      problems.push_back(name(k) + " names " + std::to_string(r.shard_subproblems) +
                         " subproblems in its shard, more than its plan's " + std::to_string(r.subproblems));
      continue;
    }
    if (r.resumed > r.finished) {
      problems.push_back(name(k) + " says it resumed " + std::to_string(r.resumed) + " subproblems but finished " +
                         std::to_string(r.finished));
      continue;
    }
    if (!r.complete || r.finished != r.shard_subproblems) {
      // Every subproblem finished yet not complete: a part that contradicts itself.
      problems.push_back(name(k) +
                         (r.finished == r.shard_subproblems ? " says it did not finish its shard, yet counts "
                                                            : " did not finish its shard: ") +
                         std::to_string(r.finished) + " of " + std::to_string(r.shard_subproblems) + " subproblems");
      continue;
    }
    if (const auto it = seen.find(r.shard.index); it != seen.end()) {
      problems.push_back("shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
                         " is given twice: " + name(it->second) + " and " + name(k));
      continue;
    }
    seen.emplace(r.shard.index, k);
  }
  return problems;
}

// Every index, runs as ranges: "0-4,6,11-62", what sbatch --array takes to
// count them again; past 4 000 characters (a million shards, every other
// one missing, would make 6 MB) the rest are counted, not listed.
std::string index_ranges(const std::vector<int>& indices) {
  constexpr std::size_t most_listed = 4000;
  std::string list;
  std::size_t ranges_left = 0;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t last = i;
    while (last + 1 < indices.size() && indices[last + 1] == indices[last] + 1) ++last;
    if (list.size() < most_listed) {
      if (!list.empty()) list += ',';
      list += std::to_string(indices[i]);
      if (last > i) list += '-' + std::to_string(indices[last]);
    } else {
      ++ranges_left;
    }
    i = last + 1;
  }
  if (ranges_left > 0) list += " and " + std::to_string(ranges_left) + " more ranges";
  return list;
}

// sum += part, refused past 2^64 rather than wrapped.
void add_size(std::size_t& sum, std::size_t part, const char* what) {
  if (__builtin_add_overflow(sum, part, &sum)) {
    throw merge_error(merge_error::reason::parts, {std::string("the shards' ") + what + " add up past 2^64"});
  }
}

// The parts' sums, on `first`'s run; throws merge_error where they overflow.
count_result add_up(std::span<const count_result> parts, const count_result& first) {
  count_result whole = first;
  whole.total = whole.symmetric_180 = whole.symmetric_90 = 0;
  whole.seconds = whole.cpu_seconds = 0;
  whole.finished = whole.resumed = whole.shard_subproblems = whole.journal_bytes_cut = 0;
  whole.shard_digest = 0;  // the parts' sum: the digest of their indices together
  whole.journal_unfinished.clear();
  whole.device = {};
  whole.phases = {};  // each part has its own
  whole.threads = 0;
  whole.shard = {};
  try {
    for (const count_result& r : parts) {
      whole.total = checked_add(whole.total, r.total);
      whole.symmetric_180 = checked_add(whole.symmetric_180, r.symmetric_180);
      whole.symmetric_90 = checked_add(whole.symmetric_90, r.symmetric_90);
      whole.seconds += r.seconds;
      whole.cpu_seconds += r.cpu_seconds;
      // Hand-built parts could name any size: three parts of a plan of
      // 2^63 + 3 subproblems, each of 2^63 + 1, wrapped onto the plan's size.
      add_size(whole.finished, r.finished, "finished subproblems");
      add_size(whole.resumed, r.resumed, "resumed subproblems");
      add_size(whole.journal_bytes_cut, r.journal_bytes_cut, "journals' cut bytes");
      if (!r.journal_unfinished.empty()) {  // each part's journal its own: every reason kept
        if (!whole.journal_unfinished.empty()) whole.journal_unfinished += "; ";
        whole.journal_unfinished += r.journal_unfinished;
      }
      add_size(whole.shard_subproblems, r.shard_subproblems, "subproblems");
      whole.shard_digest += r.shard_digest;
      whole.device += r.device;
    }
  } catch (const std::overflow_error&) {  // each part's count fits, their sum does not
    throw merge_error(merge_error::reason::counts,
                      {"the shards' counts add up past 2^128, so they cannot all be right"});
  }
  return whole;
}

}  // namespace

merge_error::merge_error(reason why, std::vector<std::string> problems)
    : std::invalid_argument(problems.empty() ? std::string("the parts do not make up one whole count")
                                             : problems.front()),
      why_(why),
      problems_(std::move(problems)) {}

count_result merge(std::span<const count_result> parts, std::span<const std::string> names) {
  if (parts.empty()) throw merge_error(merge_error::reason::parts, {"no parts to add up"});
  const std::size_t reference = most_shared_run(parts);
  const count_result& first = parts[reference];
  std::map<int, std::size_t> seen;  // shard index -> part
  std::vector<std::string> problems = part_problems(parts, reference, names, seen);
  std::vector<int> missing;
  // No part of a whole count: there are no shards of one to miss.
  const bool counted_shards =
      first.scope == plan_scope::all && first.shard.count >= 1 && first.shard.count <= max_shards;
  for (int i = 0; counted_shards && i < first.shard.count; ++i) {
    if (!seen.contains(i)) missing.push_back(i);
  }
  if (!missing.empty()) {
    problems.push_back(std::to_string(missing.size()) + " of " + std::to_string(first.shard.count) +
                       " shards missing: " + index_ranges(missing));
  }
  if (!problems.empty()) throw merge_error(merge_error::reason::parts, std::move(problems));

  count_result whole = add_up(parts, first);
  try {
    whole.unique = fundamental_count(whole.n, whole.total, whole.symmetric_180, whole.symmetric_90);
  } catch (const std::overflow_error&) {  // the sums fit, Burnside's Q + P + 2R does not
    throw merge_error(merge_error::reason::counts,
                      {"the shards' counts make Q + P + 2R past 2^128 (Burnside's sum for the fundamental count), "
                       "so they cannot all be right"});
  } catch (const std::domain_error& e) {
    throw merge_error(merge_error::reason::counts, {e.what()});
  }
  if (whole.shard_subproblems != whole.subproblems) {  // shards of one plan cover it exactly once
    throw merge_error(merge_error::reason::parts, {"the shards hold " + std::to_string(whole.shard_subproblems) +
                                                   " subproblems, the plan " + std::to_string(whole.subproblems)});
  }
  whole.complete = true;
  whole.check = verify(whole.n, whole.total, whole.unique, whole.symmetric_180, whole.symmetric_90);
  return whole;
}

}  // namespace nqueens
