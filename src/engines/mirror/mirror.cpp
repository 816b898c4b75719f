// The mirror engine: the textbook split. Row 0 takes the left half of the
// columns with weight 2, since each solution's mirror image starts in the
// right half; the rest is row-by-row backtracking.

#include "engines/row_engine.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail {
namespace {

// For odd n the middle column is its own mirror image, so below it the
// mirror split moves to row 1, whose queen cannot be in the middle column
// too: the left half again stands for both halves. With a single fixed row
// that refinement is unavailable and the middle column counts once.
bool is_refined_middle(int n, const row_prefix& s) { return n % 2 == 1 && s.columns[0] == n / 2; }

class mirror_rules final : public row_rules {
 public:
  std::vector<row_prefix> roots(int n) const override {
    std::vector<row_prefix> roots;
    for (int c = 0; c < (n + 1) / 2; ++c) {
      row_prefix s;
      s.columns[0] = static_cast<std::uint8_t>(c);
      s.weight = 2;  // the middle column's weight is settled once the depth is known (finish)
      roots.push_back(s);
    }
    return roots;
  }

  std::uint32_t allowed_columns(int n, const row_prefix&, int) const noexcept override { return low_bits(n); }

  std::uint32_t split_filter(int n, const row_prefix& s, int row, std::uint32_t candidates) const noexcept override {
    return row == 1 && is_refined_middle(n, s) ? candidates & low_bits(n / 2) : candidates;
  }

  void finish(int n, int depth, std::vector<row_prefix>& plan) const override {
    if (depth == 1 && n % 2 == 1) plan.back().weight = 1;  // the unrefined middle column
  }

  subproblem_count solve(int n, const row_prefix& s, const search_start& start,
                         const search_kernels& search) const override {
    return weighted_count(n, s, start, search, false);
  }
};

const mirror_rules rules;

}  // namespace

extern const engine_definition mirror_engine = {
    .id = engine::mirror,
    .name = "mirror",
    .summary = "row-by-row backtracking, halved by the left-right mirror (the textbook split)",
    .counts_unique = false,
    .max_board_size = max_board_size,
    .auto_from = 0,  // symmetric is faster at every n
    .make_plan = &make_row_plan_with<rules>,
};

}  // namespace nqueens::detail
