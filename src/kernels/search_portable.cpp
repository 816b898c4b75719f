// The backtracking search for any x86-64: the scalar nest of loops.

#include <array>
#include <bit>
#include <span>
#include <utility>

#include "kernels/backtrack.hpp"
#include "kernels/bits.hpp"

namespace nqueens::detail {
namespace portable {
#include "kernels/search_scalar.inc"
}  // namespace portable

extern const search_kernels portable_search_kernels = {&portable::count_scalar, &portable::visit_scalar};

}  // namespace nqueens::detail
