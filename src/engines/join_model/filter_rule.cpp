#include "engines/join_model/filter_rule.hpp"

#include "engines/checked_count.hpp"
#include "engines/join_model/transposition.hpp"

namespace nqueens::detail {

filter_rule filter_rule_of(int n, std::uint32_t north, int middle) noexcept {
  const subproblem_filter f = filter_of(n, north, middle);
  filter_rule r;
  if (f.kind == subproblem_filter::every_pair) return r;
  const int h = n / 2;
  r.c = f.key.first;
  r.a = f.key.second;
  r.a_bar = low_bits(h) & ~f.key.second;
  if (f.kind == subproblem_filter::row_window) {
    r.kind = filter_rule::row_window;
    r.c_bar = low_bits(h) & ~f.key.first;
    r.a_inside = r.a > r.c && r.a < r.c_bar;
    r.a_bar_inside = r.a_bar > r.c && r.a_bar < r.c_bar;
    return r;
  }
  r.kind = filter_rule::column_h;
  r.c_bar = low_bits(h - 1) & ~f.key.first;  // P has h - 1 bits: the middle queen's index is out
  r.holder = f.north_holds ? 0 : 1;
  r.distance = static_cast<std::uint32_t>(f.distance);
  // A tie of P = c ranks (Q, beta) against (a, key.beta), Q the other
  // half's row set; one of P = ~c ranks (~Q, 1 - beta).
  r.above = f.beta > f.key.beta ? r.a : r.a + 1;
  r.to_a_bar = 1 - f.beta > f.key.beta;
  r.once_c = f.beta == f.key.beta;
  r.once_c_bar = 1 - f.beta == f.key.beta;
  return r;
}

std::uint64_t filtered_share(std::uint64_t twice, std::uint64_t once) {
  return checked_sum(checked_sum(twice, twice), once);
}

}  // namespace nqueens::detail
