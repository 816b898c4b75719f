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
  unknown,   ///< nothing published for this n
};

/// Result of checking a total against OEIS A000170 and a fundamental count
/// against OEIS A002562.
struct verification {
  verdict total = verdict::unknown;
  verdict unique = verdict::unknown;
  std::optional<std::uint64_t> published_total;
  std::optional<std::uint64_t> published_unique;

  /// False only when a published value exists and differs.
  bool ok() const noexcept { return total != verdict::mismatch && unique != verdict::mismatch; }
  /// True when every counted value was compared and matched.
  bool verified(bool has_unique) const noexcept {
    return total == verdict::match && (!has_unique || unique == verdict::match);
  }
};

/// Compares `total` (and `unique` when given) for board size `n` with the
/// published counts.
verification verify(int n, uint128 total, std::optional<uint128> unique = std::nullopt) noexcept;

/// "match", "mismatch" or "unknown".
const char* to_string(verdict v) noexcept;

}  // namespace nqueens
