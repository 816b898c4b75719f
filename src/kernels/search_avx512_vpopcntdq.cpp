// The backtracking search for AVX-512 CPUs with VPOPCNTDQ: the AVX-512
// search compiled for them (it uses no instruction of theirs, but every
// implementation has its kernels, so that the table is the list expanded).
#include "isa/avx512_vpopcntdq.hpp"
#define NQUEENS_SEARCH batched
#define NQUEENS_SEARCH_IS_BATCHED 1
#include "kernels/search_for_isa.inc"
