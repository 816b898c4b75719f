#include "nqueens/count_types.hpp"

#include <algorithm>
#include <stdexcept>

namespace nqueens {

std::string to_string(uint128 value) {
  if (value == 0) return "0";
  std::string digits;
  while (value != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

uint128 checked_add(uint128 a, uint128 b) {
  const uint128 sum = a + b;
  if (sum < a) throw std::overflow_error("solution count overflows 128 bits");
  return sum;
}

uint128 fundamental_count(int n, const uint128& total, const uint128& symmetric_180, const uint128& symmetric_90) {
  if (n < 1)
    throw std::invalid_argument("fundamental_count: n = " + std::to_string(n) + " is no board: expected 1 or more");
  // A solution a quarter turn fixes, the half turn (two quarter turns) fixes too.
  if (symmetric_90 > symmetric_180 || symmetric_180 > total) {
    throw std::domain_error("Q(" + std::to_string(n) + ") = " + to_string(total) + ", " + to_string(symmetric_180) +
                            " solutions unchanged by a half turn and " + to_string(symmetric_90) +
                            " by a quarter turn are inconsistent: each is a part of the one before");
  }
  const uint128 reflections = n == 1 ? 4 : 0;  // the four reflections each fix the lone queen
  const uint128 fixed =
      checked_add(checked_add(total, symmetric_180), checked_add(checked_add(symmetric_90, symmetric_90), reflections));
  if (fixed % 8 != 0) {
    throw std::domain_error("Q(" + std::to_string(n) + ") = " + to_string(total) + ", " + to_string(symmetric_180) +
                            " solutions unchanged by a half turn and " + to_string(symmetric_90) +
                            " by a quarter turn are inconsistent: Q + P + 2R" +
                            (n == 1 ? std::string(" + 4 (the lone queen's four reflections)") : std::string()) +
                            " is not a multiple of 8");
  }
  return fixed / 8;
}

}  // namespace nqueens
