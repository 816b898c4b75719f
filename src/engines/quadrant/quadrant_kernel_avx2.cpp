// The quadrant kernels for AVX2 + BMI2 CPUs.
#include "isa/avx2.hpp"
// After the set's header: the kernels read its macros.
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
