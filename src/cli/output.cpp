#include "cli/output.hpp"

#include <cstdio>

#include "cli/arguments.hpp"
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
      .add_raw("verified", verified_json(r));
  char fingerprint[24];
  std::snprintf(fingerprint, sizeof fingerprint, "%016llx",
                static_cast<unsigned long long>(r.plan_fingerprint));
  o.add("engine", to_string(r.kind))
      .add("threads", r.threads)
      .add("seconds", r.seconds)
      .add("subproblems", r.subproblems)
      .add("split_depth", r.split_depth)
      .add("plan_fingerprint", std::string_view(fingerprint))
      .add("resumed", r.resumed)
      .add("shard", r.shard.index)
      .add("shards", r.shard.count)
      .add("shard_subproblems", r.shard_subproblems);
  return o.str();
}

std::string engine_help() {
  return "Counting engine: " + std::string(engine_names());  // cxxopts appends the default
}

engine parse_engine_option(const std::string& name) {
  if (const auto e = parse_engine(name)) return *e;
  throw usage_error("unknown engine '" + name + "': expected one of " + std::string(engine_names()));
}

}  // namespace nqueens::cli
