#pragma once

// What a journal's header names, read without taking the journal: the tools
// word a refusal by it (a kept journal resumes on its own engine and split
// depth; a shard's journal only by that shard's count) before any
// checkpoint_file opens it.

#include <optional>
#include <string>

#include "nqueens/engine.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/shard.hpp"

namespace nqueens::detail::journal {

/// The run that a journal's header names.
struct journal_run {
  int n = 0;
  engine kind = default_engine;
  int split_depth = 0;
  shard_spec shard;
  plan_scope scope = plan_scope::all;
};

/// What the journal at `path` names in its header, where the file starts
/// with a header this version writes; nullopt otherwise (no file, a FIFO,
/// something else, fields no run has). Its checksum is not read: a damaged
/// header is refused when the journal is opened.
std::optional<journal_run> journal_run_of(const std::string& path);

}  // namespace nqueens::detail::journal
