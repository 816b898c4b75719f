#include "kernels/completions.hpp"

#include <algorithm>
#include <exception>

#include "kernels/bits.hpp"
#include "kernels/search.hpp"

namespace nqueens::detail {

namespace {

struct collector {
  std::vector<std::uint64_t>* out;
  std::size_t first_row;
  std::exception_ptr error;  // the leaf is noexcept: carry bad_alloc out
};

std::uint64_t collect(std::span<const std::uint8_t> queens, void* context) noexcept {
  auto& c = *static_cast<collector*>(context);
  std::uint64_t key = 0;
  for (std::size_t r = c.first_row; r < queens.size(); ++r) key = (key << 5) | queens[r];
  try {
    c.out->push_back(key);
  } catch (...) {
    if (!c.error) c.error = std::current_exception();
  }
  return 1;
}

}  // namespace

void collect_completions(int n, std::span<const std::uint8_t> prefix, std::vector<std::uint64_t>& out, isa kernels) {
  search_start start;
  std::copy(prefix.begin(), prefix.end(), start.queens.begin());
  start.state = place_prefix(n, prefix);
  std::fill(start.allowed.begin(), start.allowed.end(), low_bits(n));
  collector c{&out, prefix.size(), nullptr};
  search_kernels_for(kernels).visit(n, start, collect, &c);
  if (c.error) std::rethrow_exception(c.error);
}

}  // namespace nqueens::detail
