#include "engines/quadrant/pair_counter.hpp"

#include "engines/quadrant/exact_growth.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "isa/implementation.hpp"

namespace nqueens::detail {

std::size_t pair_scratch::list_bytes() const noexcept {
  return held_bytes(entries) + held_bytes(south_sorted) + held_bytes(rows) + held_bytes(block_fixed) +
         held_bytes(block_sizes) + held_bytes(block_free);
}

void pair_scratch::release_lists() noexcept {
  std::vector<std::uint16_t>().swap(entries);
  std::vector<std::uint64_t>().swap(south_sorted);
  std::vector<block_bits>().swap(rows);
  std::vector<std::uint32_t>().swap(block_fixed);
  std::vector<std::uint32_t>().swap(block_sizes);
  std::vector<std::uint8_t>().swap(block_free);
}

std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& scratch, isa kernels) {
  return quadrant_kernels_for(kernels).count_pairs(north, south, scratch);
}

}  // namespace nqueens::detail
