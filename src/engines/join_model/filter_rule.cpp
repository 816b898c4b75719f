#include "engines/join_model/filter_rule.hpp"

#include <algorithm>

#include "engines/checked_count.hpp"
#include "engines/join_model/transposition.hpp"

namespace nqueens::detail {

filter_rule filter_rule_of(int n, std::uint32_t north, int middle) noexcept {
  filter_rule r;
  if (!transposition_filtered(n)) return r;
  const int h = n / 2;
  const transposition_key key = transposition_key_of(north, n, middle);
  r.c = key.first;
  r.a = key.second;
  r.a_bar = low_bits(h) & ~key.second;
  if (n % 2 == 0 || middle == h) {
    r.kind = filter_rule::row_window;
    r.c_bar = low_bits(h) & ~key.first;
    r.a_inside = r.a > r.c && r.a < r.c_bar;
    r.a_bar_inside = r.a_bar > r.c && r.a_bar < r.c_bar;
    return r;
  }
  r.kind = filter_rule::column_h;
  r.c_bar = low_bits(h - 1) & ~key.first;       // P has h - 1 bits: the middle queen's index is out
  r.holder = ((north >> h) & 1U) != 0 ? 0 : 1;  // column h is north: the north group holds its queen
  r.distance = static_cast<std::uint32_t>(std::min(middle, n - 1 - middle));
  // A tie of P = c ranks (Q, beta) against (a, key.beta), Q the other
  // half's row set; one of P = ~c ranks (~Q, 1 - beta), where beta is 1
  // when the middle queen lies below h.
  const int beta = middle < h ? 1 : 0;
  r.above = beta > key.beta ? r.a : r.a + 1;
  r.to_a_bar = 1 - beta > key.beta;
  r.once_c = beta == key.beta;
  r.once_c_bar = 1 - beta == key.beta;
  return r;
}

std::uint64_t filtered_share(std::uint64_t twice, std::uint64_t once) {
  return checked_sum(checked_sum(twice, twice), once);
}

}  // namespace nqueens::detail
