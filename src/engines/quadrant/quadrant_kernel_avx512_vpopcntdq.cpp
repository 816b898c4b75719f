// The quadrant kernels for AVX-512 CPUs with VPOPCNTDQ, VBMI and GFNI (Ice
// Lake, Zen 4 and later): vpopcntq counts, byte shuffles transpose.
#include "isa/avx512_vpopcntdq.hpp"
// After the set's header: the kernels read its macros.
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
