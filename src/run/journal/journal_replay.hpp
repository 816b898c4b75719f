#pragma once

// Replaying a journal: its records read back, a block at a time (memory
// bounded whatever the file's size), into the bit per subproblem and the
// exact sums a resumed run starts from; a torn tail is cut off, any other
// damage refused with its record and byte.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nqueens/plan.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/shard.hpp"

namespace nqueens::detail {

/// What a journal held when it was opened.
struct journal_contents {
  std::vector<std::uint64_t> held;  ///< a bit per subproblem of the plan
  totals sums;                      ///< of the subproblems held
  bool complete = false;            ///< the completion mark was read
  std::size_t dropped_bytes = 0;    ///< of a torn tail cut off
};

/// Reads the journal open on `fd` (named `path` in messages; its magic,
/// checksum and format already checked by checkpoint_file) for shard `shard`
/// of `p`, and leaves `fd` at the end of its last whole record. A torn tail is
/// cut off, unless the file is `read_only`. Throws checkpoint_error;
/// run_cancelled once `*cancel` is set (null: never), the file as it was.
journal_contents replay_journal(int fd, const std::string& path, bool read_only, const plan& p, shard_spec shard,
                                const std::atomic<bool>* cancel);

}  // namespace nqueens::detail
