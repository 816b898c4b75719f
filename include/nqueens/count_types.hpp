#pragma once

/// \file
/// Exact solution counts. Q(27) needs 58 bits and Q(32) about 71, so totals are
/// 128-bit; per-subproblem counts stay 64-bit (see subproblem_count).

#include <cstdint>
#include <string>

namespace nqueens {

/// Unsigned 128-bit integer used for every total. `__extension__` keeps
/// -Wpedantic quiet about the GCC/Clang builtin type.
__extension__ typedef unsigned __int128 uint128;

/// Exact decimal representation of `value` (no sign, no separators).
std::string to_string(uint128 value);

/// Adds `b` to `a`, throwing std::overflow_error instead of wrapping.
uint128 checked_add(uint128 a, uint128 b);

}  // namespace nqueens
