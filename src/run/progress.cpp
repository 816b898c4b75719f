#include "nqueens/progress.hpp"

namespace nqueens {

std::vector<std::uint64_t> estimate_work(const plan& p) {
  std::vector<std::uint64_t> work(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) work[i] = p.estimated_work(i);
  return work;
}

}  // namespace nqueens
