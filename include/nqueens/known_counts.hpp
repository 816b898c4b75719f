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

/// Largest n with published counts of rotation-symmetric solutions here
/// (OEIS lists them further, past the boards this library takes).
inline constexpr int max_rotational_board_size = 32;

/// Solutions unchanged by a half turn (OEIS A032522), or nullopt.
std::optional<std::uint64_t> published_symmetric_180(int n) noexcept;

/// Solutions unchanged by a quarter turn (OEIS A033148), or nullopt.
std::optional<std::uint64_t> published_symmetric_90(int n) noexcept;

}  // namespace nqueens
