// The backtracking search for AVX2 CPUs: the lane-parallel search.
#include "isa/avx2.hpp"
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
