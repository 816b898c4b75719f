// The backtracking search for AVX2 CPUs whose pdep and pext are slow: the
// lane-parallel search, as search_avx2.cpp builds it.
#include "isa/avx2_no_pdep.hpp"
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
