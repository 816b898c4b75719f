#pragma once

// The journal's bytes, as docs/journal-format.md lays them out: a 64-byte
// header naming the run, then 48-byte records, every integer little-endian.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "nqueens/checkpoint.hpp"

namespace nqueens::detail::journal {

inline constexpr std::array<unsigned char, 8> magic = {'N', 'Q', 'C', 'K', 'P', 'T', '\r', '\n'};
// 2: records carry the rotation-symmetric counts; the header, the plan scope.
// 3: a record's checksum goes on from its header's, so that it belongs to its run.
inline constexpr std::uint32_t format_version = 3;
inline constexpr std::size_t header_size = checkpoint_journal::header_size;
inline constexpr std::size_t record_size = checkpoint_journal::record_size;

enum class record_type : std::uint32_t { subproblem = 1, complete = 2 };

/// A little-endian field: where it starts in its header or record, and its width.
struct field {
  std::size_t offset;
  int bytes;
};

namespace header {
inline constexpr field version{8, 4}, n{12, 4}, engine{16, 4}, split_depth{20, 4}, fingerprint{24, 8},
    subproblems{32, 8}, shard_index{40, 4}, shard_count{44, 4}, scope{48, 4}, checksum{56, 8};
}  // namespace header

namespace record {
inline constexpr field type{0, 4}, index{4, 4}, total{8, 8}, unique{16, 8}, symmetric_180{24, 8}, symmetric_90{32, 8},
    checksum{40, 8};
}  // namespace record

void put(unsigned char* bytes, field f, std::uint64_t value) noexcept;
std::uint64_t get(const unsigned char* bytes, field f) noexcept;
/// 64-bit FNV-1a of the first `size` bytes: what ends every header. A
/// record's goes on from its header's checksum (`from`): the hash of the
/// header's bytes then the record's, so that a record copied from another
/// run's journal fails it.
std::uint64_t checksum(const unsigned char* bytes, std::size_t size, std::optional<std::uint64_t> from = {}) noexcept;
/// True when the checksum field `f` holds the checksum of the bytes before
/// it (going on from `from`).
bool checksum_matches(const unsigned char* bytes, field f, std::optional<std::uint64_t> from = {}) noexcept;

/// The header of the journal of shard `shard` of plan `p`.
std::array<unsigned char, header_size> header_for(const plan& p, shard_spec shard);
/// A record of the journal whose header's checksum is `run`, checksum included.
std::array<unsigned char, record_size> record_for(record_type type, std::size_t index, const subproblem_count& c,
                                                  std::uint64_t run);
/// The counts a record holds.
subproblem_count counts_of(const unsigned char* record) noexcept;
/// Whether a header names a count of every solution (not the rotation-
/// symmetric ones alone) by `kind` on an n-board, shard `shard`: the run
/// that resumes it, its split depth aside.
bool names_run_of(const unsigned char* header, int n, engine kind, shard_spec shard) noexcept;
/// "n = 12, engine symmetric, split depth 4, plan 0123456789abcdef[, shard 1/4]" from a header.
std::string describe_run(const unsigned char* header);

}  // namespace nqueens::detail::journal
