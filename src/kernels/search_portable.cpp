// The backtracking search for any x86-64: the scalar nest of loops.
#define NQUEENS_ISA portable
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_BASELINE
#define NQUEENS_SEARCH scalar
#define NQUEENS_SEARCH_IS_BATCHED 0
#include "kernels/search_for_isa.inc"
