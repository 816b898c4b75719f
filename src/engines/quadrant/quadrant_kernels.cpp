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

// By implementation, filled by name (isa/implementation.hpp).
constexpr kernel_table<quadrant_kernels> by_implementation =
    kernel_table<quadrant_kernels>{}
        .put("portable", portable_quadrant_kernels)
        .put("avx2", avx2_quadrant_kernels)
        .put("avx512", avx512_quadrant_kernels)
        .put("avx512+vpopcntdq", avx512_vpopcntdq_quadrant_kernels);
static_assert(by_implementation.complete(), "a table entry per implementation");

}  // namespace

const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept { return by_implementation[i.index]; }

const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept {
  return quadrant_kernels_of(implementation_for(kernels));
}

}  // namespace nqueens::detail
