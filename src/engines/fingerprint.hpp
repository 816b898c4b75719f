#pragma once

// 64-bit FNV-1a: a stable, platform-independent hash for plan fingerprints.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace nqueens::detail {

class fnv1a_string;

class fnv1a {
 public:
  fnv1a() = default;
  /// Goes on from `state`, another hash's value: the hash of its bytes then these.
  explicit fnv1a(std::uint64_t state) noexcept : hash_(state) {}
  void add_byte(std::uint8_t b) noexcept { hash_ = (hash_ ^ b) * prime; }
  /// Adds `value` as 8 little-endian bytes, independent of the host's byte order.
  void add_u64(std::uint64_t value) noexcept {
    for (int i = 0; i < 8; ++i) add_byte(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  void add_text(std::string_view text) noexcept {
    for (const char c : text) add_byte(static_cast<std::uint8_t>(c));
  }
  /// Adds a string prepared once: the same value as adding its bytes.
  inline void add(const fnv1a_string& bytes) noexcept;
  std::uint64_t value() const noexcept { return hash_; }

  static constexpr std::uint64_t prime = 0x100000001b3ULL;

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

/// A fixed byte string's effect on any FNV-1a state, in one multiply and
/// one lookup rather than a multiply per byte. A byte b turns the state
/// h = 256 H + L into (h + (L ^ b) - L) * prime, whose low byte depends on
/// L alone (a product's low byte depends only on its factors' low bytes):
/// so k bytes turn h into h * prime^k plus an amount fixed by L, one of 256
/// listed here. Plans of 10^8 subproblems are hashed this way (n = 27's
/// plan took 5.4 s to build, hashed a byte at a time; docs/performance.md).
class fnv1a_string {
 public:
  explicit fnv1a_string(std::span<const std::uint8_t> bytes) noexcept;
  std::uint64_t after(std::uint64_t state) const noexcept { return state * power_ + added_[state & 0xFF]; }

 private:
  std::uint64_t power_ = 1;  // prime^k
  std::array<std::uint64_t, 256> added_{};
};

void fnv1a::add(const fnv1a_string& bytes) noexcept { hash_ = bytes.after(hash_); }

}  // namespace nqueens::detail
