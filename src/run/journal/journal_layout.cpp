#include "run/journal/journal_layout.hpp"

#include <cstring>

#include "engines/fingerprint.hpp"

namespace nqueens::detail::journal {

void put(unsigned char* bytes, field f, std::uint64_t value) noexcept {
  for (int i = 0; i < f.bytes; ++i)
    bytes[f.offset + static_cast<std::size_t>(i)] = static_cast<unsigned char>(value >> (8 * i));
}

std::uint64_t get(const unsigned char* bytes, field f) noexcept {
  std::uint64_t value = 0;
  for (int i = 0; i < f.bytes; ++i) value |= std::uint64_t{bytes[f.offset + static_cast<std::size_t>(i)]} << (8 * i);
  return value;
}

std::uint64_t checksum(const unsigned char* bytes, std::size_t size, std::optional<std::uint64_t> from) noexcept {
  fnv1a hash = from ? fnv1a(*from) : fnv1a();
  for (std::size_t i = 0; i < size; ++i) hash.add_byte(bytes[i]);
  return hash.value();
}

bool checksum_matches(const unsigned char* bytes, field f, std::optional<std::uint64_t> from) noexcept {
  return get(bytes, f) == checksum(bytes, f.offset, from);
}

subproblem_count counts_of(const unsigned char* r) noexcept {
  return {get(r, record::total), get(r, record::unique), get(r, record::symmetric_180), get(r, record::symmetric_90)};
}

std::array<unsigned char, header_size> header_for(const plan& p, shard_spec shard) {
  std::array<unsigned char, header_size> h{};
  std::memcpy(h.data(), magic.data(), magic.size());
  put(h.data(), header::version, format_version);
  put(h.data(), header::n, static_cast<std::uint64_t>(p.board_size()));
  // A rotational plan runs no engine: whatever kind it was built with, its
  // journal is the one rotational_counts resumes.
  const bool rotational = p.scope() == plan_scope::rotational;
  put(h.data(), header::engine, rotational ? 0 : static_cast<std::uint64_t>(p.kind()));
  put(h.data(), header::split_depth, static_cast<std::uint64_t>(p.split_depth()));
  put(h.data(), header::fingerprint, p.fingerprint());
  put(h.data(), header::subproblems, p.size());
  put(h.data(), header::shard_index, static_cast<std::uint64_t>(shard.index));
  put(h.data(), header::shard_count, static_cast<std::uint64_t>(shard.count));
  put(h.data(), header::scope, static_cast<std::uint64_t>(p.scope()));
  put(h.data(), header::checksum, checksum(h.data(), header::checksum.offset));
  return h;
}

std::array<unsigned char, record_size> record_for(record_type type, std::size_t index, const subproblem_count& c,
                                                  std::uint64_t run) {
  std::array<unsigned char, record_size> r{};
  put(r.data(), record::type, static_cast<std::uint64_t>(type));
  put(r.data(), record::index, index);
  put(r.data(), record::total, c.total);
  put(r.data(), record::unique, c.unique);
  put(r.data(), record::symmetric_180, c.symmetric_180);
  put(r.data(), record::symmetric_90, c.symmetric_90);
  put(r.data(), record::checksum, checksum(r.data(), record::checksum.offset, run));
  return r;
}

bool names_run_of(const unsigned char* h, int n, engine kind, shard_spec shard) noexcept {
  return get(h, header::n) == static_cast<std::uint64_t>(n) &&
         get(h, header::engine) == static_cast<std::uint64_t>(kind) &&
         get(h, header::shard_index) == static_cast<std::uint64_t>(shard.index) &&
         get(h, header::shard_count) == static_cast<std::uint64_t>(shard.count) &&
         get(h, header::scope) == static_cast<std::uint64_t>(plan_scope::all);
}

// "n = 12, engine symmetric, split depth 4, plan 0123456789abcdef[, shard 1/4]" from a header.
std::string describe_run(const unsigned char* h) {
  std::string engine_name = "unknown";
  for (const engine e : all_engines()) {
    if (get(h, header::engine) == static_cast<std::uint64_t>(e)) engine_name = to_string(e);
  }
  const bool rotational = get(h, header::scope) == static_cast<std::uint64_t>(plan_scope::rotational);
  std::string out =
      "n = " + std::to_string(get(h, header::n)) +
      (rotational ? ", rotation-symmetric solutions only"
                  : ", engine " + engine_name + ", split depth " + std::to_string(get(h, header::split_depth))) +
      ", plan " + format_fingerprint(get(h, header::fingerprint));
  if (get(h, header::shard_count) > 1)
    out += ", shard " + std::to_string(get(h, header::shard_index)) + "/" + std::to_string(get(h, header::shard_count));
  return out;
}

}  // namespace nqueens::detail::journal
