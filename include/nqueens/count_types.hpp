#pragma once

/// \file
/// Exact solution counts. Q(27) needs 58 bits and Q(32) about 71, so totals are
/// 128-bit; per-subproblem counts stay 64-bit (see subproblem_count).

#include <concepts>
#include <cstdint>
#include <string>

namespace nqueens {

/// Unsigned 128-bit integer used for every total. `__extension__` keeps
/// -Wpedantic quiet about the GCC/Clang builtin type.
__extension__ typedef unsigned __int128 uint128;

/// Exact decimal representation of `value` (no sign, no separators).
std::string to_string(uint128 value);
/// A signed integer with its sign: converted to uint128 on its way in, -1
/// would read 2^128 - 1.
template <std::signed_integral Signed>
std::string to_string(Signed value) {
  if (value >= 0) return to_string(static_cast<uint128>(value));
  return "-" + to_string(static_cast<uint128>(-(value + 1)) + 1);  // -(min) overflows; -(min + 1) does not
}

/// Adds `b` to `a`, throwing std::overflow_error instead of wrapping.
uint128 checked_add(uint128 a, uint128 b);

/// The fundamental count, one per class under the 8 symmetries of the board,
/// from Q(n) and the solutions unchanged by a half turn (P) and a quarter turn
/// (R). By Burnside's lemma it is the mean number of solutions each symmetry
/// fixes; for n > 1 no solution is its own mirror image (two queens would
/// share a row, a column or, for the diagonal reflections, a line), so it is
/// (Q + P + 2R) / 8; on the 1-board the lone queen is fixed by all eight.
/// Throws std::domain_error when the three counts cannot all be right: the
/// sum is not a multiple of 8, or R > P or P > Q (what a quarter turn fixes,
/// the half turn fixes); std::invalid_argument for n < 1. The counts are
/// taken by reference: by value, the last would straddle the registers and
/// the stack, which Clang before 18 passes otherwise than GCC, so that a
/// Clang program calling the GCC-built library read a wrong R.
uint128 fundamental_count(int n, const uint128& total, const uint128& symmetric_180, const uint128& symmetric_90);

}  // namespace nqueens
