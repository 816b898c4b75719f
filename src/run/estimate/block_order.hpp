#pragma once

// A seeded random order of a plan's blocks, without a list (stratified_sample's
// draws without replacement).

#include <cstddef>
#include <cstdint>

namespace nqueens::detail {

// The blocks of a plan in a random order drawn from a seed without a list
// (10^8 subproblems would need 800 MB): a four-round Feistel network on the
// next even power of two, walked until it lands inside (at most four steps
// on average). Every block comes once in the first `blocks` draws.
class block_order {
 public:
  block_order(std::size_t blocks, std::uint64_t seed) : blocks_(blocks) {
    while ((std::uint64_t{1} << (2 * half_bits_)) < blocks) ++half_bits_;
    std::uint64_t state = seed;
    for (std::uint64_t& key : keys_) key = splitmix(state);
  }
  std::size_t operator[](std::size_t k) const noexcept {
    std::uint64_t x = k;
    do x = permute(x);
    while (x >= blocks_);
    return static_cast<std::size_t>(x);
  }

 private:
  static std::uint64_t splitmix(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t permute(std::uint64_t x) const noexcept {
    const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
    std::uint64_t left = x >> half_bits_, right = x & mask;
    for (const std::uint64_t key : keys_) {
      std::uint64_t mixed = right ^ key;
      const std::uint64_t next = left ^ (splitmix(mixed) & mask);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }
  std::size_t blocks_;
  int half_bits_ = 1;
  std::uint64_t keys_[4] = {};
};

}  // namespace nqueens::detail
