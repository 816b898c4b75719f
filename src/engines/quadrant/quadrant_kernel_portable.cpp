// The quadrant kernels for any x86-64: GCC's generic vectors lowered to SSE2.
#include "isa/portable.hpp"
// After the set's header: the kernels read its macros.
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
