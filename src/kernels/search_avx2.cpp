// The backtracking search for AVX2 CPUs: the lane-parallel search.
#define NQUEENS_ISA avx2
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX2
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
