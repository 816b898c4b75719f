#include "nqueens/reduce.hpp"

namespace nqueens {

void accumulate(totals& sums, const subproblem_count& c) {
  sums.total = checked_add(sums.total, c.total);
  sums.unique = checked_add(sums.unique, c.unique);
  sums.symmetric_180 = checked_add(sums.symmetric_180, c.symmetric_180);
  sums.symmetric_90 = checked_add(sums.symmetric_90, c.symmetric_90);
  ++sums.finished;
}

totals reduce(const execution& run) {
  totals t;
  t.subproblems = run.plan_size;
  for (std::size_t k = 0; k < run.counts.size(); ++k) {
    if (run.finished[k] != 0) accumulate(t, run.counts[k]);
  }
  return t;
}

}  // namespace nqueens
