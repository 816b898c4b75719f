#include "engines/quadrant/quadrant_kernels.hpp"

#include <algorithm>
#include <array>

#include "isa/implementation.hpp"

namespace nqueens::detail {

// Defined by quadrant_kernel_<isa>.cpp, one per compiled set.
extern const quadrant_kernels portable_quadrant_kernels;
extern const quadrant_kernels avx2_quadrant_kernels;
extern const quadrant_kernels avx512_quadrant_kernels;
extern const quadrant_kernels avx512_vpopcntdq_quadrant_kernels;

namespace {

// By implementation index, filled by name (isa/implementation.hpp).
constexpr std::array<const quadrant_kernels*, implementation_count> by_implementation = [] {
  std::array<const quadrant_kernels*, implementation_count> t{};
  t[implementation_index("portable")] = &portable_quadrant_kernels;
  t[implementation_index("avx2")] = &avx2_quadrant_kernels;
  t[implementation_index("avx512")] = &avx512_quadrant_kernels;
  t[implementation_index("avx512+vpopcntdq")] = &avx512_vpopcntdq_quadrant_kernels;
  return t;
}();
static_assert(std::ranges::none_of(by_implementation, [](const quadrant_kernels* k) { return k == nullptr; }),
              "a table entry per implementation");

}  // namespace

const quadrant_kernels& quadrant_kernels_of(const implementation& i) noexcept { return *by_implementation[i.index]; }

const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept {
  return quadrant_kernels_of(implementation_for(kernels));
}

}  // namespace nqueens::detail
