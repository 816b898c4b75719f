#pragma once

/// \file
/// Step 4 of plan -> execute -> reduce -> verify: compare with the published table.

#include <cstdint>
#include <optional>

#include "nqueens/count_types.hpp"

namespace nqueens {

/// Outcome of comparing one counted value with the published one.
enum class verdict {
  match,     ///< equal to the published value
  mismatch,  ///< differs from the published value
  unknown,   ///< nothing published for this n, or nothing counted
};

/// Result of checking counted values against OEIS: the total (A000170), the
/// fundamental count (A002562), and the solutions unchanged by a half turn
/// (A032522) and by a quarter turn (A033148).
struct verification {
  verdict total = verdict::unknown;
  verdict unique = verdict::unknown;
  verdict symmetric_180 = verdict::unknown;
  verdict symmetric_90 = verdict::unknown;
  std::optional<std::uint64_t> published_total{};
  std::optional<std::uint64_t> published_unique{};
  std::optional<std::uint64_t> published_symmetric_180{};
  std::optional<std::uint64_t> published_symmetric_90{};
  /// Which values were counted, and so compared.
  bool has_total = false;
  bool has_unique = false;
  bool has_symmetric_180 = false;
  bool has_symmetric_90 = false;

  /// False only when a published value exists and differs.
  bool ok() const noexcept {
    return total != verdict::mismatch && unique != verdict::mismatch && symmetric_180 != verdict::mismatch &&
           symmetric_90 != verdict::mismatch;
  }
  /// True when something was counted and every counted value matched.
  bool verified() const noexcept {
    return (has_total || has_unique || has_symmetric_180 || has_symmetric_90) &&
           (!has_total || total == verdict::match) && (!has_unique || unique == verdict::match) &&
           (!has_symmetric_180 || symmetric_180 == verdict::match) &&
           (!has_symmetric_90 || symmetric_90 == verdict::match);
  }
};

/// Compares the values given for board size `n` with the published counts.
verification verify(int n, std::optional<uint128> total, std::optional<uint128> unique = std::nullopt,
                    std::optional<uint128> symmetric_180 = std::nullopt,
                    std::optional<uint128> symmetric_90 = std::nullopt) noexcept;

/// "match", "mismatch" or "unknown".
const char* to_string(verdict v) noexcept;

}  // namespace nqueens
