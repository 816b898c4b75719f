#include "nqueens/progress.hpp"

#include "bits.hpp"
#include "kernel/backtrack.hpp"

namespace nqueens {

std::vector<std::uint64_t> estimate_work(const plan& p) {
  const int n = p.board_size();
  std::vector<std::uint64_t> work(p.size(), 1);
  // A quadrant subproblem's cost depends on the sizes of its two groups,
  // known only once the tables are built: count every one alike.
  if (p.kind() == engine::quadrant) return work;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const detail::search_start start = detail::prepare(n, p.kind(), p[i]);
    const int row = start.state.row;
    if (row >= n - 1) continue;
    std::uint64_t ways = 0;
    const auto& s = start.state;
    for (std::uint32_t free = start.allowed[static_cast<std::size_t>(row)] & ~(s.columns | s.left | s.right);
         free != 0; free = detail::clear_lowest_bit(free)) {
      const std::uint32_t bit = detail::lowest_bit(free);
      const std::uint32_t next = start.allowed[static_cast<std::size_t>(row + 1)] &
                                 ~((s.columns | bit) | ((s.left | bit) << 1) | ((s.right | bit) >> 1));
      ways += static_cast<std::uint64_t>(std::popcount(next));
    }
    work[i] = ways + 1;
  }
  return work;
}

}  // namespace nqueens
