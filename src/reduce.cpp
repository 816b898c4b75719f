#include "nqueens/reduce.hpp"

namespace nqueens {

totals reduce(const execution& run) {
  totals t;
  t.subproblems = run.counts.size();
  for (std::size_t i = 0; i < run.counts.size(); ++i) {
    if (run.finished[i] == 0) continue;
    t.total = checked_add(t.total, run.counts[i].total);
    t.unique = checked_add(t.unique, run.counts[i].unique);
    t.symmetric_180 = checked_add(t.symmetric_180, run.counts[i].symmetric_180);
    t.symmetric_90 = checked_add(t.symmetric_90, run.counts[i].symmetric_90);
    ++t.finished;
  }
  return t;
}

}  // namespace nqueens
