#include "engines/fingerprint.hpp"

namespace nqueens::detail {

fnv1a_string::fnv1a_string(std::span<const std::uint8_t> bytes) noexcept {
  for (std::size_t k = 0; k < bytes.size(); ++k) power_ *= fnv1a::prime;
  // The amount for low byte L: the string's hash from the state L, less L * prime^k.
  for (std::uint64_t low = 0; low < added_.size(); ++low) {
    fnv1a hash(low);
    for (const std::uint8_t b : bytes) hash.add_byte(b);
    added_[low] = hash.value() - low * power_;
  }
}

}  // namespace nqueens::detail
