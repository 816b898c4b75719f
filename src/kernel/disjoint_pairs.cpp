#include "kernel/disjoint_pairs.hpp"

// How the count works (a bit-sliced join):
//
// 1. Only bits set in some north AND some south mask can make a pair
//    collide; the others are dropped. The remaining bits are cut into
//    digits: a first digit of up to 6 bits that partitions both lists, and
//    digits of up to 6 bits for the rest.
// 2. The south masks are bucketed by their first digit y, each bucket padded
//    to whole blocks of 512, and each block is transposed into bit rows:
//    row i of a block has bit j set when member j lacks bit i.
// 3. For each block, a digit table holds, for every value v of every digit,
//    the AND of the rows of v's bits: the members that fit v. A north mask
//    then fits exactly the members of popcount(AND of its digits' entries),
//    a handful of 512-bit ANDs per 512 pairs, with no branch per bit.
// 4. A north mask whose first digit x meets a block's y (x & y != 0) fits no
//    member of it: the pair is skipped whole. Picking the first digit's bits
//    among those set in about half of both lists (the middle diagonals of a
//    half board) skips about half of all pairs.
// 5. The popcounts of the ANDs are summed by a Harley–Seal carry-save adder
//    tree, one real popcount per 16 ANDs (W. Muła, N. Kurz, D. Lemire,
//    "Faster population counts using AVX2 instructions", 2018).
//
// Measured against the previous sorted-prefix sieve on n = 18's groups, this
// was about 3x faster (see README, "Engines side by side").

#if defined(__AVX512F__) || defined(__AVX2__) || defined(__BMI2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

#pragma GCC diagnostic ignored "-Wpsabi"  // 64-byte vectors by value: all inlined here

namespace nqueens::detail {

namespace {

// 512 bits as one GCC vector: AVX-512 where available, else lowered to
// narrower instructions by the compiler.
using lanes = std::uint64_t __attribute__((vector_size(64)));
constexpr std::size_t block_members = 512;
constexpr int max_first_digit_bits = 6;
constexpr int digit_bits = 6;  // tables of 64 entries: 4% faster than 5 bits at n = 18
constexpr int max_digits = (64 + digit_bits - 1) / digit_bits;

// The widest register: digit tables are built in parts of this size.
#if defined(__AVX512F__)
using chunk = std::uint64_t __attribute__((vector_size(64), aligned(64), may_alias));
#else
using chunk = std::uint64_t __attribute__((vector_size(32), aligned(32), may_alias));
#endif

// block_bits is 64-byte aligned: an aligned, aliasing vector load.
using block_lanes = std::uint64_t __attribute__((vector_size(64), aligned(64), may_alias));
inline lanes load(const block_bits& b) noexcept { return *reinterpret_cast<const block_lanes*>(b.word); }

inline std::uint64_t popcount(lanes v) noexcept {
  std::uint64_t total = 0;
  for (int i = 0; i < 8; ++i) total += static_cast<std::uint64_t>(std::popcount(v[i]));
  return total;
}

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

// Sums popcounts of many 512-bit values: a carry-save adder tree over each
// 16 inputs keeps per-bit counters (ones, twos, fours, eights) and counts
// only the carries into sixteens. The caller buffers the 16 inputs (its
// counter stays in a register; one kept here went through memory on every add).
class popcount_accumulator {
 public:
  void add16(const lanes* p) noexcept {
    lanes twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;
    add3(twos_a, ones_, ones_, p[0], p[1]);
    add3(twos_b, ones_, ones_, p[2], p[3]);
    add3(fours_a, twos_, twos_, twos_a, twos_b);
    add3(twos_a, ones_, ones_, p[4], p[5]);
    add3(twos_b, ones_, ones_, p[6], p[7]);
    add3(fours_b, twos_, twos_, twos_a, twos_b);
    add3(eights_a, fours_, fours_, fours_a, fours_b);
    add3(twos_a, ones_, ones_, p[8], p[9]);
    add3(twos_b, ones_, ones_, p[10], p[11]);
    add3(fours_a, twos_, twos_, twos_a, twos_b);
    add3(twos_a, ones_, ones_, p[12], p[13]);
    add3(twos_b, ones_, ones_, p[14], p[15]);
    add3(fours_b, twos_, twos_, twos_a, twos_b);
    add3(eights_b, fours_, fours_, fours_a, fours_b);
    add3(sixteens, eights_, eights_, eights_a, eights_b);
    sixteens_ += popcount(sixteens);
  }
  void add(lanes x) noexcept { singles_ += popcount(x); }
  std::uint64_t total() const noexcept {
    return 16 * sixteens_ + 8 * popcount(eights_) + 4 * popcount(fours_) + 2 * popcount(twos_) + popcount(ones_) +
           singles_;
  }

 private:
  static void add3(lanes& carry, lanes& sum, lanes a, lanes b, lanes c) noexcept {
#if defined(__AVX512F__)
    // One ternary-logic instruction each (majority, three-way xor): GCC
    // emitted four operations per adder from the plain expressions.
    const auto x = reinterpret_cast<__m512i>(a), y = reinterpret_cast<__m512i>(b), z = reinterpret_cast<__m512i>(c);
    carry = reinterpret_cast<lanes>(_mm512_ternarylogic_epi64(x, y, z, 0xE8));
    sum = reinterpret_cast<lanes>(_mm512_ternarylogic_epi64(x, y, z, 0x96));
#else
    const lanes u = a ^ b;
    carry = (a & b) | (u & c);
    sum = u ^ c;
#endif
  }

  lanes ones_{}, twos_{}, fours_{}, eights_{};
  std::uint64_t sixteens_ = 0, singles_ = 0;
};

struct digit_layout {
  std::uint64_t first = 0;  // the first digit's bits
  int digits = 0;
  std::array<std::uint64_t, max_digits> bits{};
  std::array<int, max_digits> table_base{};  // entry of value 0 in the block table
  int table_size = 0;
};

// Bits set in about half of both lists split the pairs best: a pair survives
// bit i with probability 1 - p_north(i) * p_south(i). The frequencies come
// from a sample of each list.
digit_layout choose_digits(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                           std::uint64_t used) {
  digit_layout d;
  // Buckets of the first digit should fill whole blocks, or padding costs more than the split saves.
  int first_bits = 0;
  while (first_bits < max_first_digit_bits && first_bits < std::popcount(used) &&
         (south.size() >> (first_bits + 1)) >= 400) {
    ++first_bits;
  }
  if (first_bits > 0) {
    std::array<double, 64> in_north{}, in_south{};
    const auto sample = [used](std::span<const std::uint64_t> list, std::array<double, 64>& counts) {
      const std::size_t step = std::max<std::size_t>(1, list.size() / 256);
      for (std::size_t i = 0; i < list.size(); i += step) {
        for (std::uint64_t b = list[i] & used; b != 0; b &= b - 1) counts[static_cast<std::size_t>(std::countr_zero(b))] += 1;
      }
    };
    sample(north, in_north);
    sample(south, in_south);
    std::array<int, 64> order{};
    int count = 0;
    for (std::uint64_t b = used; b != 0; b &= b - 1) order[static_cast<std::size_t>(count++)] = std::countr_zero(b);
    std::sort(order.begin(), order.begin() + count, [&](int x, int y) {  // std::sort: stable_sort would allocate
      const double score_x = in_north[static_cast<std::size_t>(x)] * in_south[static_cast<std::size_t>(x)];
      const double score_y = in_north[static_cast<std::size_t>(y)] * in_south[static_cast<std::size_t>(y)];
      return score_x != score_y ? score_x > score_y : x < y;
    });
    for (int k = 0; k < first_bits; ++k) d.first |= std::uint64_t{1} << order[static_cast<std::size_t>(k)];
  }
  std::uint64_t rest = used & ~d.first;
  do {  // at least one digit (an empty one when no bit is left: its table entry is the valid members)
    std::uint64_t bits = 0;
    for (int k = 0; k < digit_bits && rest != 0; ++k, rest &= rest - 1) bits |= rest & (0 - rest);
    const auto i = static_cast<std::size_t>(d.digits++);
    d.bits[i] = bits;
    d.table_base[i] = d.table_size;
    d.table_size += 1 << std::popcount(bits);
  } while (rest != 0);
  return d;
}

// Transposes a 64 x 64 bit matrix in place: afterwards m[j] bit i is what
// m[i] bit j was. Recursive block swaps (H. S. Warren, "Hacker's Delight",
// 7-3): for s = 32, 16, ..., 1, rows i and i + s exchange their s x s
// off-diagonal blocks. With AVX-512 the 64 rows are 8 registers; the swaps
// for s >= 8 pair whole registers, those for s < 8 pair lanes of one.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's AVX-512 shift intrinsics (a false positive)
void transpose_64(std::uint64_t* m) noexcept {
#if defined(__AVX512F__)
  __m512i z[8];
  for (int k = 0; k < 8; ++k) z[k] = _mm512_loadu_si512(m + 8 * k);
  const auto swap_registers = [&](int s, std::uint64_t low_columns) {
    const int step = s / 8;
    const __m512i keep = _mm512_set1_epi64(static_cast<long long>(low_columns));
    for (int k = 0; k < 8; ++k) {
      if ((k & step) != 0) continue;
      __m512i& a = z[k];
      __m512i& b = z[k + step];
      const __m512i t = _mm512_and_si512(_mm512_xor_si512(_mm512_srli_epi64(a, static_cast<unsigned>(s)), b), keep);
      b = _mm512_xor_si512(b, t);
      a = _mm512_xor_si512(a, _mm512_slli_epi64(t, static_cast<unsigned>(s)));
    }
  };
  swap_registers(32, 0x00000000FFFFFFFFULL);
  swap_registers(16, 0x0000FFFF0000FFFFULL);
  swap_registers(8, 0x00FF00FF00FF00FFULL);
  // Within a register: lane l pairs with lane l + s (l & s == 0); `partner`
  // brings each lane its pair, `upper` marks the lanes l + s.
  const auto swap_lanes = [&](int s, std::uint64_t low_columns, auto partner, __mmask8 upper) {
    const __m512i keep = _mm512_set1_epi64(static_cast<long long>(low_columns));
    for (__m512i& a : z) {
      const __m512i other = partner(a);  // lane l: the row it pairs with
      // For a low lane l: t = ((row l >> s) ^ row l+s) & keep; row l ^= t << s, row l+s ^= t.
      const __m512i t = _mm512_and_si512(_mm512_xor_si512(_mm512_srli_epi64(a, static_cast<unsigned>(s)), other), keep);
      const __m512i t_up = partner(t);  // the low lane's t, moved to its upper partner
      a = _mm512_mask_xor_epi64(a, static_cast<__mmask8>(~upper), a, _mm512_slli_epi64(t, static_cast<unsigned>(s)));
      a = _mm512_mask_xor_epi64(a, upper, a, t_up);
    }
  };
  swap_lanes(4, 0x0F0F0F0F0F0F0F0FULL, [](__m512i v) { return _mm512_shuffle_i64x2(v, v, 0x4E); }, 0xF0);
  swap_lanes(2, 0x3333333333333333ULL, [](__m512i v) { return _mm512_permutex_epi64(v, 0x4E); }, 0xCC);
  swap_lanes(1, 0x5555555555555555ULL, [](__m512i v) { return _mm512_shuffle_epi32(v, _MM_PERM_BADC); }, 0xAA);
  for (int k = 0; k < 8; ++k) _mm512_storeu_si512(m + 8 * k, z[k]);
#elif defined(__AVX2__)
  // The same with 16 registers of 4 rows: 4x fewer instructions than the
  // scalar swaps, which took 16% of a count at n = 18 on an AVX2 machine.
  __m256i z[16];
  for (int k = 0; k < 16; ++k) z[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + 4 * k));
  const auto swap_registers = [&](int s, std::uint64_t low_columns) {
    const int step = s / 4;
    const __m256i keep = _mm256_set1_epi64x(static_cast<long long>(low_columns));
    for (int k = 0; k < 16; ++k) {
      if ((k & step) != 0) continue;
      __m256i& a = z[k];
      __m256i& b = z[k + step];
      const __m256i t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi64(a, s), b), keep);
      b = _mm256_xor_si256(b, t);
      a = _mm256_xor_si256(a, _mm256_slli_epi64(t, s));
    }
  };
  swap_registers(32, 0x00000000FFFFFFFFULL);
  swap_registers(16, 0x0000FFFF0000FFFFULL);
  swap_registers(8, 0x00FF00FF00FF00FFULL);
  swap_registers(4, 0x0F0F0F0F0F0F0F0FULL);
  // Lane l pairs with lane l + s; `upper` marks the lanes l + s by 32-bit element.
  const auto swap_lanes = [&](int s, std::uint64_t low_columns, auto partner, auto blend_upper) {
    const __m256i keep = _mm256_set1_epi64x(static_cast<long long>(low_columns));
    for (__m256i& a : z) {
      const __m256i t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi64(a, s), partner(a)), keep);
      a = blend_upper(_mm256_xor_si256(a, _mm256_slli_epi64(t, s)), _mm256_xor_si256(a, partner(t)));
    }
  };
  swap_lanes(
      2, 0x3333333333333333ULL, [](__m256i v) { return _mm256_permute4x64_epi64(v, 0x4E); },
      [](__m256i low, __m256i up) { return _mm256_blend_epi32(low, up, 0xF0); });
  swap_lanes(
      1, 0x5555555555555555ULL, [](__m256i v) { return _mm256_shuffle_epi32(v, 0x4E); },
      [](__m256i low, __m256i up) { return _mm256_blend_epi32(low, up, 0xCC); });
  for (int k = 0; k < 16; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(m + 4 * k), z[k]);
#else
  std::uint64_t keep = 0x00000000FFFFFFFFULL;
  for (int s = 32; s != 0; s >>= 1, keep ^= keep << s) {
    for (int i = 0; i < 64; i = (i + s + 1) & ~s) {
      const std::uint64_t t = ((m[i] >> s) ^ m[i + s]) & keep;
      m[i + s] ^= t;
      m[i] ^= t << s;
    }
  }
#endif
}
#pragma GCC diagnostic pop

template <int Digits>
std::uint64_t sieve_blocks(const digit_layout& d, std::uint64_t sliced, std::size_t blocks, std::size_t classes,
                           pair_scratch& s) {
  const int digits = Digits > 0 ? Digits : d.digits;  // Digits == 0: any count, known at run time
  const block_bits* rows = s.rows.data();
  const auto valid_row = static_cast<std::size_t>(std::popcount(sliced));
  std::array<std::size_t, 64> slot_of{};  // row of each sliced bit
  {
    std::size_t slot = 0;
    for (std::uint64_t all = sliced; all != 0; all &= all - 1) slot_of[static_cast<std::size_t>(std::countr_zero(all))] = slot++;
  }
  block_bits* const table = s.table.data();
  const char* const table_bytes = reinterpret_cast<const char*>(table);
  popcount_accumulator sum;
  lanes pending[16];
  int waiting = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (int k = 0; k < d.digits; ++k) {
      block_bits* t = table + d.table_base[static_cast<std::size_t>(k)];
      std::array<std::size_t, digit_bits> bit_rows{};
      int width = 0;
      for (std::uint64_t bits = d.bits[static_cast<std::size_t>(k)]; bits != 0; bits &= bits - 1) {
        bit_rows[static_cast<std::size_t>(width++)] = slot_of[static_cast<std::size_t>(std::countr_zero(bits))] * blocks + b;
      }
      // Built in register-wide parts: a 64-byte value stored in pieces and
      // loaded back whole at once stalls store forwarding.
      for (std::size_t part = 0; part < sizeof(block_bits) / sizeof(chunk); ++part) {
        const auto in = [part](const block_bits& x) { return reinterpret_cast<const chunk*>(x.word)[part]; };
        chunk* const out = reinterpret_cast<chunk*>(t) + part;
        constexpr std::size_t stride = sizeof(block_bits) / sizeof(chunk);
        out[0] = in(rows[valid_row * blocks + b]);
        for (unsigned v = 1; v < (1U << width); ++v) {
          out[v * stride] = out[(v & (v - 1)) * stride] & in(rows[bit_rows[static_cast<std::size_t>(std::countr_zero(v))]]);
        }
      }
    }
    const std::uint32_t y = s.block_digit[b];
    for (std::size_t x = 0; x < classes; ++x) {
      if ((x & y) != 0) continue;  // every member of the block collides on the first digit
      const std::uint16_t* e = s.entries.data() + static_cast<std::size_t>(s.north_offsets[x]) * static_cast<std::size_t>(digits);
      const std::uint16_t* const end = s.entries.data() + static_cast<std::size_t>(s.north_offsets[x + 1]) * static_cast<std::size_t>(digits);
      for (; e != end; e += digits) {
        lanes fit = load(*reinterpret_cast<const block_bits*>(table_bytes + e[0]));
        for (int k = 1; k < digits; ++k) fit &= load(*reinterpret_cast<const block_bits*>(table_bytes + e[k]));
        pending[waiting++] = fit;
        if (waiting == 16) {
          sum.add16(pending);
          waiting = 0;
        }
      }
    }
  }
  for (int i = 0; i < waiting; ++i) sum.add(pending[i]);
  return sum.total();
}

}  // namespace

std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& s) {
  if (north.empty() || south.empty()) return 0;
  constexpr std::size_t offset_limit = std::size_t{1} << 32;  // offsets are 32-bit
  if (north.size() >= offset_limit || south.size() >= offset_limit - 512) {
    throw std::length_error("count_disjoint_pairs: too many masks for its 32-bit offsets");
  }
  std::uint64_t in_north = 0, in_south = 0;
  for (const std::uint64_t a : north) in_north |= a;
  for (const std::uint64_t b : south) in_south |= b;
  const std::uint64_t used = in_north & in_south;  // other bits cannot collide
  if (used == 0) return static_cast<std::uint64_t>(north.size()) * south.size();

  const digit_layout d = choose_digits(north, south, used);
  const std::size_t classes = std::size_t{1} << std::popcount(d.first);
  const auto digits = static_cast<std::size_t>(d.digits);

  // North masks by first digit, each with its table entries (byte offsets).
  s.north_offsets.assign(classes + 1, 0);
  for (const std::uint64_t a : north) ++s.north_offsets[extract_bits(a, d.first) + 1];
  for (std::size_t c = 0; c < classes; ++c) s.north_offsets[c + 1] += s.north_offsets[c];
  s.cursor.assign(s.north_offsets.begin(), s.north_offsets.end() - 1);
  s.entries.resize(north.size() * digits);
  for (const std::uint64_t a : north) {
    std::uint16_t* e = s.entries.data() + static_cast<std::size_t>(s.cursor[extract_bits(a, d.first)]++) * digits;
    for (std::size_t k = 0; k < digits; ++k) {
      const std::uint64_t entry = static_cast<std::uint64_t>(d.table_base[k]) + extract_bits(a, d.bits[k]);
      e[k] = static_cast<std::uint16_t>(entry * sizeof(block_bits));
    }
  }

  // South masks by first digit, each bucket padded to whole blocks.
  s.south_sizes.assign(classes + 1, 0);  // bucket c has south_sizes[c + 1] members
  for (const std::uint64_t b : south) ++s.south_sizes[extract_bits(b, d.first) + 1];
  std::size_t blocks = 0;
  s.block_digit.clear();
  s.cursor.resize(classes);
  for (std::size_t c = 0; c < classes; ++c) {
    const std::size_t bucket_blocks = (s.south_sizes[c + 1] + block_members - 1) / block_members;
    s.cursor[c] = static_cast<std::uint32_t>(blocks * block_members);
    s.block_digit.insert(s.block_digit.end(), bucket_blocks, static_cast<std::uint32_t>(c));
    blocks += bucket_blocks;
  }
  // Padding keeps whatever it held: the valid-member row masks it out.
  if (s.south_sorted.size() < blocks * block_members) s.south_sorted.resize(blocks * block_members);
  for (const std::uint64_t b : south) s.south_sorted[s.cursor[extract_bits(b, d.first)]++] = b;

  // Bit rows per block (the first digit's bits need none: a block's members
  // share them); the last row marks the real members (not padding).
  const std::uint64_t sliced = used & ~d.first;
  const auto used_bits = static_cast<std::size_t>(std::popcount(sliced));
  s.rows.resize((used_bits + 1) * blocks);
  auto* const row_bytes = reinterpret_cast<std::uint8_t*>(s.rows.data());
  const std::size_t row_length = blocks * sizeof(block_bits);
  auto* const row_words = reinterpret_cast<std::uint64_t*>(row_bytes);
  const std::size_t words = blocks * block_members / 64;  // per row
  for (std::size_t w = 0; w < words; ++w) {
    std::uint64_t square[64];
    std::memcpy(square, s.south_sorted.data() + 64 * w, sizeof square);
    transpose_64(square);  // square[j]: which of the 64 masks have bit j
    std::size_t slot = 0;
    for (std::uint64_t bits = sliced; bits != 0; bits &= bits - 1) {
      row_words[slot++ * words + w] = ~square[std::countr_zero(bits)];
    }
  }
  std::memset(row_bytes + used_bits * row_length, 0, row_length);
  {
    std::size_t block = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      const std::size_t members = s.south_sizes[c + 1];
      std::uint64_t* valid = reinterpret_cast<std::uint64_t*>(row_bytes + used_bits * row_length) + block * 8;
      std::fill_n(valid, members / 64, ~std::uint64_t{0});
      if (members % 64 != 0) valid[members / 64] = (std::uint64_t{1} << (members % 64)) - 1;
      block += (members + block_members - 1) / block_members;
    }
  }
  s.table.resize(static_cast<std::size_t>(d.table_size));

  switch (d.digits) {  // a fixed digit count unrolls the inner loop
    case 1: return sieve_blocks<1>(d, sliced, blocks, classes, s);
    case 2: return sieve_blocks<2>(d, sliced, blocks, classes, s);
    case 3: return sieve_blocks<3>(d, sliced, blocks, classes, s);
    case 4: return sieve_blocks<4>(d, sliced, blocks, classes, s);
    case 5: return sieve_blocks<5>(d, sliced, blocks, classes, s);
    case 6: return sieve_blocks<6>(d, sliced, blocks, classes, s);
    case 7: return sieve_blocks<7>(d, sliced, blocks, classes, s);
    case 8: return sieve_blocks<8>(d, sliced, blocks, classes, s);
    default: return sieve_blocks<0>(d, sliced, blocks, classes, s);
  }
}

}  // namespace nqueens::detail
