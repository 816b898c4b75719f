#include "nqueens/first.hpp"

#include <stdexcept>
#include <string>

namespace nqueens {

// Hoffman, Loessi and Moore's construction, in the form Bernhardsson (1991)
// gives it, with columns numbered from 1: the even columns in order, then the
// odd ones. That alone is a solution unless n mod 6 is 2 or 3, where the wrap
// from the last even column to the first odd one would put two queens on a
// diagonal; the two special orders below repair exactly that.
std::optional<std::vector<int>> first_solution(int n, const std::atomic<bool>* cancel) {
  if (n < 1 || n > max_constructed_board_size) {
    throw std::invalid_argument("board size " + std::to_string(n) + " is outside 1.." +
                                std::to_string(max_constructed_board_size));
  }
  // Nothing is counted here: the flag's exception says what was stopped.
  const auto stop_if_cancelled = [cancel] {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
      throw run_cancelled("the construction of the solution was cancelled");
    }
  };
  stop_if_cancelled();  // a flag already set, whatever n (the runs look only every 2^20)
  if (n == 2 || n == 3) return std::nullopt;
  std::vector<int> one_based;
  one_based.reserve(static_cast<std::size_t>(n));
  // from, from + 2, ..., to; the flag looked at every 2^20 columns (a
  // millisecond): a board of 10^8 takes a second, most of it its memory.
  const auto append_run = [&](int from, int to) {
    for (int c = from; c <= to; c += 2) {
      if ((c & ((1 << 21) - 1)) < 2) stop_if_cancelled();
      one_based.push_back(c);
    }
  };
  const int last_even = n % 2 == 0 ? n : n - 1;
  const int last_odd = n % 2 == 1 ? n : n - 1;
  switch (n % 6) {
    case 2:  // evens; then 3, 1, 7, 9, ..., 5
      append_run(2, last_even);
      one_based.push_back(3);
      one_based.push_back(1);
      append_run(7, last_odd);
      one_based.push_back(5);
      break;
    case 3:  // 4, 6, ..., 2; then 5, 7, ..., 1, 3
      append_run(4, last_even);
      one_based.push_back(2);
      append_run(5, last_odd);
      one_based.push_back(1);
      one_based.push_back(3);
      break;
    default:
      append_run(2, last_even);
      append_run(1, last_odd);
      break;
  }
  for (int& c : one_based) --c;
  return one_based;
}

}  // namespace nqueens
