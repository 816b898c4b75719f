// The backtracking search for AVX-512 CPUs: the lane-parallel search (8
// lanes, as for AVX2) with AVX-512's encodings and registers.
#define NQUEENS_ISA avx512
#define NQUEENS_ISA_TARGET NQUEENS_TARGET_AVX512
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
