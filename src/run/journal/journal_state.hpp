#pragma once

// What an open checkpoint_journal holds, kept out of the public header.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/checkpoint.hpp"
#include "nqueens/shard.hpp"
#include "run/shard/shard_members.hpp"

namespace nqueens {

struct checkpoint_journal::state {
  checkpoint_file file;
  std::string path;
  // The path made absolute when the journal was opened, where each flush
  // looks that the journal still is (a chdir since changes nothing); empty
  // where it had none (a working directory deleted): not looked at.
  std::string absolute_path;
  std::size_t subproblems = 0;      // the plan's: record() takes no index past it
  std::uint64_t run = 0;            // the header's checksum, where every record's goes on from
  std::vector<std::uint64_t> held;  // a bit per subproblem of the plan
  totals held_sums;
  bool complete = false;
  // For remove_if_unused, under `mutex`: this journal made the file; a
  // write after the header was tried (a record or the mark, written or
  // not); the file was removed (no record or write is taken after).
  bool created = false;
  std::atomic<bool> appended = false;
  bool removed = false;
  std::size_t dropped_bytes = 0;
  bool failed = false;  // a write failed: the journal takes no more
  shard_spec shard;
  std::optional<detail::shard_members> owned;  // the shard's subproblems: record() takes no other
  mutable std::mutex mutex;
  std::vector<unsigned char> pending;  // records since the last flush, under `mutex`
  // What a flush writes, swapped with `pending` under `flushing`: both keep
  // their capacity, so the queue's memory stops growing once it has held
  // a flush's worth (a fresh vector each flush grew through reallocations
  // the allocator kept: 9 MiB at n = 19).
  std::mutex flushing;
  std::vector<unsigned char> writing;
  // Held, or recorded since it was opened, under `mutex`: mark_complete()
  // refuses a run with any missing, which the journal would refuse to resume.
  std::vector<std::uint64_t> recorded;
  std::size_t recorded_count = 0;
};

}  // namespace nqueens
