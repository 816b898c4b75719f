#include "engines/quadrant/quadrant_kernels.hpp"

#include <array>

#include "isa/implementation.hpp"

namespace nqueens::detail {

// Defined by quadrant_kernel_<id>.cpp, one per implementation
// (isa/implementation.hpp).
#define NQUEENS_DECLARE_KERNELS(id, name, kernels) extern const quadrant_kernels id##_quadrant_kernels;
NQUEENS_EACH_IMPLEMENTATION(NQUEENS_DECLARE_KERNELS)
#undef NQUEENS_DECLARE_KERNELS

namespace {

// By implementation: the list expanded.
#define NQUEENS_PUT_KERNELS(id, name, kernels) .put(name, id##_quadrant_kernels)
// clang-format off
constexpr kernel_table<quadrant_kernels> by_implementation =
    kernel_table<quadrant_kernels>{} NQUEENS_EACH_IMPLEMENTATION(NQUEENS_PUT_KERNELS);
// clang-format on
#undef NQUEENS_PUT_KERNELS
static_assert(by_implementation.complete(), "a table entry per implementation");

}  // namespace

const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept { return by_implementation[i.index]; }

const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept {
  return quadrant_kernels_of(implementation_for(kernels));
}

}  // namespace nqueens::detail
