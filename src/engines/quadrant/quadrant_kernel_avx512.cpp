// The quadrant kernels for AVX-512 CPUs without VPOPCNTDQ (Skylake-X, Cascade Lake).
#include "isa/avx512.hpp"
// After the set's header: the kernels read its macros.
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
