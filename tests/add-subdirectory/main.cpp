// The parent project's own program: run.cmake reads how it is compiled.

#include <nqueens/nqueens.hpp>

int main() { return nqueens::count(8).total == 92 ? 0 : 1; }
