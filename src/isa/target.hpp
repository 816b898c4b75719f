#pragma once

// Compiling one kernel source for several instruction sets in one binary.
// A per-ISA file includes what the kernel needs, then wraps the kernel source
// in NQUEENS_TARGET_OF(<id>) ... NQUEENS_TARGET_END and a namespace of its own:
// GCC compiles the functions *defined* in between for that instruction set
// (and may inline baseline helpers into them), while every function defined
// before, the standard library's templates included, stays baseline. This is
// why per-file -m flags are not used: an inline function compiled with AVX-512
// in one file could be the copy the linker keeps for every caller.
//
// GCC does not define __AVX2__ and friends inside such a region (C++), so the
// implementation's header (isa/<id>.hpp) says what its kernels may use
// instead: the NQUEENS_HAS_* macros, checked against its features
// (kernel_set.hpp).

// Two steps, so that a macro in `text` (a feature list) is expanded first.
#define NQUEENS_PRAGMA_(text) _Pragma(#text)
#define NQUEENS_PRAGMA(text) NQUEENS_PRAGMA_(text)

#include "isa/features.hpp"

// NQUEENS_CONCAT(avx2, _search_kernels): the name of one set's kernel table.
#define NQUEENS_CONCAT_(a, b) a##b
#define NQUEENS_CONCAT(a, b) NQUEENS_CONCAT_(a, b)

// The target region of the implementation `id`: its features'
// (NQUEENS_FEATURES_<id>); the empty list of `portable` is the baseline.
// Other processors build the portable kernels alone, and take no empty
// target (AArch64's GCC calls it malformed): no region there.
#if defined(__x86_64__) && defined(__clang__)
// Clang ignores GCC's target pragmas (the AVX kernels then fail to build):
// its attribute pragma gives each function declared in the region, lambdas
// included, the target attribute. An empty list it ignores with a warning,
// so the baseline's region names SSE2, which every x86-64 has: the second
// of NQUEENS_CLANG_BASELINE_<id>'s two words where an id defines it (by
// the preprocessor's probe idiom), else the id's features.
#define NQUEENS_CLANG_BASELINE_portable ~, "sse2"
#define NQUEENS_SECOND_(first, second, ...) second
#define NQUEENS_SECOND(...) NQUEENS_SECOND_(__VA_ARGS__)
#define NQUEENS_CLANG_FEATURES(id) \
  NQUEENS_SECOND(NQUEENS_CONCAT(NQUEENS_CLANG_BASELINE_, id), NQUEENS_CONCAT(NQUEENS_FEATURES_, id), ~)
#define NQUEENS_TARGET_OF(id) \
  NQUEENS_PRAGMA(clang attribute push(__attribute__((target(NQUEENS_CLANG_FEATURES(id)))), apply_to = function))
#define NQUEENS_TARGET_END NQUEENS_PRAGMA(clang attribute pop)
#elif defined(__x86_64__)
#define NQUEENS_TARGET_OF(id) \
  NQUEENS_PRAGMA(GCC push_options) NQUEENS_PRAGMA(GCC target(NQUEENS_CONCAT(NQUEENS_FEATURES_, id)))
#define NQUEENS_TARGET_END NQUEENS_PRAGMA(GCC pop_options)
#else
#define NQUEENS_TARGET_OF(id)
#define NQUEENS_TARGET_END
#endif
