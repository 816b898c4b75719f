#include "run/worker_limit.hpp"

#include <tbb/global_control.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "nqueens/threads.hpp"

namespace nqueens::detail {

namespace {

struct raised_limits {
  std::mutex mutex;
  std::multiset<int> asked;                    // one per call alive
  std::unique_ptr<tbb::global_control> limit;  // at the largest asked, while any is
  std::size_t value = 0;                       // limit's
};

raised_limits& limits() {
  static raised_limits shared;
  return shared;
}

// Sets the one limit to the largest asked. The new limit comes before the
// old one goes: oneTBB obeys the smaller, so none is ever below a call's.
void update(raised_limits& l) {
  if (l.asked.empty()) {
    l.limit.reset();
    l.value = 0;
    return;
  }
  const auto most = static_cast<std::size_t>(*l.asked.rbegin());
  if (l.value == most) return;
  l.limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, most);
  l.value = most;
}

}  // namespace

int threads_allowed(int threads) {
  std::optional<raised_worker_limit> raised;  // as the arena would have it
  if (threads > hardware_threads()) raised.emplace(threads);
  const std::size_t most = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::clamp<std::size_t>(most, 1, static_cast<std::size_t>(threads)));
}

raised_worker_limit::raised_worker_limit(int threads) : threads_(threads) {
  raised_limits& l = limits();
  const std::scoped_lock lock(l.mutex);
  const auto mine = l.asked.insert(threads_);
  try {
    update(l);
  } catch (...) {  // no destructor runs: no request may stay behind
    l.asked.erase(mine);
    throw;
  }
}

raised_worker_limit::~raised_worker_limit() {
  raised_limits& l = limits();
  const std::scoped_lock lock(l.mutex);
  l.asked.erase(l.asked.find(threads_));
  try {
    update(l);
  } catch (...) {
    // The limit stays higher than any call now needs, which oneTBB takes
    // as a ceiling, not a demand: harmless, unlike an exception here.
  }
}

}  // namespace nqueens::detail
