#pragma once

// 64-bit FNV-1a: a stable, platform-independent hash for plan fingerprints.

#include <cstdint>
#include <string_view>

namespace nqueens::detail {

class fnv1a {
 public:
  fnv1a() = default;
  /// Goes on from `state`, another hash's value: the hash of its bytes then these.
  explicit fnv1a(std::uint64_t state) noexcept : hash_(state) {}
  void add_byte(std::uint8_t b) noexcept { hash_ = (hash_ ^ b) * 0x100000001b3ULL; }
  /// Adds `value` as 8 little-endian bytes, independent of the host's byte order.
  void add_u64(std::uint64_t value) noexcept {
    for (int i = 0; i < 8; ++i) add_byte(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  void add_text(std::string_view text) noexcept {
    for (const char c : text) add_byte(static_cast<std::uint8_t>(c));
  }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace nqueens::detail
