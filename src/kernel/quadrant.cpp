#include "kernel/quadrant.hpp"

#include <sys/mman.h>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <cstdlib>
#include <new>

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "bits.hpp"

namespace nqueens::detail {

namespace {

// Placements of rows 0..k-1 on an n-board, one queen per row, none attacked:
// the sizes of the half boards, measured once with a plain enumeration for
// k = n/2 and n - n/2. Used only to size memory before any is allocated.
struct tabled_count {
  int n;
  int k;
  std::uint64_t placements;
};
constexpr tabled_count tabled_placements[] = {
    {1, 0, 1},           {1, 1, 1},           {2, 1, 2},           {3, 1, 3},           {3, 2, 2},
    {4, 2, 6},           {5, 2, 12},          {5, 3, 14},          {6, 3, 36},          {7, 3, 76},
    {7, 4, 140},         {8, 4, 344},         {9, 4, 732},         {9, 5, 1614},        {10, 5, 3916},
    {11, 5, 8492},       {11, 6, 21362},      {12, 6, 52856},      {13, 6, 117694},     {13, 7, 335010},
    {14, 7, 835056},     {15, 7, 1897702},    {15, 8, 6120136},    {16, 8, 15324708},   {17, 8, 35312064},
    {17, 9, 127045452},  {18, 9, 318853768},  {19, 9, 742665978},  {19, 10, 2947934688}, {20, 10, 7415187482},
};

// Tabled, or extrapolated beyond the table: each two rows more multiply the
// count by a factor that itself grows by about 2.5 (15.8, 18.4, 20.8, 23.3
// for even n up to 20).
double half_placements(int n, int k) noexcept {
  for (const tabled_count& t : tabled_placements) {
    if (t.n == n && t.k == k) return static_cast<double>(t.placements);
  }
  const double last = half_placements(n - 2, k - 1);
  const double before = half_placements(n - 4, k - 2);
  return last * (last / before + 2.5);
}

// Calls leaf(columns, left, right) for every placement of `rows` more rows.
template <typename Leaf>
void enumerate_rows(int rows, std::uint32_t full, std::uint32_t columns, std::uint32_t left, std::uint32_t right,
                    Leaf& leaf) {
  std::uint32_t free = full & ~(columns | left | right);
  if (rows == 1) {  // the last row: emit directly (most nodes are here)
    for (; free != 0; free = clear_lowest_bit(free)) {
      const std::uint32_t bit = lowest_bit(free);
      leaf(columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return;
  }
  for (; free != 0; free = clear_lowest_bit(free)) {
    const std::uint32_t bit = lowest_bit(free);
    enumerate_rows(rows - 1, full, columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1, leaf);
  }
}

// Most blocks enumerate_in_blocks splits the work into: each keeps a counter
// per column set (8 bytes x 2^n), so the count is capped for large n too.
constexpr std::size_t max_blocks = 32;
constexpr std::size_t max_block_table_bytes = std::size_t{1} << 28;

std::size_t block_count(int n, int threads) noexcept {
  const std::size_t by_memory = std::max<std::size_t>(1, max_block_table_bytes / (sizeof(std::uint64_t) << n));
  return std::min({max_blocks, static_cast<std::size_t>(std::max(1, 4 * threads)), by_memory});
}

// Runs leaf(block, columns, left, right) over every placement of `rows` rows,
// in parallel: the placements of the first two rows are cut into `blocks`
// runs, one task each, so that per-block counters need no atomics (a locked
// add per placement cost about a tenth of the build). The same n, rows and
// blocks always send a placement to the same block, in the same order.
template <typename Leaf>
void enumerate_in_blocks(int n, int rows, std::size_t blocks, const Leaf& leaf) {
  const std::uint32_t full = low_bits(n);
  struct start {
    std::uint32_t columns, left, right;
  };
  std::vector<start> starts;
  if (rows <= 2) {
    starts.push_back({0, 0, 0});
  } else {
    for (int c0 = 0; c0 < n; ++c0) {
      const std::uint32_t b0 = std::uint32_t{1} << c0;
      const std::uint32_t l0 = (b0 << 1) & full, r0 = b0 >> 1;
      for (std::uint32_t free = full & ~(b0 | l0 | r0); free != 0; free = clear_lowest_bit(free)) {
        const std::uint32_t b1 = lowest_bit(free);
        starts.push_back({b0 | b1, ((l0 | b1) << 1) & full, (r0 | b1) >> 1});
      }
    }
  }
  const int start_rows = rows <= 2 ? 0 : 2;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, blocks, 1),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t block = range.begin(); block != range.end(); ++block) {
          auto local = [&leaf, block](std::uint32_t columns, std::uint32_t left, std::uint32_t right) {
            leaf(block, columns, left, right);
          };
          const std::size_t first = starts.size() * block / blocks, last = starts.size() * (block + 1) / blocks;
          for (std::size_t i = first; i < last; ++i) {
            if (rows == start_rows) {
              local(starts[i].columns, starts[i].left, starts[i].right);
            } else {
              enumerate_rows(rows - start_rows, full, starts[i].columns, starts[i].left, starts[i].right, local);
            }
          }
        }
      },
      tbb::simple_partitioner());
}

// The second pass writes each placement to a random group: with 4 KiB pages
// nearly every write also misses the TLB. 2 MiB pages (where transparent huge
// pages are enabled for madvise) made that pass 3x faster at n = 18.
auto allocate_masks(std::size_t count) {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t bytes = std::max<std::size_t>((count * sizeof(std::uint64_t) + huge_page - 1) / huge_page, 1) * huge_page;
  auto* p = static_cast<std::uint64_t*>(std::aligned_alloc(huge_page, bytes));
  if (p == nullptr) throw std::bad_alloc();
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure just means small pages
  return std::unique_ptr<std::uint64_t[], free_deleter>(p);
}


}  // namespace

half_board_index::half_board_index(const plan& p) : n_(p.board_size()), plan_fingerprint_(p.fingerprint()) {
  const int n = n_;
  const std::uint32_t full = low_bits(n);
  const std::size_t sets = std::size_t{1} << n;
  // Which column sets are kept, and as what: 1 = as north halves (sorted),
  // 2 = as south halves (stored as south_mask). For odd n every kept set
  // serves both ways and is stored as north_mask (see solve_quadrant).
  std::vector<std::uint8_t> role(sets, 0);
  const int half = n / 2;
  for (const subproblem& s : p.subproblems()) {
    role[s.north_columns] = 1;
    const std::uint32_t rest = full & ~s.north_columns;
    if (n % 2 == 0) {
      role[rest] = 2;
    } else {
      role[rest & ~(std::uint32_t{1} << s.columns[static_cast<std::size_t>(half)])] = 1;
    }
  }
  offsets_.assign(sets + 1, 0);

  // Pass 1 counts each kept group per block, pass 2 writes it: two
  // enumerations cost less than holding every placement twice.
  const std::size_t blocks = block_count(n, tbb::this_task_arena::max_concurrency());
  const auto run_pass = [&](auto&& on_kept) {
    const auto leaf = [&](std::size_t block, std::uint32_t columns, std::uint32_t left, std::uint32_t right) {
      const std::uint8_t r = role[columns];
      if (r != 0) on_kept(block, columns, r == 1 ? north_mask(left, right) : south_mask(left, right, full));
    };
    enumerate_in_blocks(n, half, blocks, leaf);
  };
  // cursor[block * sets + c]: first the block's count for set c, then where
  // its next member of group c goes.
  std::vector<std::uint64_t> cursor(blocks * sets, 0);
  run_pass([&](std::size_t block, std::uint32_t columns, std::uint64_t) { ++cursor[block * sets + columns]; });
  std::uint64_t sum = 0;
  for (std::size_t c = 0; c < sets; ++c) {
    offsets_[c] = sum;
    for (std::size_t block = 0; block < blocks; ++block) {
      const std::uint64_t size = cursor[block * sets + c];
      cursor[block * sets + c] = sum;
      sum += size;
    }
  }
  offsets_[sets] = sum;
  masks_ = allocate_masks(sum);
  mask_count_ = sum;
  std::uint64_t* const masks = masks_.get();
  run_pass([&](std::size_t block, std::uint32_t columns, std::uint64_t mask) {
    masks[cursor[block * sets + columns]++] = mask;
  });
  cursor = {};
  // North groups in decreasing order (count_disjoint_pairs shares prefixes
  // of their high bits); the order also makes slices deterministic.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sets, 256), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t c = range.begin(); c != range.end(); ++c) {
      if (role[c] == 1) std::sort(masks + offsets_[c], masks + offsets_[c + 1], std::greater<>());
    }
  });
}

std::size_t half_board_index::bytes() const noexcept {
  return (offsets_.capacity() + mask_count_) * sizeof(std::uint64_t);
}

void free_deleter::operator()(std::uint64_t* p) const noexcept { std::free(p); }

std::uint64_t half_board_index_bytes(int n) noexcept {
  // Even n: about half the column sets are kept (a canonical set and its
  // complement per class). Odd n: nearly all, once. 10% margin for uneven groups.
  const double kept = n % 2 == 0 ? half_placements(n, n / 2) / 2 : half_placements(n, n / 2);
  const double sets = static_cast<double>(std::uint64_t{1} << n);
  const double tables = 8.0 * sets + sets +  // offsets, roles
                        std::min(static_cast<double>(max_blocks) * 8.0 * sets, static_cast<double>(max_block_table_bytes));
  const double bytes = 1.1 * 8.0 * kept + tables;
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

namespace {
std::mutex cache_mutex;
std::shared_ptr<const half_board_index> cached;  // guarded by cache_mutex
}  // namespace

void release_shared_half_board_index() noexcept {
  const std::lock_guard lock(cache_mutex);
  cached.reset();
}

std::shared_ptr<const half_board_index> shared_half_board_index(const plan& p) {
  const std::lock_guard lock(cache_mutex);
  // The tables depend only on n: every quadrant plan for n lists the same
  // classes, whatever its slices.
  if (cached == nullptr || cached->board_size() != p.board_size()) {
    cached.reset();  // free the old tables before building new ones
    cached = std::make_shared<const half_board_index>(p);
  }
  return cached;
}

namespace {

// out = x & y, `words` words.
inline void and_into(std::uint64_t* out, const std::uint64_t* x, const std::uint64_t* y, std::size_t words) noexcept {
  std::size_t q = 0;
#if defined(__AVX512F__)
  for (; q + 8 <= words; q += 8) {
    _mm512_storeu_si512(out + q, _mm512_and_si512(_mm512_loadu_si512(x + q), _mm512_loadu_si512(y + q)));
  }
#endif
  for (; q < words; ++q) out[q] = x[q] & y[q];
}

// popcount(x & y) (or of x alone, y == nullptr) over `words` words. Without AVX-512 VPOPCNTDQ (absent on the machine this was
// tuned on), a nibble lookup with vpshufb and a sum of bytes with vpsadbw
// counts 8 words in 7 instructions: 2x faster than the scalar popcnt loop.
template <bool WithY>
inline std::uint64_t popcount_and(const std::uint64_t* x, const std::uint64_t* y, std::size_t words) noexcept {
  std::uint64_t total = 0;
  std::size_t q = 0;
#if defined(__AVX512BW__)
  const __m512i nibble_counts = _mm512_set_epi64(0x0403030203020201, 0x0302020102010100, 0x0403030203020201,
                                                 0x0302020102010100, 0x0403030203020201, 0x0302020102010100,
                                                 0x0403030203020201, 0x0302020102010100);
  const __m512i low_nibbles = _mm512_set1_epi8(0x0F);
  __m512i sums = _mm512_setzero_si512();
  for (; q + 8 <= words; q += 8) {
    __m512i v = _mm512_loadu_si512(x + q);
    if constexpr (WithY) v = _mm512_and_si512(v, _mm512_loadu_si512(y + q));
    const __m512i low = _mm512_and_si512(v, low_nibbles);
    const __m512i high = _mm512_and_si512(_mm512_srli_epi16(v, 4), low_nibbles);
    const __m512i bytes = _mm512_add_epi8(_mm512_shuffle_epi8(nibble_counts, low), _mm512_shuffle_epi8(nibble_counts, high));
    sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, _mm512_setzero_si512()));
  }
  alignas(64) std::uint64_t lanes[8];
  _mm512_store_si512(lanes, sums);
  for (const std::uint64_t lane : lanes) total += lane;
#endif
  for (; q < words; ++q) {
    std::uint64_t v = x[q];
    if constexpr (WithY) v &= y[q];
    total += static_cast<std::uint64_t>(std::popcount(v));
  }
  return total;
}

}  // namespace

namespace {

// The sieve over `members` south masks given as rows: rows[i] (words each)
// has bit j set when member j lacks bit i. `north` sorted in decreasing order.
std::uint64_t sieve(std::span<const std::uint64_t> north, const std::uint64_t* rows, std::size_t members,
                    std::vector<std::uint64_t>& partial_buffer) {
  const std::size_t words = (members + 63) / 64;
  const std::uint64_t tail = members % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (members % 64)) - 1;
  // partial row d: the AND of the rows of the d highest bits of the current
  // north mask; row 0 is every south mask. The last bit of each mask is
  // ANDed and counted in one pass, never stored: `stored` says how many
  // rows hold the previous mask's prefix.
  if (partial_buffer.size() < 65 * words) partial_buffer.resize(65 * words);
  std::uint64_t* const partial = partial_buffer.data();
  std::fill(partial, partial + words, ~std::uint64_t{0});
  partial[words - 1] = tail;

  std::uint64_t total = 0;
  int stored = 0;  // rows holding a prefix of the previous mask
  for (std::size_t i = 0; i < north.size(); ++i) {
    const std::uint64_t a = north[i];
    int depth = 0;
    if (i > 0) {  // rows shared with the previous mask: as many as its high bits in common
      const std::uint64_t differ = a ^ north[i - 1];
      const int top = 63 - std::countl_zero(differ | 1);
      depth = std::min(differ == 0 ? std::popcount(a) : top == 63 ? 0 : std::popcount(a >> (top + 1)), stored);
    }
    std::uint64_t rest = a;  // the bits below the first `depth` (highest) ones
    for (int k = 0; k < depth; ++k) rest &= ~(std::uint64_t{1} << (63 - std::countl_zero(rest)));
    const std::uint64_t* current = partial + static_cast<std::size_t>(depth) * words;
    // Every bit but the last is ANDed into a stored row (the next masks may
    // share it); the last is ANDed and counted in one pass. (Fusing all the
    // unshared bits into that pass measured no faster.)
    while (std::popcount(rest) > 1) {
      const int bit = 63 - std::countl_zero(rest);
      rest &= ~(std::uint64_t{1} << bit);
      std::uint64_t* next = partial + static_cast<std::size_t>(depth + 1) * words;
      and_into(next, current, rows + static_cast<std::size_t>(bit) * words, words);
      current = next;
      ++depth;
    }
    stored = depth;
    total += rest == 0 ? popcount_and<false>(current, nullptr, words)
                       : popcount_and<true>(current, rows + static_cast<std::size_t>(std::countr_zero(rest)) * words,
                                            words);
  }
  return total;
}

// The bits of `value` at the positions set in `keep`, packed low (pext).
inline std::uint64_t extract_bits(std::uint64_t value, std::uint64_t keep) noexcept {
#if defined(__BMI2__)
  return _pext_u64(value, keep);
#else
  std::uint64_t out = 0;
  int k = 0;
  for (; keep != 0; keep &= keep - 1, ++k) out |= ((value >> std::countr_zero(keep)) & 1U) << k;
  return out;
#endif
}

// out row i (for each bit i of `bits`): row i of `rows` with only the members
// kept by `keep`, packed. out must hold 64 rows of out_words words.
void compact_rows(const std::uint64_t* rows, std::size_t words, const std::uint64_t* keep, std::uint64_t bits,
                  std::uint64_t* out, std::size_t out_words) {
  for (; bits != 0; bits &= bits - 1) {
    const auto i = static_cast<std::size_t>(std::countr_zero(bits));
    const std::uint64_t* in = rows + i * words;
    std::uint64_t* o = out + i * out_words;
    std::fill(o, o + out_words, 0);
    std::size_t position = 0;
    for (std::size_t q = 0; q < words; ++q) {
      if (keep[q] == 0) continue;
      const std::uint64_t packed = extract_bits(in[q], keep[q]);
      const std::size_t shift = position % 64;
      o[position / 64] |= packed << shift;
      const auto count = static_cast<std::size_t>(std::popcount(keep[q]));
      if (shift + count > 64) o[position / 64 + 1] |= packed >> (64 - shift);
      position += count;
    }
  }
}

// Runs of north masks sharing their highest bit t meet only the south masks
// without t: below `levels` more splits, a long enough run gets the south
// rows compacted to those members (fewer words for every AND that follows)
// and recurses with t removed. Short runs and the last level use the sieve.
constexpr std::size_t min_compacted_run = 128;

std::uint64_t split_and_sieve(std::span<const std::uint64_t> north, const std::uint64_t* rows, std::size_t members,
                              int levels, pair_scratch& scratch) {
  if (levels == 0 || north.size() < min_compacted_run || members < 512) {
    return sieve(north, rows, members, scratch.partial);
  }
  const std::size_t words = (members + 63) / 64;
  auto& level = scratch.levels[static_cast<std::size_t>(levels - 1)];
  std::uint64_t total = 0;
  std::size_t i = 0;
  while (i < north.size()) {
    const std::uint64_t first = north[i];
    if (first == 0) {  // sorted: the rest are empty masks too, and fit every member
      total += static_cast<std::uint64_t>(north.size() - i) * members;
      break;
    }
    const int t = 63 - std::countl_zero(first);
    std::size_t j = i;
    std::uint64_t used = 0;
    while (j < north.size() && (north[j] >> t) == 1) used |= north[j++];
    const std::span<const std::uint64_t> run = north.subspan(i, j - i);
    const std::uint64_t* keep = rows + static_cast<std::size_t>(t) * words;
    const std::size_t kept = static_cast<std::size_t>(popcount_and<false>(keep, nullptr, words));
    if (run.size() < min_compacted_run || kept == 0) {
      total += kept == 0 ? 0 : sieve(run, rows, members, scratch.partial);
    } else {
      const std::size_t kept_words = (kept + 63) / 64;
      level.rows.resize(64 * kept_words);
      const std::uint64_t rest_bits = used & ~(std::uint64_t{1} << t);
      compact_rows(rows, words, keep, rest_bits, level.rows.data(), kept_words);
      level.masks.assign(run.begin(), run.end());
      for (std::uint64_t& a : level.masks) a &= ~(std::uint64_t{1} << t);  // still in decreasing order
      total += split_and_sieve(level.masks, level.rows.data(), kept, levels - 1, scratch);
    }
    i = j;
  }
  return total;
}

}  // namespace

std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& scratch) {
  if (north.empty() || south.empty()) return 0;
  const std::size_t words = (south.size() + 63) / 64;
  const std::uint64_t tail = south.size() % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (south.size() % 64)) - 1;
  std::uint64_t used = 0;
  for (const std::uint64_t a : north) used |= a;
  // free_of row i: bit j set when south[j] lacks bit i.
  scratch.free_of.resize(64 * words);
  std::uint64_t* const free_of = scratch.free_of.data();
  for (std::uint64_t bits = used; bits != 0; bits &= bits - 1) {
    std::uint64_t* row = free_of + static_cast<std::size_t>(std::countr_zero(bits)) * words;
    std::fill(row, row + words, ~std::uint64_t{0});
    row[words - 1] = tail;
  }
  for (std::size_t j = 0; j < south.size(); ++j) {
    const std::uint64_t clear = ~(std::uint64_t{1} << (j % 64));
    for (std::uint64_t bits = south[j] & used; bits != 0; bits &= bits - 1) {
      free_of[static_cast<std::size_t>(std::countr_zero(bits)) * words + j / 64] &= clear;
    }
  }
  return split_and_sieve(north, free_of, south.size(), static_cast<int>(scratch.levels.size()), scratch);
}

std::uint64_t solve_quadrant(const half_board_index& index, const subproblem& s, int slices, pair_scratch& scratch) {
  const int n = index.board_size();
  const std::uint32_t full = low_bits(n);
  std::span<const std::uint64_t> north = index.group(s.north_columns);
  std::span<const std::uint64_t> south;
  if (n % 2 == 0) {
    south = index.group(full & ~s.north_columns);
  } else {
    // The middle queen's column is neither half's; both halves' diagonals
    // must miss it, and a stored north half serves as a south half turned
    // upside down: its left and right masks swap (a rotation by 32).
    const int middle = s.columns[static_cast<std::size_t>(n / 2)];
    const std::uint64_t queen = north_mask(std::uint32_t{1} << middle, std::uint32_t{1} << middle);
    scratch.north.clear();
    for (const std::uint64_t a : north) {
      if ((a & queen) == 0) scratch.north.push_back(a);
    }
    scratch.south.clear();
    for (const std::uint64_t b : index.group(full & ~s.north_columns & ~(std::uint32_t{1} << middle))) {
      const std::uint64_t turned = std::rotl(b, 32);
      if ((turned & queen) == 0) scratch.south.push_back(turned);
    }
    north = scratch.north;
    south = scratch.south;
  }
  const std::size_t begin = north.size() * s.slice / static_cast<std::size_t>(slices);
  const std::size_t end = north.size() * (s.slice + 1U) / static_cast<std::size_t>(slices);
  const std::uint64_t pairs = count_disjoint_pairs(north.subspan(begin, end - begin), south, scratch);
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(pairs, std::uint64_t{s.weight}, &total)) {
    throw std::overflow_error("a quadrant subproblem has more than 2^64 solutions");
  }
  return total;
}

}  // namespace nqueens::detail
