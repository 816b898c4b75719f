// The backtracking search for AVX-512 CPUs: the lane-parallel search (8
// lanes, as for AVX2) with AVX-512's encodings and registers.
#include "isa/avx512.hpp"
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
