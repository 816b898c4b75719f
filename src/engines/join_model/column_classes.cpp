#include "engines/join_model/column_classes.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

namespace nqueens::detail {

// The orbit of (m, N) is {(m, N), (m, R), (m', N'), (m', R')}: R the other
// columns (the flip), ' the mirror. Pairs compare by middle, then set.
std::uint8_t class_weight(int n, int middle, std::uint32_t north) noexcept {
  const std::uint32_t rest = south_columns_of(n, north, middle);
  const int mirrored_middle = middle >= 0 ? n - 1 - middle : -1;
  if (middle > mirrored_middle || rest < north) return 0;
  const std::uint8_t flip = rest != north ? 2 : 1;
  if (middle < mirrored_middle) return 2 * flip;  // the mirror moves the middle queen: twice as many
  const std::uint32_t mirrored = reverse_low_bits(north, n), mirrored_rest = reverse_low_bits(rest, n);
  if (mirrored < north || mirrored_rest < north) return 0;
  const bool mirror_fixes = mirrored == north || mirrored == rest;  // the orbit folds in two
  return mirror_fixes ? flip : static_cast<std::uint8_t>(2 * flip);
}

column_classes::column_classes(int n) : n_(n) {
  if (n < 1 || n > 32) throw std::invalid_argument("column classes need 1 <= n <= 32");
  const int h = n / 2;
  // Middle columns past the centre lead no class (their mirror is smaller).
  const int last_middle = n % 2 == 0 ? -1 : (n - 1) / 2;
  for (int middle = n % 2 == 0 ? -1 : 0; middle <= last_middle; ++middle) {
    const std::uint64_t sets = binomial(middle >= 0 ? n - 1 : n, h);
    for (std::uint64_t first = 0; first < sets; first += block_size) {
      blocks_.push_back({0, first, std::min(block_size, sets - first), middle});
    }
  }
  blocks_.shrink_to_fit();
  std::vector<std::uint64_t> classes(blocks_.size());
  tbb::parallel_for(std::size_t{0}, blocks_.size(), [&](std::size_t k) {
    std::uint64_t found = 0;
    walk(blocks_[k], [&](const column_class&) {
      ++found;
      return true;
    });
    classes[k] = found;
  });
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    blocks_[k].classes_before = size_;
    size_ += classes[k];
  }
}

column_class column_classes::at(std::size_t rank) const {
  // The last block starting at or before `rank`, then the class within it.
  const auto it = std::upper_bound(blocks_.begin(), blocks_.end(), rank,
                                   [](std::size_t r, const block& b) { return r < b.classes_before; });
  const block& b = *(it - 1);
  std::uint64_t skip = rank - b.classes_before;
  column_class found;
  walk(b, [&](const column_class& c) {
    if (skip-- != 0) return true;
    found = c;
    return false;
  });
  return found;
}

}  // namespace nqueens::detail
