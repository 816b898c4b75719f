// The backtracking search for AVX2 CPUs: the lane-parallel search.

#include <immintrin.h>

#include <array>
#include <bit>
#include <span>

#include "kernels/backtrack.hpp"
#include "kernels/target.hpp"

NQUEENS_TARGET_AVX2
namespace nqueens::detail::avx2 {
#include "kernels/search_batched.inc"
}  // namespace nqueens::detail::avx2
NQUEENS_TARGET_END

namespace nqueens::detail {
extern const search_kernels avx2_search_kernels = {&avx2::count_batched, &avx2::visit_batched};
}  // namespace nqueens::detail
