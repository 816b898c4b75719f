// Instantiates the backtracking searches for one instruction set. A
// search_<isa>.cpp defines NQUEENS_ISA (the namespace), NQUEENS_ISA_TARGET
// (see target.hpp), NQUEENS_SEARCH (scalar or batched) and, for batched,
// NQUEENS_SEARCH_IS_BATCHED 1, then includes this
// file once. The result is <isa>_search_kernels.

#include <immintrin.h>

#include <array>
#include <bit>
#include <span>
#include <utility>

#include "kernels/backtrack.hpp"
#include "kernels/bits.hpp"
#include "kernels/rotation.hpp"
#include "kernels/target.hpp"

#define NQUEENS_CONCAT_(a, b) a##b
#define NQUEENS_CONCAT(a, b) NQUEENS_CONCAT_(a, b)

NQUEENS_ISA_TARGET
namespace nqueens::detail::NQUEENS_ISA {
#if NQUEENS_SEARCH_IS_BATCHED  // it needs AVX2's permutes
#include "kernels/search_batched.inc"
#else
#include "kernels/search_scalar.inc"
#endif
#include "kernels/search_rotation.inc"
}  // namespace nqueens::detail::NQUEENS_ISA
NQUEENS_TARGET_END

namespace nqueens::detail {
extern const search_kernels NQUEENS_CONCAT(NQUEENS_ISA, _search_kernels) = {
    &NQUEENS_ISA::NQUEENS_CONCAT(count_, NQUEENS_SEARCH), &NQUEENS_ISA::NQUEENS_CONCAT(visit_, NQUEENS_SEARCH),
    &NQUEENS_ISA::count_half_turn, &NQUEENS_ISA::count_quarter_turn};
}  // namespace nqueens::detail
