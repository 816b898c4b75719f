#include "nqueens/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/registry.hpp"
#include "engines/rotation/rotation_plan.hpp"
#include "nqueens/board.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/threads.hpp"
#include "run/plan_access.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens {

std::uint64_t memory_estimate(int n, engine kind, int threads, std::uint64_t max_memory) noexcept {
  const detail::engine_definition* definition = detail::find_definition(kind);
  const auto estimate = definition != nullptr ? definition->memory_estimate : nullptr;
  // A board the engine does not take is not priced (check_memory refuses
  // it): its tabled sizes would recurse past n's of any real run.
  if (estimate == nullptr || n < 1 || n > definition->max_board_size) return 0;
  return estimate(n, threads_or_hardware(threads), memory_limit_or_default(max_memory));
}

namespace {

// The most threads, fewer than `threads` (resolved), whose engine fits in
// `bound` as memory_estimate prices it with `limit` allowed; 0 where none
// does, or where the need does not grow with threads. Each thread keeps
// buffers of its own: fewer of them may be the remedy.
int most_threads_within(int n, engine kind, int threads, std::uint64_t limit, std::uint64_t bound) noexcept {
  int low = 0;                              // fits (0: none known to)
  int high = threads_or_hardware(threads);  // does not fit
  if (high <= 1 || memory_estimate(n, kind, 1, limit) > bound) return 0;
  while (high - low > 1) {
    const int mid = low + (high - low) / 2;
    (memory_estimate(n, kind, mid, limit) <= bound ? low : high) = mid;
  }
  return low;
}

using remedy = memory_limit_error::remedy;

// A refusal's remedies: a smaller split where `shallower` (the lists'
// remedy), fewer threads where `fit` of them (> 0) would fit, another
// engine, more memory. An engine that drives each GPU from a thread of its
// own refuses fewer threads than GPUs: it is told to take fewer GPUs too,
// or the advice led to a second refusal.
std::vector<memory_limit_error::advice> remedies_of(bool shallower, int fit, engine kind) {
  std::vector<memory_limit_error::advice> remedies;
  if (shallower) remedies.push_back({remedy::shallower_split, "a smaller --split-depth"});
  if (fit > 0) {
    const std::string most = std::to_string(fit);
    remedies.push_back({remedy::fewer_threads, counts_on_gpus(kind) ? "fewer --threads (at most " + most +
                                                                          ", on as many GPUs at most: --devices)"
                                                                    : "fewer --threads (at most " + most + ")"});
  }
  remedies.push_back({remedy::other_engine, "another --engine"});
  remedies.push_back({remedy::more_memory, "raise --max-memory"});
  return remedies;
}

}  // namespace

void check_memory(int n, engine kind, std::uint64_t limit, int threads) {
  // A board the engine does not take is refused for that, not priced; so
  // are an engine and a thread count that name none.
  const detail::engine_definition& definition = detail::definition_of(kind);
  require_valid_board_size(n);
  detail::require_board_taken(definition, n);
  static_cast<void>(resolve_threads(threads));
  limit = memory_limit_or_default(limit);
  const std::uint64_t need = memory_estimate(n, kind, threads, limit);
  if (need <= limit) return;
  const int decimals = digits_to_tell(need, limit);
  throw memory_limit_error("the " + std::string(to_string(kind)) + " engine needs about " +
                               format_bytes(need, decimals, byte_rounding::up) + " for n = " + std::to_string(n) +
                               ", more than the " + format_bytes(limit, decimals) + " allowed (--max-memory)",
                           remedies_of(false, most_threads_within(n, kind, threads, limit, limit), kind));
}

namespace {

// What run_lists_estimate prices, from the plan's parts: `size` subproblems
// (the rotation ones too), `engine_bytes` of the engine's own list.
std::uint64_t lists_bytes(std::uint64_t size, std::uint64_t engine_bytes, bool uniform, shard_spec shard) noexcept {
  // The plan's own list (34 bytes a row-by-row subproblem), the journal's
  // two bits per subproblem (held, recorded) and the executor's one.
  const std::uint64_t bits = engine_bytes + 3 * ((size + 63) / 64) * 8;
  if (!uniform) return 40 * size + bits;  // dealt out: every index, its estimate, the shard twice
  const auto first = static_cast<std::uint64_t>(shard.index);
  const auto step = static_cast<std::uint64_t>(std::max(shard.count, 1));
  const std::uint64_t mine = detail::dealt_in_turn(size, first, step);
  return 8 * mine + bits;
}

// Whether a whole count of engine `d`'s plan fits in `limit` as count()
// prices it (check_memory, then check_run_memory), its plan built but not
// fingerprinted: the fingerprint is most of a large plan's time (n = 27:
// 3 s), the engine's list next to nothing (a block table for quadrant).
// `unplannable`, where given, is set when the plan cannot be built at all
// at that split (too many subproblems), whatever the memory.
bool count_fits(const detail::engine_definition& d, int n, std::uint64_t limit, int threads, int split_depth,
                std::uint64_t rotation_subproblems, const std::atomic<bool>* cancel, bool* unplannable = nullptr) {
  if (memory_estimate(n, d.id, threads, limit) > limit) return false;
  std::unique_ptr<detail::engine_plan> p;
  try {
    p = d.make_plan(n, split_depth, automatic_target(n), limit, cancel);
  } catch (const std::invalid_argument&) {  // too many subproblems
    if (unplannable != nullptr) *unplannable = true;
    return false;
  } catch (const memory_limit_error&) {  // its list past `limit`
    return false;
  }
  const std::uint64_t lists = lists_bytes(p->size() + rotation_subproblems, p->bytes(), p->uniform_work(), {});
  // Exactly the bound fits (a bound of a byte prices an engine's least
  // layout: 0 would mean the default).
  return lists <= limit &&
         memory_estimate(n, d.id, threads, std::max<std::uint64_t>(limit - lists, 1)) <= limit - lists;
}

// fitting_split_depth for a definition: 0 where the automatic split fits,
// else the deepest that does, tried from depth 1 up to the first that does
// not (a deeper split only adds subproblems), -1 where none does.
int fitting_depth(const detail::engine_definition& d, int n, std::uint64_t limit, int threads,
                  std::uint64_t rotation_subproblems, const std::atomic<bool>* cancel) {
  if (count_fits(d, n, limit, threads, 0, rotation_subproblems, cancel)) return 0;
  int fits = -1;
  for (int depth = 1; depth <= max_split_depth; ++depth) {
    if (!count_fits(d, n, limit, threads, depth, rotation_subproblems, cancel)) break;
    fits = depth;
  }
  return fits;
}

}  // namespace

std::uint64_t run_lists_estimate(const plan& p, shard_spec shard) noexcept {
  const detail::engine_plan* engine = detail::plan_access::engine(p);
  return lists_bytes(p.size(), engine != nullptr ? engine->bytes() : 0, p.uniform_work(), shard);
}

namespace {

// What a run of a plan holds besides the engine's tables (run_lists_estimate),
// and what names the plan in a refusal.
struct run_need {
  int n;
  engine kind;
  int split_depth;
  std::uint64_t subproblems;
  std::uint64_t lists;
  bool tables = true;  // false for a rotational plan: no engine's tables are built
};

// check_run_memory of a run's need, `limit` and `threads` already checked.
std::uint64_t check_run_need(const run_need& need, std::uint64_t limit, int threads, shard_spec shard) {
  const std::uint64_t lists = need.lists;
  const std::uint64_t left = lists < limit ? limit - lists : 0;
  // Where the lists leave nothing, the engine's least layout (priced for a
  // bound of a byte) is what it would need besides.
  const std::uint64_t engine =
      need.tables ? memory_estimate(need.n, need.kind, threads, std::max<std::uint64_t>(left, 1)) : 0;
  // Exactly the bound fits, as plan's estimate is a bound to give: the
  // engine then gets a byte, its least layout (0 would be the default).
  if (lists <= limit && engine <= left) return std::max<std::uint64_t>(left, 1);
  // A smaller split shortens the lists alone: no remedy at depth 1, the
  // least, nor where the engine alone passes the bound.
  const bool shallower_helps =
      need.tables && need.split_depth > 1 && memory_estimate(need.n, need.kind, threads, limit) <= limit;
  // Each figure told from the bound: the engine's alone may be close to it.
  const int decimals = std::max(digits_to_tell(lists + engine, limit), engine > 0 ? digits_to_tell(engine, limit) : 0);
  const std::string lists_text =
      "its lists (the plan's " + std::to_string(need.subproblems) + " subproblems" +
      // The depth priced: where the automatic split was fitted, the shallowest tried.
      (need.tables ? " at split depth " + std::to_string(need.split_depth) : std::string()) +
      (shard.whole() ? std::string() : ", shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count)) +
      ") about " + format_bytes(lists, decimals, byte_rounding::up);
  const std::string what = engine > 0 ? "the " + std::string(to_string(need.kind)) + " engine needs about " +
                                            format_bytes(engine, decimals, byte_rounding::up) +
                                            " for n = " + std::to_string(need.n) + " and " + lists_text
                                      : "the count of n = " + std::to_string(need.n) + " needs " + lists_text;
  throw memory_limit_error(
      what + (engine > 0 ? ", together about " + format_bytes(lists + engine, decimals, byte_rounding::up) : "") +
          ", more than the " + format_bytes(limit, decimals) + " allowed (--max-memory)",
      remedies_of(shallower_helps, lists < limit ? most_threads_within(need.n, need.kind, threads, left, left) : 0,
                  need.kind),
      need.tables ? need.split_depth : 0);
}

}  // namespace

std::uint64_t check_run_memory(const plan& p, std::uint64_t limit, int threads, shard_spec shard) {
  static_cast<void>(resolve_threads(threads));  // refused as check_memory refuses them, not priced
  require_valid_shard(shard);
  return check_run_need(
      {p.board_size(), p.kind(), p.split_depth(), p.size(), run_lists_estimate(p, shard), p.scope() == plan_scope::all},
      memory_limit_or_default(limit), threads, shard);
}

std::uint64_t check_lists_memory(const plan& p, std::uint64_t limit, shard_spec shard) {
  require_valid_shard(shard);
  return check_run_need(
      {p.board_size(), p.kind(), p.split_depth(), p.size(), run_lists_estimate(p, shard), /*tables=*/false},
      memory_limit_or_default(limit), 1, shard);
}

std::uint64_t check_plan_memory(const plan& p, std::uint64_t limit, int threads, shard_spec shard) {
  try {
    // A rotational plan builds no engine's tables: its lists alone are priced.
    if (p.scope() == plan_scope::all) check_memory(p.board_size(), p.kind(), limit, threads);
  } catch (const memory_limit_error&) {
    // The engine alone passes the bound: the refusal names the whole need,
    // the plan's lists too, so that a bound raised to the engine's need is
    // not refused again for the lists (n = 23: 67 MiB, then 100 MiB).
    static_cast<void>(check_run_memory(p, limit, threads, shard));
    throw;
  }
  return check_run_memory(p, limit, threads, shard);
}

planned_run plan_within_memory(int n, plan_options options, std::uint64_t max_memory, int threads, shard_spec shard) {
  require_valid_shard(shard);
  options.max_memory = memory_limit_or_default(max_memory);
  // Options no plan takes are refused by the plan, after the engine's check.
  const bool plannable =
      options.scope == plan_scope::all && options.split_depth >= 0 && options.split_depth <= max_split_depth;
  const detail::engine_definition& d = detail::definition_of(options.kind);
  const std::size_t target = options.target_subproblems != 0 ? options.target_subproblems : automatic_target(n);
  // The engine's plan priced with its lists, before its fingerprint (most of
  // a large plan's time: 40 s at n = 27, split 12): a refusal comes in a
  // second. Not priced past the indices a journal takes: the plan refuses it.
  const auto check_lists = [&](const detail::engine_plan& p) {
    const std::uint64_t size = p.size() + detail::rotation_tasks(n).size();
    if (size > std::numeric_limits<std::uint32_t>::max()) return;
    static_cast<void>(
        check_run_need({n, options.kind, p.split_depth(), size, lists_bytes(size, p.bytes(), p.uniform_work(), shard)},
                       options.max_memory, threads, shard));
  };
  try {
    check_memory(n, options.kind, max_memory, threads);
  } catch (const memory_limit_error&) {
    // Refused for the engine alone: the refusal names the plan's lists too,
    // as check_plan_memory's does.
    if (!plannable) throw;
    std::unique_ptr<detail::engine_plan> p;
    try {
      p = d.make_plan(n, options.split_depth, target, options.max_memory, options.cancel);
    } catch (const memory_limit_error&) {  // the plan alone passes it too: the engine's refusal stands
    } catch (const std::invalid_argument&) {
    }
    if (p) check_lists(*p);
    throw;
  }
  std::shared_ptr<const detail::engine_plan> built;
  if (plannable) {
    detail::throw_if_cancelled(options.cancel);
    std::unique_ptr<detail::engine_plan> p =
        d.make_plan(n, options.split_depth, target, options.max_memory, options.cancel);
    check_lists(*p);
    built = std::move(p);
  }
  planned_run run{detail::plan_access::around(n, options, std::move(built)), 0};
  run.engine_memory = check_plan_memory(run.p, max_memory, threads, shard);
  return run;
}

engine_choice fastest_engine_and_split(int n, std::uint64_t max_memory, int threads, int split_depth,
                                       const std::atomic<bool>* cancel) {
  detail::throw_if_cancelled(cancel);  // a flag already set, whether a plan is built or not
  const std::vector<const detail::engine_definition*> candidates = detail::auto_candidates(n);
  if (candidates.empty()) return {default_engine, split_depth};
  // What count() refuses for itself is left to it.
  if (split_depth < 0 || split_depth > max_split_depth || threads < 0 || threads > max_threads) {
    return {candidates.front()->id, split_depth};
  }
  const std::uint64_t limit = memory_limit_or_default(max_memory);
  const std::uint64_t rotation_subproblems = detail::rotation_tasks(n).size();
  // The slowest (the last) whose plan the split asked can build at all:
  // where none fits, its refusal names the memory.
  const detail::engine_definition* plannable = nullptr;
  for (const detail::engine_definition* d : candidates) {
    if (split_depth != 0) {
      bool unplannable = false;
      if (count_fits(*d, n, limit, threads, split_depth, rotation_subproblems, cancel, &unplannable)) {
        return {d->id, split_depth};
      }
      if (!unplannable) plannable = d;
    } else if (const int depth = fitting_depth(*d, n, limit, threads, rotation_subproblems, cancel); depth >= 0) {
      return {d->id, depth};
    }
  }
  // None fits: the count refuses, naming what the slowest needs (at the
  // smallest plan, as fitting_split_depth says; at the split asked, of an
  // engine that can build it where one can: "split depth 12 gives more
  // than 4194304 subproblems" named the fallback's plan, not the memory).
  return {(plannable != nullptr ? plannable : candidates.back())->id, split_depth != 0 ? split_depth : 1};
}

engine fastest_engine(int n, std::uint64_t max_memory, int threads, int split_depth, const std::atomic<bool>* cancel) {
  return fastest_engine_and_split(n, max_memory, threads, split_depth, cancel).kind;
}

int fitting_split_depth(int n, engine kind, std::uint64_t max_memory, int threads, const std::atomic<bool>* cancel) {
  detail::throw_if_cancelled(cancel);  // a flag already set, whether a plan is built or not
  const detail::engine_definition* d = detail::find_definition(kind);
  if (d == nullptr || n < 1 || n > d->max_board_size || threads < 0 || threads > max_threads) return 0;
  const int depth =
      fitting_depth(*d, n, memory_limit_or_default(max_memory), threads, detail::rotation_tasks(n).size(), cancel);
  return depth < 0 ? 1 : depth;
}

}  // namespace nqueens
