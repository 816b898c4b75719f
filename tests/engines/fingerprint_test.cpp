#include "engines/fingerprint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace nqueens::detail {
namespace {

// A prepared string hashes as its bytes one at a time, from any state: every
// low byte of the state (the lookup's index) and random high bytes, for
// strings of 0 to 40 bytes. Plan fingerprints lean on it
// (QuadrantPlanTest.FingerprintsArePinned checks them whole).
TEST(FingerprintTest, APreparedStringHashesAsItsBytes) {
  std::mt19937_64 random(2026);
  for (std::size_t length = 0; length <= 40; ++length) {
    std::vector<std::uint8_t> bytes(length);
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    if (length % 3 == 0) std::fill(bytes.begin(), bytes.end(), std::uint8_t{0xFF});  // the plans' runs
    const fnv1a_string prepared(bytes);
    for (std::uint64_t low = 0; low < 256; ++low) {
      const std::uint64_t state = (random() & ~std::uint64_t{0xFF}) | low;
      fnv1a one_by_one(state), at_once(state);
      for (const std::uint8_t b : bytes) one_by_one.add_byte(b);
      at_once.add(prepared);
      ASSERT_EQ(at_once.value(), one_by_one.value()) << "length " << length << ", state " << state;
    }
  }
}

TEST(FingerprintTest, AnEmptyStringLeavesTheHash) {
  const fnv1a_string empty(std::span<const std::uint8_t>{});
  fnv1a hash;
  hash.add_text("nqueens");
  const std::uint64_t before = hash.value();
  hash.add(empty);
  EXPECT_EQ(hash.value(), before);
}

}  // namespace
}  // namespace nqueens::detail
