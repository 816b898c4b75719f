// The quadrant kernels for any x86-64: GCC's generic vectors lowered to SSE2.
#define NQUEENS_ISA portable
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_BASELINE
#include "engines/quadrant/quadrant_kernel_for_isa.inc"
