#pragma once

// Search-tree nodes of a row-by-row engine's plan, counted once per (n, engine) and cached: the
// work measure behind the nodes and nodes/s counters. Counting walks the whole
// tree with a plain recursion, so it is kept out of the timed loops.

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "engines/row_engine.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"

namespace nqueens::bench {

inline std::uint64_t plan_nodes(int n, engine kind) {
  static std::mutex mutex;
  static std::map<std::pair<int, engine>, std::uint64_t> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(n, kind);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const plan p(n, {.kind = kind});
  const std::uint64_t nodes = detail::row_plan_nodes(*detail::plan_access::engine(p));
  cache.emplace(key, nodes);
  return nodes;
}

}  // namespace nqueens::bench
