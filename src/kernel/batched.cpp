#include "kernel/batched.hpp"

#include <array>
#include <bit>
#include <span>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace nqueens::detail {

#if defined(__AVX2__)

namespace {

// Why batches: the scalar search mispredicts about one branch per node (how
// many candidates a row has is data), which costs more than the node's
// arithmetic. Here a row's nodes are expanded 8 at a time: one loop step takes
// the lowest candidate of every lane, builds the 8 children, drops the dead
// ones (no candidate in the next row) and packs the live ones into the next
// row's batch. The only data-dependent branch is "does any lane still have a
// candidate". When a batch fills up it is searched (recursively, one call per
// row, depth <= 32) and emptied, so memory stays fixed.
constexpr int batch_capacity = 256;
constexpr int lanes = 8;

struct batch {
  alignas(32) std::array<std::uint32_t, batch_capacity + lanes> columns;
  alignas(32) std::array<std::uint32_t, batch_capacity + lanes> left;
  alignas(32) std::array<std::uint32_t, batch_capacity + lanes> right;
  // Index of each node's parent in the previous row's batch (recording only):
  // a completion's queens are read back along this chain.
  alignas(32) std::array<std::uint32_t, batch_capacity + lanes> parent;
  int size;
};

// compress_order[m] lists the lanes set in the 8-bit mask m, packed to the
// front: the permutation that moves a vector's live lanes together.
struct compress_table {
  alignas(32) std::array<std::array<std::uint32_t, lanes>, 256> order{};
  constexpr compress_table() {
    for (unsigned m = 0; m < 256; ++m) {
      int k = 0;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        if ((m >> lane & 1u) != 0) order[m][static_cast<std::size_t>(k++)] = lane;
      }
    }
  }
};
constexpr compress_table compress;

// Appends the lanes of v selected by `order` (a compress_table row) to dst.
// Writes a whole vector: dst needs `lanes` entries of room past the end.
inline void append(std::uint32_t* dst, __m256i v, __m256i order) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_permutevar8x32_epi32(v, order));
}

template <bool Recording>
struct search {
  const std::uint32_t* allowed;  // per row, indexed by row
  int last_row;                  // n - 1
  batch* batches;                // batches[row]: nodes whose next queen goes in `row`
  int first_row;                 // row of the single start node
  std::uint8_t* queens;          // recording: the subproblem's queens, completed per leaf
  leaf_fn leaf;
  void* context;

  // Writes the queens of rows first_row..row-1 of node `index` of batches[row].
  void read_back(int row, std::uint32_t index) const noexcept {
    for (int r = row; r > first_row; --r) {
      const batch& b = batches[r];
      const std::uint32_t up = b.parent[index];
      queens[r - 1] = static_cast<std::uint8_t>(std::countr_zero(b.columns[index] & ~batches[r - 1].columns[up]));
      index = up;
    }
  }

  // The completions found when expanding lanes `live` of the vector of
  // batches[row] starting at `base`: bit and next hold rows row and row + 1.
  std::uint64_t visit_leaves(int row, int base, unsigned live, __m256i bit, __m256i next) const noexcept {
    alignas(32) std::array<std::uint32_t, lanes> bits{}, nexts{};
    _mm256_store_si256(reinterpret_cast<__m256i*>(bits.data()), bit);
    _mm256_store_si256(reinterpret_cast<__m256i*>(nexts.data()), next);
    std::uint64_t sum = 0;
    for (; live != 0; live &= live - 1) {
      const int lane = std::countr_zero(live);
      read_back(row, static_cast<std::uint32_t>(base + lane));
      queens[row] = static_cast<std::uint8_t>(std::countr_zero(bits[static_cast<std::size_t>(lane)]));
      queens[row + 1] = static_cast<std::uint8_t>(std::countr_zero(nexts[static_cast<std::size_t>(lane)]));
      sum += leaf(std::span<const std::uint8_t>(queens, static_cast<std::size_t>(last_row + 1)), context);
    }
    return sum;
  }

  // Counts the completions of the nodes in batches[row]; row < last_row.
  std::uint64_t expand(int row) const noexcept {
    const batch& parents = batches[row];
    batch& children = batches[row + 1];
    children.size = 0;
    const bool children_are_last = row + 1 == last_row;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lane_index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i allowed_here = _mm256_set1_epi32(static_cast<int>(allowed[row]));
    const __m256i allowed_next = _mm256_set1_epi32(static_cast<int>(allowed[row + 1]));
    std::uint64_t count = 0;
    for (int i = 0; i < parents.size; i += lanes) {
      const auto at = [&](const auto& a) { return reinterpret_cast<const __m256i*>(a.data() + i); };
      const __m256i columns = _mm256_load_si256(at(parents.columns));
      const __m256i left = _mm256_load_si256(at(parents.left));
      const __m256i right = _mm256_load_si256(at(parents.right));
      const __m256i real = _mm256_cmpgt_epi32(_mm256_set1_epi32(parents.size - i), lane_index);
      __m256i free = _mm256_and_si256(
          _mm256_andnot_si256(_mm256_or_si256(columns, _mm256_or_si256(left, right)), allowed_here), real);
      while (!_mm256_testz_si256(free, free)) {
        const __m256i bit = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));  // lowest set bit
        free = _mm256_xor_si256(free, bit);
        const __m256i c = _mm256_or_si256(columns, bit);
        const __m256i l = _mm256_slli_epi32(_mm256_or_si256(left, bit), 1);
        const __m256i r = _mm256_srli_epi32(_mm256_or_si256(right, bit), 1);
        const __m256i next = _mm256_andnot_si256(_mm256_or_si256(c, _mm256_or_si256(l, r)), allowed_next);
        // A lane is live when it placed a queen and the next row still has a column.
        const __m256i dead = _mm256_or_si256(_mm256_cmpeq_epi32(next, zero), _mm256_cmpeq_epi32(bit, zero));
        const unsigned live = ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(dead))) & 0xFFu;
        if (children_are_last) {
          // One column is left for the last row, and it is free: a completion.
          if constexpr (Recording) {
            if (live != 0) count += visit_leaves(row, i, live, bit, next);
          } else {
            count += static_cast<unsigned>(std::popcount(live));
          }
          continue;
        }
        const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(compress.order[live].data()));
        append(children.columns.data() + children.size, c, order);
        append(children.left.data() + children.size, l, order);
        append(children.right.data() + children.size, r, order);
        if constexpr (Recording) {
          append(children.parent.data() + children.size,
                 _mm256_add_epi32(lane_index, _mm256_set1_epi32(i)), order);
        }
        children.size += std::popcount(live);
        if (children.size > batch_capacity - lanes) {
          count += expand(row + 1);
          children.size = 0;
        }
      }
    }
    if (!children_are_last && children.size > 0) count += expand(row + 1);
    return count;
  }
};

}  // namespace

bool has_batched_search() noexcept { return true; }

namespace {

// One set of batches per thread, zeroed once: lanes past a batch's size are
// read (and masked off), so they must hold defined values; no stack or heap
// churn per subproblem.
std::array<batch, max_board_size>& thread_batches() noexcept {
  thread_local std::array<batch, max_board_size> batches{};
  return batches;
}

template <bool Recording>
std::uint64_t run(int n, const search_start& start, leaf_fn leaf, void* context) noexcept {
  std::array<std::uint8_t, max_board_size> queens = start.queens;
  const int row = start.state.row;
  const std::uint32_t first = start.allowed[static_cast<std::size_t>(row)] &
                              ~(start.state.columns | start.state.left | start.state.right);
  auto& batches = thread_batches();
  batch& root = batches[static_cast<std::size_t>(row)];
  root.size = 1;
  root.columns[0] = start.state.columns;
  root.left[0] = start.state.left;
  root.right[0] = start.state.right;
  const search<Recording> s{start.allowed.data(), n - 1, batches.data(), row, queens.data(), leaf, context};
  if (row == n - 1) {  // only the last row is open: no expansion step
    if (first == 0) return 0;
    if constexpr (!Recording) return 1;
    queens[static_cast<std::size_t>(row)] = static_cast<std::uint8_t>(std::countr_zero(first));
    return leaf(std::span<const std::uint8_t>(queens.data(), static_cast<std::size_t>(n)), context);
  }
  return s.expand(row);
}

}  // namespace

std::uint64_t count_completions_batched(int n, const search_start& start) noexcept {
  if (start.state.row >= n) return 1;
  return run<false>(n, start, nullptr, nullptr);
}

std::uint64_t visit_completions_batched(int n, const search_start& start, leaf_fn leaf, void* context) noexcept {
  if (start.state.row >= n) {
    return leaf(std::span<const std::uint8_t>(start.queens.data(), static_cast<std::size_t>(n)), context);
  }
  return run<true>(n, start, leaf, context);
}

#else

bool has_batched_search() noexcept { return false; }
std::uint64_t count_completions_batched(int, const search_start&) noexcept { return 0; }
std::uint64_t visit_completions_batched(int, const search_start&, leaf_fn, void*) noexcept { return 0; }

#endif

}  // namespace nqueens::detail
