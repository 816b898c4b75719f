#pragma once

// Re-signs a shard file's JSON after a test edited its counts, as a forger
// (or a bug elsewhere) would: the file then passes merge's checksum, and the
// test reaches the check behind it (Burnside's divisibility, the 128-bit sum,
// the plan its fields make).

#include <stdexcept>
#include <string>

#include "cli/io/json_reader.hpp"
#include "cli/io/shard_file.hpp"

namespace nqueens::test {

/// The raw text of member `key`'s value in a one-line JSON object (a
/// string's with its quotes); empty where there is no such member.
inline std::string json_field(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return {};
  const std::size_t from = at + key.size() + 3;
  return json.substr(from, json.find_first_of(",}", from) - from);
}

/// Replaces member `key`'s value in `json` by the raw text `value` (a
/// string's with its quotes); throws std::invalid_argument where there is
/// no such member.
inline void set_json_field(std::string& json, const std::string& key, const std::string& value) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) throw std::invalid_argument("no \"" + key + "\" in " + json);
  const std::size_t from = at + key.size() + 3;
  json.replace(from, json.find_first_of(",}", from) - from, value);
}

inline std::string resigned(std::string json) {
  const cli::json_members m = cli::json_members::parse(json);
  constexpr uint128 any = ~uint128{0};
  cli::shard_file f;
  f.n = static_cast<int>(m.get_unsigned("n", 0, any));
  f.engine = m.get_string("engine");
  f.split_depth = static_cast<int>(m.get_unsigned("split_depth", 0, any));
  f.subproblems = static_cast<std::size_t>(m.get_unsigned("subproblems", 0, any));
  f.fingerprint = m.get_string("plan_fingerprint");
  f.shard = static_cast<int>(m.get_unsigned("shard", 0, any));
  f.shards = static_cast<int>(m.get_unsigned("shards", 0, any));
  f.shard_subproblems = static_cast<std::size_t>(m.get_unsigned("shard_subproblems", 0, any));
  f.shard_digest = std::stoull(m.get_string("shard_digest"), nullptr, 16);
  f.total = m.get_unsigned("total", 0, any);
  f.symmetric_180 = m.get_unsigned("symmetric_180", 0, any);
  f.symmetric_90 = m.get_unsigned("symmetric_90", 0, any);
  const std::size_t at = json.find("\"checksum\":\"") + 12;
  return json.replace(at, 16, cli::shard_checksum(f));
}

}  // namespace nqueens::test
