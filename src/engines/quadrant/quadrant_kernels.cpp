#include "engines/quadrant/quadrant_kernels.hpp"

#include <array>

#include "isa/implementation.hpp"

namespace nqueens::detail {

// Defined by quadrant_kernel_<isa>.cpp, one per compiled set.
extern const quadrant_kernels portable_quadrant_kernels;
extern const quadrant_kernels avx2_quadrant_kernels;
extern const quadrant_kernels avx512_quadrant_kernels;
extern const quadrant_kernels avx512_vpopcntdq_quadrant_kernels;

namespace {

// By implementation index (isa/implementation.cpp's list).
constexpr std::array<const quadrant_kernels*, 4> by_implementation = {
    &portable_quadrant_kernels, &avx2_quadrant_kernels, &avx512_quadrant_kernels, &avx512_vpopcntdq_quadrant_kernels};
static_assert(by_implementation.size() == implementation_count, "one table per implementation");

}  // namespace

const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept { return *by_implementation[i.index]; }

const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept {
  return quadrant_kernels_of(implementation_for(kernels));
}

}  // namespace nqueens::detail
