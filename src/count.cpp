#include "nqueens/count.hpp"

#include <chrono>

#include "nqueens/execute.hpp"
#include "nqueens/reduce.hpp"

namespace nqueens {

count_result count(int n, const count_options& options) {
  const auto start = std::chrono::steady_clock::now();
  const plan p(n, plan_options{.kind = options.kind, .split_depth = options.split_depth});
  execute_options run_options;
  run_options.threads = options.threads;
  const execution run = execute(p, run_options);
  const totals sums = reduce(run);

  count_result r;
  r.n = n;
  r.kind = options.kind;
  r.total = sums.total;
  r.threads = run.threads;
  r.subproblems = p.size();
  r.split_depth = p.split_depth();
  r.plan_fingerprint = p.fingerprint();
  if (counts_unique(options.kind)) r.unique = sums.unique;
  r.check = verify(n, sums.total, r.unique);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace nqueens
