// The symmetric engine: one member of every class under the 8 board
// symmetries is searched (the method of Takaken's solver, see docs), and each
// completion is weighted by its class size; it also counts the classes.
//
// Every solution has exactly one queen in row 0, row n-1, column 0 and column
// n-1; each of these border queens has a distance to the two corners of its
// line, 8 "slots" that the symmetries permute without fixed points. A class
// has a member whose row-0 queen holds the smallest slot value t, measured
// from the left corner.
// - t = 0, a corner queen: a solution has at most one, so no symmetry fixes it
//   and its class has 8 members, of which two (a member and its transpose)
//   have the queen at (0, 0). Of the two, the one whose row-1 queen lies left
//   of the column-1 queen's row is kept: weight 8, no leaf check.
// - t >= 1: the other border queens keep distance >= t from every corner. When
//   no other slot equals t the member is unique and the class has 8; ties are
//   resolved at the leaf by comparing the images that also start at t.

#include <algorithm>

#include "engines/row_engine.hpp"
#include "kernels/bits.hpp"
#include "kernels/symmetry.hpp"

namespace nqueens::detail {
namespace {

struct classify_context {
  std::uint64_t unique = 0;
};

// Leaf check: `q` starts at t, the smallest of the 8 border slots. If no
// other slot equals t, q is the only member of its class the search reaches,
// and the class has 8 members. Else the images that also start at t compete:
// q counts only if none is smaller (row by row), and then stands for its
// class of 8 / |stabiliser| solutions.
std::uint64_t classify_leaf(std::span<const std::uint8_t> q, void* context) noexcept {
  auto& c = *static_cast<classify_context*>(context);
  const int n = static_cast<int>(q.size());
  const int m = n - 1;
  const int t = q[0];
  const auto at = [&](int row) { return static_cast<int>(q[static_cast<std::size_t>(row)]); };
  const bool tie =
      t == m - t || at(t) == 0 || at(t) == m || at(m - t) == 0 || at(m - t) == m || at(m) == t || at(m) == m - t;
  if (!tie) [[likely]] {
    ++c.unique;
    return 8;
  }
  std::array<std::uint8_t, max_board_size> buffer{};
  const std::span<std::uint8_t> image(buffer.data(), q.size());
  int stabiliser = 1;
  for (int g = 1; g < symmetry_count; ++g) {
    apply(static_cast<symmetry>(g), q, image);
    if (image[0] != t) continue;  // the search never reaches this member
    const auto order = std::lexicographical_compare_three_way(image.begin(), image.end(), q.begin(), q.end());
    if (order < 0) return 0;  // a smaller member is counted instead
    if (order == 0) ++stabiliser;
  }
  ++c.unique;
  return static_cast<std::uint64_t>(8 / stabiliser);
}

class symmetric_rules final : public row_rules {
 public:
  std::vector<row_prefix> roots(int n) const override {
    std::vector<row_prefix> roots;
    if (n == 1) {  // the lone queen is its own image under every symmetry
      row_prefix s;
      s.columns[0] = 0;
      s.classify = 1;
      roots.push_back(s);
      return roots;
    }
    for (int c1 = 2; c1 < n; ++c1) {
      row_prefix s;
      s.columns[0] = 0;
      s.columns[1] = static_cast<std::uint8_t>(c1);
      s.weight = 8;
      roots.push_back(s);
    }
    for (int t = 1; t <= (n - 1) / 2; ++t) {
      row_prefix s;
      s.columns[0] = static_cast<std::uint8_t>(t);
      s.classify = 1;
      roots.push_back(s);
    }
    return roots;
  }

  // The bounds that keep one member of every class:
  // - corner queen at (0, 0), row 1 at column c1: the queen of column 1 lies
  //   below row c1, so column 1 is closed in rows 2..c1;
  // - otherwise row 0 at column t: no queen of the border lies closer than t
  //   to a corner, so columns 0 and n-1 are closed in rows 1..t-1 and
  //   n-t..n-1, and the last row keeps columns t..n-1-t.
  std::uint32_t allowed_columns(int n, const row_prefix& s, int row) const noexcept override {
    const std::uint32_t full = low_bits(n);
    if (!s.has_queen(0) || n < 4) return full;
    const int t = s.columns[0];
    if (t == 0) {
      if (!s.has_queen(1)) return full;
      const int c1 = s.columns[1];
      return row >= 2 && row <= c1 ? full & ~std::uint32_t{2} : full;
    }
    if (row == n - 1) return low_bits(n - t) & ~low_bits(t);
    const std::uint32_t edges = std::uint32_t{1} | std::uint32_t{1} << (n - 1);
    return (row >= 1 && row < t) || row >= n - t ? full & ~edges : full;
  }

  subproblem_count solve(int n, const row_prefix& s, const search_start& start,
                         const search_kernels& search) const override {
    if (s.classify != 0) {
      classify_context context;
      const std::uint64_t total = search.visit(n, start, &classify_leaf, &context);
      return {total, context.unique};
    }
    return weighted_count(n, s, start, search, true);  // a corner queen: each completion is one class of 8
  }
};

const symmetric_rules rules;

}  // namespace

extern const engine_definition symmetric_engine = {
    .id = engine::symmetric,
    .name = "symmetric",
    .summary = "one member per class of the 8 board symmetries, row-by-row backtracking; classifies each solution too",
    .counts_unique = true,
    .max_board_size = max_board_size,
    .auto_from = 1,
    .make_plan = &make_row_plan_with<rules>,
};

}  // namespace nqueens::detail
