#pragma once

// cxxopts, with every operand whole. cxxopts splits each value of a vector
// option at CXXOPTS_VECTOR_DELIMITER (',' unless set): the board size "8,"
// was read as 8 and `merge a,b.json` as two files. Here no character of an
// argument splits it; every file includes cxxopts through this header, so
// that all of them parse alike (the macro changes inline code).

#if defined(CXXOPTS_HPP_INCLUDED) && !defined(NQUEENS_WHOLE_OPERANDS)
#error "include cli/whole_operands.hpp, not <cxxopts.hpp>: every file must split operands alike"
#endif
#define NQUEENS_WHOLE_OPERANDS
#define CXXOPTS_VECTOR_DELIMITER '\0'

#include <cxxopts.hpp>
