#include "engines/quadrant/quadrant_kernels.hpp"

#include "isa/implementation.hpp"

namespace nqueens::detail {

// The tables themselves are defined by quadrant_kernel_<isa>.cpp, one per
// compiled set, and listed in isa/implementation.cpp.
const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept { return *implementation_for(kernels).quadrant; }

}  // namespace nqueens::detail
