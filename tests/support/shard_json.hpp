#pragma once

// Re-signs a shard file's JSON after a test edited its counts, as a forger
// (or a bug elsewhere) would: the file then passes merge's checksum, and the
// test reaches the check behind it (Burnside's divisibility, the 128-bit sum,
// the plan its fields make).

#include <string>

#include "cli/io/json_reader.hpp"
#include "cli/io/shard_file.hpp"

namespace nqueens::test {

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
  f.total = m.get_unsigned("total", 0, any);
  f.symmetric_180 = m.get_unsigned("symmetric_180", 0, any);
  f.symmetric_90 = m.get_unsigned("symmetric_90", 0, any);
  const std::size_t at = json.find("\"checksum\":\"") + 12;
  return json.replace(at, 16, cli::shard_checksum(f));
}

}  // namespace nqueens::test
