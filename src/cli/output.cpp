#include "cli/output.hpp"

#include <cstdio>

#include "cli/json.hpp"

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
  if (check.total == verdict::unknown) return "null";
  return "true";
}

const char* verified_json(const count_result& r) {
  if (!r.shard.whole()) return "null";  // a part: nqueens merge verifies the whole
  return verified_json(r.check);
}

std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  return buffer;
}

std::string count_json(const count_result& r) {
  json_object o;
  o.add("n", r.n)
      .add("total", r.total)
      .add("unique", r.unique)
      .add("published_total", r.check.published_total)
      .add("published_unique", r.check.published_unique)
      .add_raw("verified", verified_json(r))
      .add("engine", to_string(r.kind))
      .add("isa", to_string(r.kernels))
      .add("threads", r.threads)
      .add("seconds", r.seconds)
      .add("subproblems", r.subproblems)
      .add("split_depth", r.split_depth)
      .add("plan_fingerprint", format_fingerprint(r.plan_fingerprint))
      .add("resumed", r.resumed)
      .add("shard", r.shard.index)
      .add("shards", r.shard.count)
      .add("shard_subproblems", r.shard_subproblems);
  return o.str();
}

}  // namespace nqueens::cli
