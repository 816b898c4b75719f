// The backtracking search for AVX-512 CPUs (the AVX2 lanes, with AVX-512's encodings and registers): the lane-parallel search.

#include <immintrin.h>

#include <array>
#include <bit>
#include <span>

#include "kernels/backtrack.hpp"
#include "kernels/target.hpp"

NQUEENS_TARGET_AVX512
namespace nqueens::detail::avx512 {
#include "kernels/search_batched.inc"
}  // namespace nqueens::detail::avx512
NQUEENS_TARGET_END

namespace nqueens::detail {
extern const search_kernels avx512_search_kernels = {&avx512::count_batched, &avx512::visit_batched};
}  // namespace nqueens::detail
