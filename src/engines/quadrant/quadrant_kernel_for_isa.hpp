// Instantiates the quadrant kernels for one instruction set. A
// quadrant_kernel_<isa>.cpp defines NQUEENS_ISA (the namespace), the
// NQUEENS_HAS_* macros and NQUEENS_ISA_TARGET (see kernels/target.hpp), then
// includes this file once. The result is <isa>_quadrant_kernels.

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "engines/quadrant/quadrant.hpp"
#include "engines/quadrant/transposition.hpp"
#include "kernels/bits.hpp"
#include "kernels/subsets.hpp"
#include "kernels/target.hpp"

#pragma GCC diagnostic ignored "-Wpsabi"  // 64-byte vectors by value: all inlined in the kernel

#ifndef NQUEENS_HAS_AVX512
#define NQUEENS_HAS_AVX512 0
#endif
#ifndef NQUEENS_HAS_VPOPCNTDQ
#define NQUEENS_HAS_VPOPCNTDQ 0
#endif
#ifndef NQUEENS_HAS_AVX2
#define NQUEENS_HAS_AVX2 0
#endif
#ifndef NQUEENS_HAS_BMI2
#define NQUEENS_HAS_BMI2 0
#endif

#define NQUEENS_CONCAT_(a, b) a##b
#define NQUEENS_CONCAT(a, b) NQUEENS_CONCAT_(a, b)

NQUEENS_ISA_TARGET
namespace nqueens::detail::NQUEENS_ISA {
#include "engines/quadrant/quadrant_kernel.inc"
}  // namespace nqueens::detail::NQUEENS_ISA
NQUEENS_TARGET_END

namespace nqueens::detail {
extern const quadrant_kernels NQUEENS_CONCAT(NQUEENS_ISA, _quadrant_kernels) = {
    &NQUEENS_ISA::solve, &NQUEENS_ISA::north_halves, &NQUEENS_ISA::count_disjoint_pairs};
}  // namespace nqueens::detail
