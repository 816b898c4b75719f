#pragma once

/// \file
/// Published solution counts, used only to *check* results, never to produce them.

#include <cstdint>
#include <optional>

namespace nqueens {

/// Largest n with a published count in this table.
inline constexpr int max_published_board_size = 27;

/// Q(n), all solutions (OEIS A000170), or nullopt when no value is published
/// (n < 1 or n > max_published_board_size).
std::optional<std::uint64_t> published_total(int n) noexcept;

/// Fundamental solutions, one per class under the 8 board symmetries
/// (OEIS A002562), or nullopt when no value is published.
std::optional<std::uint64_t> published_unique(int n) noexcept;

}  // namespace nqueens
