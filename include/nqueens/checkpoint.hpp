#pragma once

/// \file
/// Checkpoint journal: an append-only file of finished subproblems, so that a
/// long count survives Ctrl-C, a crash or `kill -9` and resumes where it was.
///
/// Layout (little-endian): a 64-byte header naming the run (format version, n,
/// engine, split depth, plan fingerprint, subproblem count, shard, plan scope,
/// checksum), then 48-byte records (type, subproblem index, total, unique,
/// half-turn and quarter-turn counts, checksum). The last
/// record of a finished run marks it complete.
///
/// What survives what: a journal is created whole (header written under a
/// temporary name, then linked into place), so a kill never leaves an empty or
/// header-less one; every flush is fsynced, so a kill or crash loses at most
/// the records of the flush in progress. What such a flush can leave behind (a
/// short last record, or zeros where the file grew before its data reached the
/// disk) is cut off on open; any other damage is reported with its offset,
/// never skipped. The file is locked (flock) while a run holds it.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/shard.hpp"

namespace nqueens {

/// Why a journal could not be used.
class checkpoint_error : public std::runtime_error {
 public:
  enum class reason {
    foreign,   ///< the journal belongs to another n, engine or plan
    corrupt,   ///< damaged, or not a journal at all
    unusable,  ///< cannot be opened or created, a symlink, or locked by another run
    write,     ///< writing failed mid-run (e.g. the disk is full)
  };
  checkpoint_error(reason r, const std::string& what) : std::runtime_error(what), reason_(r) {}
  reason why() const noexcept { return reason_; }

 private:
  reason reason_;
};

/// A journal's file, taken before the plan is built: an existing one is
/// opened, locked against other runs and its header checked (magic, checksum,
/// format); a missing one is only named, and created by checkpoint_journal.
/// Refuses a symlink, something not a regular file, and a file that is not a
/// journal (an empty one included). Throws checkpoint_error.
class checkpoint_file {
 public:
  checkpoint_file() = default;  ///< no journal
  explicit checkpoint_file(std::string path);
  checkpoint_file(checkpoint_file&& other) noexcept;
  checkpoint_file& operator=(checkpoint_file&& other) noexcept;
  ~checkpoint_file();

  const std::string& path() const noexcept { return path_; }
  bool empty() const noexcept { return path_.empty(); }
  /// True when the file exists (and is open and locked).
  bool exists() const noexcept { return fd_ >= 0; }
  /// True when the file could only be opened for reading (its permissions, a
  /// read-only file system): enough for a finished journal, which is only
  /// read; checkpoint_journal refuses any other.
  bool read_only() const noexcept { return read_only_; }
  /// True when the file ends with its completion mark, the checksums of the
  /// header and the mark holding: a finished run's journal, which a count
  /// only reads, counting nothing (checkpoint_journal still checks that it
  /// is the run's, and every record).
  bool finished() const noexcept { return finished_; }
  /// finished(), and its header names shard `shard` of plan `p`: a run that
  /// counts nothing, so that no engine's tables need to fit.
  bool finished_run_of(const plan& p, shard_spec shard = {}) const;
  /// The same from the header's n, engine and shard alone (a whole count's
  /// scope), before a plan is built: false where no plan could match.
  bool finished_run_of(int n, engine kind, shard_spec shard = {}) const noexcept;
  /// Throws checkpoint_error (foreign) where the file holds a journal of
  /// another run than shard `shard` of a whole count of an n-board on
  /// `kind` at split depth `split_depth` (0: any; `at_least`: that one or
  /// deeper), as its header says: checked where a run is refused for its
  /// memory before its plan is whole, so that the refusal's remedies are
  /// not tried on a journal that no count with these options can resume.
  /// Nothing where there is no file.
  void require_run_of(int n, engine kind, int split_depth, shard_spec shard = {}, bool at_least = false) const;

 private:
  friend class checkpoint_journal;
  std::string path_;
  int fd_ = -1;
  bool read_only_ = false;
  bool finished_ = false;
  std::array<unsigned char, 64> header_{};  // checked; its checksum covers every field
};

/// An open journal for one plan. record() is thread-safe and does no I/O;
/// flush() writes and fsyncs what was recorded since the last flush.
class checkpoint_journal {
 public:
  static constexpr std::size_t header_size = 64;
  static constexpr std::size_t record_size = 48;

  /// Opens `file` for shard `shard` of plan `p` (the whole plan by default),
  /// creating it when missing. An existing journal must name the same run and
  /// shard; its records are read in bounded memory, and a torn tail is cut off
  /// the file (any byte after a completion mark is damage). A read-only file
  /// is taken only when it holds a finished run. Throws
  /// checkpoint_error; run_cancelled once `*cancel` is set (null: never)
  /// while the records are read, leaving the file as it was;
  /// std::invalid_argument for a shard out of range (require_valid_shard).
  checkpoint_journal(checkpoint_file file, const plan& p, shard_spec shard = {},
                     const std::atomic<bool>* cancel = nullptr);
  /// The same for `path`, opened here.
  checkpoint_journal(const std::string& path, const plan& p, shard_spec shard = {})
      : checkpoint_journal(checkpoint_file(path), p, shard) {}
  ~checkpoint_journal();
  checkpoint_journal(const checkpoint_journal&) = delete;
  checkpoint_journal& operator=(const checkpoint_journal&) = delete;

  const std::string& path() const noexcept;
  /// True when subproblem `index` was in the journal when it was opened.
  bool holds(std::size_t index) const noexcept;
  /// The exact sums of the subproblems the journal held when opened, their
  /// number (`finished`) and the shard's (`subproblems`, so that complete()
  /// says whether it held them all): what a resumed run starts from, kept in a
  /// bit per subproblem of the plan (9 MiB at n = 27), not a record each
  /// (and a second bit each for what is recorded since).
  const totals& held() const noexcept;
  std::size_t finished_count() const noexcept;
  /// True when the journal holds the completion mark of a finished run, or,
  /// read-only, every subproblem of its shard (a run stopped as it
  /// finished, whose mark the file cannot take: mark_complete() then writes
  /// nothing).
  bool complete() const noexcept;
  /// Bytes of a torn tail removed when the journal was opened.
  std::size_t dropped_bytes() const noexcept;

  /// Queues a finished subproblem for the next flush. Thread-safe. Throws
  /// std::out_of_range for an index outside the plan or outside the
  /// journal's shard, std::logic_error once the journal is complete (records
  /// the journal would refuse when resumed). A subproblem recorded again
  /// must get the same count: the journal keeps a bit per subproblem, not
  /// its count, so a second, different one is not refused here, and every
  /// resume then refuses the journal as corrupt.
  void record(std::size_t index, const subproblem_count& c);
  /// Bytes of the records queued since the last flush. Thread-safe.
  std::size_t queued_bytes() const;
  /// Appends the queued records and fsyncs. Throws checkpoint_error(write).
  /// The queue's memory is kept for the next records: a run that flushes
  /// at a bound on queued_bytes() holds that much, however long it runs.
  void flush();
  /// Flushes, then appends the completion mark, once: a journal that is
  /// already complete is left as it is. Throws std::logic_error, writing
  /// nothing, unless every subproblem of the shard is held or recorded.
  void mark_complete();
  /// Removes the file where this journal created it and nothing has been
  /// recorded or written to it since (its header alone: no work), so that a
  /// run stopped or failing before it counted leaves no journal that would
  /// bind the next run to its options. Returns true when the file was
  /// removed; false, leaving it, otherwise (a journal that was there before,
  /// one that took a record, one no longer certainly at its path). Once
  /// removed, record() throws std::logic_error and flush() writes nothing.
  bool remove_if_unused() noexcept;

 private:
  void load(const plan& p, shard_spec shard, const std::atomic<bool>* cancel);
  void create(const plan& p, shard_spec shard);
  void append(const unsigned char* bytes, std::size_t size);

  struct state;  // the file, what it held, the records waiting for a flush (checkpoint.cpp)
  std::unique_ptr<state> state_;
};

}  // namespace nqueens
