#include "engines/quadrant/group_pieces.hpp"

#include <algorithm>
#include <bit>

#include "engines/join_model/half_masks.hpp"

namespace nqueens::detail {

std::uint32_t pattern_of(std::uint64_t mask, std::uint64_t bits) noexcept {
  std::uint32_t pattern = 0;
  for (int j = 0; bits != 0; bits &= bits - 1, ++j) {
    if ((mask & bits & (0 - bits)) != 0) pattern |= 1U << j;
  }
  return pattern;
}

piece_filter::piece_filter(std::uint64_t bits, std::uint64_t patterns, bool turned) noexcept : patterns_(patterns) {
  for (; bits != 0 && count_ < max_piece_bits; bits &= bits - 1, ++count_) {
    const int bit = std::countr_zero(bits);
    // A turned mask's bit b is the joined mask's bit b + 32 (mod 64): odd_south_mask.
    shift_[static_cast<std::size_t>(count_)] = static_cast<std::uint8_t>(turned ? (bit + 32) % 64 : bit);
  }
}

std::uint64_t pairing_patterns(std::uint64_t patterns, int bits) noexcept {
  const unsigned count = 1U << bits;
  std::uint64_t pairing = 0;
  for (unsigned q = 0; q < count; ++q) {
    for (std::uint64_t p = patterns; p != 0; p &= p - 1) {
      if ((q & static_cast<unsigned>(std::countr_zero(p))) == 0) {
        pairing |= std::uint64_t{1} << q;
        break;
      }
    }
  }
  return pairing;
}

namespace {

// How many of `samples` have each bit.
std::array<double, 64> bit_shares(std::span<const std::uint64_t> samples) noexcept {
  std::array<double, 64> shares{};
  for (const std::uint64_t s : samples) {
    for (std::uint64_t b = s; b != 0; b &= b - 1) shares[static_cast<std::size_t>(std::countr_zero(b))] += 1;
  }
  for (double& x : shares) x /= static_cast<double>(std::max<std::size_t>(samples.size(), 1));
  return shares;
}

}  // namespace

std::uint64_t choose_piece_bits(std::span<const std::uint64_t> outer_samples,
                                std::span<const std::uint64_t> inner_samples, double outer_halves,
                                double capacity) noexcept {
  if (outer_halves <= capacity || outer_samples.empty() || inner_samples.empty()) return 0;
  const std::array<double, 64> outer = bit_shares(outer_samples), inner = bit_shares(inner_samples);
  // Board diagonals only: the free bits carry the filter's tags and marks.
  const std::uint64_t candidates = ~(free_bits | free_bits << 32);
  std::uint64_t bits = 0;
  for (int k = 0; k < max_piece_bits; ++k) {
    const std::array<double, 64> sizes = pattern_sizes(outer_samples, bits, outer_halves);
    if (*std::max_element(sizes.begin(), sizes.end()) <= capacity) break;
    int best = -1;
    double best_score = 0;
    for (std::uint64_t c = candidates & ~bits; c != 0; c &= c - 1) {
      const auto b = static_cast<std::size_t>(std::countr_zero(c));
      if (outer[b] < 0.25 || outer[b] > 0.75) continue;
      const double score = outer[b] * inner[b];
      if (score > best_score) {
        best_score = score;
        best = static_cast<int>(b);
      }
    }
    if (best < 0) break;
    bits |= std::uint64_t{1} << best;
  }
  return bits;
}

std::array<double, 64> pattern_sizes(std::span<const std::uint64_t> samples, std::uint64_t bits,
                                     double halves) noexcept {
  std::array<double, 64> sizes{};
  for (const std::uint64_t s : samples) sizes[pattern_of(s, bits)] += 1;
  for (double& x : sizes) x *= halves / static_cast<double>(std::max<std::size_t>(samples.size(), 1));
  return sizes;
}

std::uint64_t next_patterns(const std::array<double, 64>& sizes, std::uint64_t allowed, int bits, int& from,
                            double capacity) noexcept {
  const int count = 1 << bits;
  std::uint64_t patterns = 0;
  double held = 0;
  for (; from < count; ++from) {
    if ((allowed >> from & 1U) == 0) continue;
    const double size = sizes[static_cast<std::size_t>(from)];
    if (patterns != 0 && held + size > capacity) break;
    patterns |= std::uint64_t{1} << from;
    held += size;
  }
  return patterns;
}

}  // namespace nqueens::detail
