#include "cli/output.hpp"

#include <cstdio>
#include <iostream>

#include "cli/io/json.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"

namespace nqueens::cli {

std::string describe(verdict v, std::optional<std::uint64_t> published, const char* sequence) {
  switch (v) {
    case verdict::match:
      return std::string("verified (OEIS ") + sequence + ")";
    case verdict::mismatch:
      return "MISMATCH: published value is " + std::to_string(*published);
    case verdict::unknown:
      break;
  }
  return "not verified (no published value)";
}

const char* verified_json(const verification& check) {
  if (!check.ok()) return "false";
  return check.verified() ? "true" : "null";
}

const char* verified_json(const count_result& r) {
  if (!r.shard.whole()) return "null";  // a part: nqueens merge verifies the whole
  return verified_json(r.check);
}

counts_shown counts_of(const count_result& r) {
  return {r.n, r.total, r.unique, r.symmetric_180, r.symmetric_90, r.check};
}

json_object& add_symmetric_counts(json_object& o, uint128 symmetric_180, uint128 symmetric_90) {
  return o.add("symmetric_180", symmetric_180).add("symmetric_90", symmetric_90);
}

json_object& add_published_symmetric_counts(json_object& o, const verification& check) {
  return o.add("published_symmetric_180", check.published_symmetric_180)
      .add("published_symmetric_90", check.published_symmetric_90);
}

json_object& add_counts(json_object& o, const counts_shown& c) {
  add_symmetric_counts(o.add("n", c.n).add("total", c.total).add("unique", c.unique), c.symmetric_180, c.symmetric_90);
  return add_published_symmetric_counts(
      o.add("published_total", c.check.published_total).add("published_unique", c.check.published_unique), c.check);
}

std::string describe_counts(const counts_shown& c) {
  std::string text = "Q(" + std::to_string(c.n) + ") = " + to_string(c.total) + "  " +
                     describe(c.check.total, c.check.published_total, oeis_total) + "\n";
  if (c.unique) {
    text += "unique = " + to_string(*c.unique) + "  " +
            describe(c.check.unique, c.check.published_unique, oeis_unique) + "\n";
  }
  return text + describe_symmetric_counts(c.symmetric_180, c.symmetric_90, c.check);
}

std::string describe_resumed(const count_result& r, const std::string& checkpoint) {
  if (r.resumed == 0 && r.journal_bytes_cut == 0) return {};
  const bool shard = !r.shard.whole();
  const std::string cut = r.journal_bytes_cut == 0 ? std::string()
                          : r.journal_bytes_cut == 1
                              ? " (1 byte of a torn last write cut off)"
                              : " (" + std::to_string(r.journal_bytes_cut) + " bytes of a torn last write cut off)";
  return "  resumed: " + format_grouped(r.resumed) + " of " +
         format_grouped(shard ? r.shard_subproblems : r.subproblems) +
         (shard ? " subproblems of the shard" : " subproblems") + " taken from " + one_line(checkpoint) + cut + "\n";
}

std::string describe_symmetric_counts(uint128 symmetric_180, uint128 symmetric_90, const verification& check) {
  return "unchanged by a half turn: " + to_string(symmetric_180) + "  " +
         describe(check.symmetric_180, check.published_symmetric_180, oeis_symmetric_180) +
         "\nunchanged by a quarter turn: " + to_string(symmetric_90) + "  " +
         describe(check.symmetric_90, check.published_symmetric_90, oeis_symmetric_90) + "\n";
}

}  // namespace nqueens::cli
