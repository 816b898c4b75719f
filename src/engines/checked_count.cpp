#include "engines/checked_count.hpp"

#include <stdexcept>

namespace nqueens::detail {

namespace {

[[noreturn]] void too_many() { throw std::overflow_error("a subproblem has more than 2^64 solutions"); }

}  // namespace

std::uint64_t checked_sum(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) too_many();
  return sum;
}

std::uint64_t checked_product(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) too_many();
  return product;
}

}  // namespace nqueens::detail
