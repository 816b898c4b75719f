// The journal a run appends to: records queued by the workers, written and
// fsynced by each flush, and the completion mark. Its bytes are
// journal_layout's; its file journal_file.cpp's; its replay journal_replay.cpp's.

#include "nqueens/checkpoint.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "run/journal_io.hpp"
#include "run/journal_layout.hpp"
#include "run/journal_state.hpp"

namespace nqueens {

using detail::journal_name;
using detail::journal::record_for;
using detail::journal::record_size;
using detail::journal::record_type;

checkpoint_journal::checkpoint_journal(checkpoint_file file, const plan& p, shard_spec shard,
                                       const std::atomic<bool>* cancel)
    : state_(std::make_unique<state>()) {
  state_->file = std::move(file);
  state_->path = state_->file.path();
  state_->held.assign((p.size() + 63) / 64, 0);
  if (state_->file.exists()) {
    load(p, shard, cancel);
    if (state_->file.read_only() && !state_->complete) {
      throw checkpoint_error(checkpoint_error::reason::unusable,
                             journal_name(state_->path) +
                                 " cannot be written (it is read-only) and its run is not finished; make it writable "
                                 "to resume, or give another --checkpoint");
    }
  } else {
    create(p, shard);
  }
}

const std::string& checkpoint_journal::path() const noexcept { return state_->path; }

bool checkpoint_journal::holds(std::size_t index) const noexcept {
  const std::vector<std::uint64_t>& held = state_->held;
  return index / 64 < held.size() && ((held[index / 64] >> (index % 64)) & 1U) != 0;
}

const totals& checkpoint_journal::held() const noexcept { return state_->held_sums; }

std::size_t checkpoint_journal::finished_count() const noexcept { return state_->held_sums.finished; }

bool checkpoint_journal::complete() const noexcept { return state_->complete; }

std::size_t checkpoint_journal::dropped_bytes() const noexcept { return state_->dropped_bytes; }

checkpoint_journal::~checkpoint_journal() {
  try {
    flush();
  } catch (...) {  // best effort: the journal stays valid up to its last whole record
  }
}

void checkpoint_journal::record(std::size_t index, const subproblem_count& c) {
  const auto bytes = record_for(record_type::subproblem, index, c);
  const std::lock_guard lock(state_->mutex);
  state_->pending.insert(state_->pending.end(), bytes.begin(), bytes.end());
}

// Appends whole records, or nothing: a failed write (a full disk, a file-size
// limit) is cut back to the last whole record, and the journal takes no more,
// so what it holds stays valid for a later resume.
void checkpoint_journal::append(const unsigned char* bytes, std::size_t size) {
  if (state_->failed) {
    throw checkpoint_error(checkpoint_error::reason::write, "writing " + journal_name(state_->path) +
                                                                " failed earlier; it holds what was written before");
  }
  const int fd = state_->file.fd_;
  const off_t before = ::lseek(fd, 0, SEEK_CUR);
  const std::size_t written = before >= 0 ? detail::write_all(fd, bytes, size) : 0;
  if (before < 0 || written < size || ::fsync(fd) != 0) {
    const int error = errno;
    state_->failed = true;
    // Keep the whole records that went out (a file-size limit or a full disk
    // stops a write part-way), cut the rest.
    const off_t keep = before + static_cast<off_t>(written / record_size * record_size);
    if (before >= 0 && ::ftruncate(fd, keep) == 0) {
      ::fsync(fd);
      ::lseek(fd, keep, SEEK_SET);
    }
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing " + journal_name(state_->path) + " failed: " + std::strerror(error));
  }
}

void checkpoint_journal::flush() {
  std::vector<unsigned char> out;
  {
    const std::lock_guard lock(state_->mutex);
    out.swap(state_->pending);
  }
  if (!out.empty()) append(out.data(), out.size());
}

void checkpoint_journal::mark_complete() {
  if (state_->complete) return;  // a finished journal is never appended to
  flush();
  const auto bytes = record_for(record_type::complete, 0, {});
  append(bytes.data(), bytes.size());
  state_->complete = true;
}

}  // namespace nqueens
