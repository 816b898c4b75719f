#pragma once

// Formatting shared by the sub-commands.

#include <cstdint>
#include <optional>
#include <string>

#include "cli/io/json.hpp"
#include "nqueens/count.hpp"

namespace nqueens::cli {

/// The OEIS sequences the counts are checked against.
inline constexpr const char* oeis_total = "A000170";          ///< Q(n)
inline constexpr const char* oeis_unique = "A002562";         ///< fundamental solutions
inline constexpr const char* oeis_symmetric_180 = "A032522";  ///< unchanged by a half turn
inline constexpr const char* oeis_symmetric_90 = "A033148";   ///< unchanged by a quarter turn

/// "verified (OEIS A000170)", "MISMATCH: published value is N" or
/// "not verified (no published value)" for one counted value.
std::string describe(verdict v, std::optional<std::uint64_t> published, const char* sequence);

/// JSON value of "verified": true when every counted value matched, false on a
/// mismatch, null when nothing was published.
const char* verified_json(const verification& check);

/// The same for a count; null for one shard of a plan (a part is never checked).
const char* verified_json(const count_result& r);

/// A whole run's counts and their check: what count prints of its run and
/// merge of its shards, in the same words.
struct counts_shown {
  int n = 0;
  uint128 total = 0;
  std::optional<uint128> unique;
  uint128 symmetric_180 = 0, symmetric_90 = 0;
  verification check;
};

/// The counts of `r`.
counts_shown counts_of(const count_result& r);

/// The rotation-symmetric counts' keys ("symmetric_180", "symmetric_90"),
/// and their published values' ("published_symmetric_180", ...): what
/// add_counts and rotational's JSON both write.
json_object& add_symmetric_counts(json_object& o, uint128 symmetric_180, uint128 symmetric_90);
json_object& add_published_symmetric_counts(json_object& o, const verification& check);

/// The counts and their published values, as count's JSON, each row of
/// verify's and merge's write them.
json_object& add_counts(json_object& o, const counts_shown& c);

/// "Q(n) = ...  verified (OEIS A000170)", the unique count's line where
/// there is one, and the rotation-symmetric lines.
std::string describe_counts(const counts_shown& c);

/// "  resumed: R of S subproblems taken from JOURNAL\n" for a run that took
/// some from its journal; empty for one that took none.
std::string describe_resumed(const count_result& r, const std::string& checkpoint);

/// The two lines of text giving the rotation-symmetric counts and their checks.
std::string describe_symmetric_counts(uint128 symmetric_180, uint128 symmetric_90, const verification& check);

}  // namespace nqueens::cli
