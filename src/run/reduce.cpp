#include "nqueens/reduce.hpp"

#include <stdexcept>
#include <string>

namespace nqueens {

void accumulate(totals& sums, const subproblem_count& c) {
  sums.total = checked_add(sums.total, c.total);
  sums.unique = checked_add(sums.unique, c.unique);
  sums.symmetric_180 = checked_add(sums.symmetric_180, c.symmetric_180);
  sums.symmetric_90 = checked_add(sums.symmetric_90, c.symmetric_90);
  ++sums.finished;
}

totals reduce(const execution& run) {
  // An execution is a plain struct a caller may fill (from a message, say):
  // its two lists are checked, not trusted.
  if (run.finished.size() != run.counts.size()) {
    throw std::invalid_argument("reduce: an execution of " + std::to_string(run.counts.size()) + " counts and " +
                                std::to_string(run.finished.size()) + " finished flags");
  }
  totals t;
  t.subproblems = run.plan_size;
  for (std::size_t k = 0; k < run.counts.size(); ++k) {
    if (run.finished[k] != 0) accumulate(t, run.counts[k]);
  }
  return t;
}

}  // namespace nqueens
