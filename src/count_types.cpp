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

}  // namespace nqueens
