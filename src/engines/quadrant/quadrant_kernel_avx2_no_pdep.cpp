// The quadrant kernels for AVX2 CPUs whose pdep and pext are slow (AMD Zen 1
// and 2): the shifts and masks in their place.
#include "isa/avx2_no_pdep.hpp"
// After the set's header: the kernels read its macros.
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
