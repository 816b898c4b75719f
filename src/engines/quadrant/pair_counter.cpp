#include "engines/quadrant/pair_counter.hpp"

#include "engines/quadrant/quadrant_kernels.hpp"
#include "isa/implementation.hpp"

namespace nqueens::detail {

std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& scratch, isa kernels) {
  return quadrant_kernels_for(kernels).count_pairs(north, south, scratch);
}

}  // namespace nqueens::detail
