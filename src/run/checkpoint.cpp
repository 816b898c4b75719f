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

namespace nqueens {

using detail::journal_name;
using detail::journal::record_for;
using detail::journal::record_size;
using detail::journal::record_type;

checkpoint_journal::checkpoint_journal(checkpoint_file file, const plan& p, shard_spec shard,
                                       const std::atomic<bool>* cancel)
    : file_(std::move(file)), path_(file_.path()), held_((p.size() + 63) / 64, 0) {
  if (file_.exists()) {
    load(p, shard, cancel);
  } else {
    create(p, shard);
  }
}

checkpoint_journal::~checkpoint_journal() {
  try {
    flush();
  } catch (...) {  // best effort: the journal stays valid up to its last whole record
  }
}

void checkpoint_journal::record(std::size_t index, const subproblem_count& c) {
  const auto bytes = record_for(record_type::subproblem, index, c);
  const std::lock_guard lock(mutex_);
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
}

// Appends whole records, or nothing: a failed write (a full disk, a file-size
// limit) is cut back to the last whole record, and the journal takes no more,
// so what it holds stays valid for a later resume.
void checkpoint_journal::append(const unsigned char* bytes, std::size_t size) {
  if (failed_) {
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing " + journal_name(path_) + " failed earlier; it holds what was written before");
  }
  const int fd = file_.fd_;
  const off_t before = ::lseek(fd, 0, SEEK_CUR);
  const std::size_t written = before >= 0 ? detail::write_all(fd, bytes, size) : 0;
  if (before < 0 || written < size || ::fsync(fd) != 0) {
    const int error = errno;
    failed_ = true;
    // Keep the whole records that went out (a file-size limit or a full disk
    // stops a write part-way), cut the rest.
    const off_t keep = before + static_cast<off_t>(written / record_size * record_size);
    if (before >= 0 && ::ftruncate(fd, keep) == 0) {
      ::fsync(fd);
      ::lseek(fd, keep, SEEK_SET);
    }
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing " + journal_name(path_) + " failed: " + std::strerror(error));
  }
}

void checkpoint_journal::flush() {
  std::vector<unsigned char> out;
  {
    const std::lock_guard lock(mutex_);
    out.swap(pending_);
  }
  if (!out.empty()) append(out.data(), out.size());
}

void checkpoint_journal::mark_complete() {
  if (complete_) return;  // a finished journal is never appended to
  flush();
  const auto bytes = record_for(record_type::complete, 0, {});
  append(bytes.data(), bytes.size());
  complete_ = true;
}

}  // namespace nqueens
