#pragma once

// Lane-parallel counting search (AVX2): the same tree as the scalar kernel,
// expanded a batch of nodes at a time, 8 nodes per vector.

#include <cstdint>

#include "kernel/backtrack.hpp"

namespace nqueens::detail {

/// True when this build has the AVX2 batched search (compiled with -mavx2 or
/// -march=native on an AVX2 machine).
bool has_batched_search() noexcept;

/// Same result as count_completions' scalar search. Allocates nothing: the
/// per-row batches are one thread-local set (about 133 KB).
/// Precondition: has_batched_search().
std::uint64_t count_completions_batched(int n, const search_start& start) noexcept;

/// Same result as visit_completions' scalar search: calls `leaf` with every
/// completion's queens and sums what it returns. Precondition: has_batched_search().
std::uint64_t visit_completions_batched(int n, const search_start& start, leaf_fn leaf, void* context) noexcept;

}  // namespace nqueens::detail
