// The backtracking search for any x86-64: the scalar nest of loops.
#include "isa/portable.hpp"
#define NQUEENS_SEARCH scalar
#define NQUEENS_SEARCH_IS_BATCHED 0
#include "kernels/search_for_isa.inc"
