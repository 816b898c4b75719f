// The checkpoint journal (checkpoint.hpp): its file, opened and locked before
// the plan is built (checkpoint_file) or created whole once it is; the
// records the workers queue, written and fsynced by each flush; the
// completion mark. Its bytes are journal_layout's, its replay
// journal_replay's, its POSIX calls journal_io's.

#include "nqueens/checkpoint.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "nqueens/shard.hpp"
#include "run/journal/journal_io.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/journal/journal_replay.hpp"
#include "run/journal/journal_state.hpp"
#include "run/posix_io.hpp"
#include "run/temporary_name.hpp"

namespace nqueens {

namespace {
using namespace detail::journal;  // NOLINT(google-build-using-namespace): the format's own names
using detail::fail;
using detail::journal_name;

// Whether the journal open (and locked) on `fd`, whose checked header is
// `h`, ends with a completion mark whose checksum goes on from the header's.
// A failed call says no: the journal is then priced as a run.
bool ends_with_mark(int fd, const std::array<unsigned char, header_size>& h) noexcept {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size < header_size + record_size || (size - header_size) % record_size != 0) return false;
  std::array<unsigned char, record_size> last{};
  ssize_t got = 0;
  do {
    got = ::pread(fd, last.data(), last.size(), static_cast<off_t>(size - record_size));
  } while (got < 0 && errno == EINTR);
  return got == static_cast<ssize_t>(last.size()) &&
         get(last.data(), record::type) == static_cast<std::uint32_t>(record_type::complete) &&
         checksum_matches(last.data(), record::checksum, get(h.data(), header::checksum));
}

// Whether a link() failed with `error` because the file system has no hard
// links (vfat and exFAT say EPERM, others EOPNOTSUPP).
bool takes_no_hard_links(int error) { return error == EPERM || error == EOPNOTSUPP; }

}  // namespace

checkpoint_file::checkpoint_file(std::string path) : path_(std::move(path)) {
  using reason = checkpoint_error::reason;
  if (path_.empty()) fail(reason::unusable, "a checkpoint needs a file name");
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) {
    if (errno == ENOENT) return;  // created, whole, once the plan is known
    fail(reason::unusable, "cannot open " + journal_name(path_) + ": " + std::strerror(errno));
  }
  // A symlink could point a requeued job at some other run's journal, or at a
  // file that is not ours to write.
  if (S_ISLNK(st.st_mode))
    fail(reason::unusable, journal_name(path_) + " is a symbolic link; give the journal's real path");
  if (!S_ISREG(st.st_mode)) fail(reason::unusable, journal_name(path_) + " is not a regular file");
  // O_NONBLOCK: should a FIFO replace the file after the check above, open
  // and read return at once instead of waiting for a writer; fstat then
  // checks what was opened.
  fd_ = ::open(path_.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0 && (errno == EACCES || errno == EROFS || errno == EPERM)) {
    // A finished journal is only read: its owner may have made it read-only
    // (EPERM: immutable or append-only, chattr +i or +a).
    const int error = errno;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    read_only_ = fd_ >= 0;
    if (fd_ < 0) errno = error;
  }
  if (fd_ < 0) fail(reason::unusable, "cannot open " + journal_name(path_) + ": " + std::strerror(errno));
  try {
    struct stat opened {};
    if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      fail(reason::unusable, journal_name(path_) + " is not a regular file");
    }
    // The process's own output appended to it (`>> journal`) would land
    // after its records, or over its header (`1<> journal`): a journal no
    // run could read again.
    for (const auto& [fd, name] :
         {std::pair{STDOUT_FILENO, "standard output"}, std::pair{STDERR_FILENO, "standard error"}}) {
      struct stat out {};
      if (::fstat(fd, &out) == 0 && out.st_dev == opened.st_dev && out.st_ino == opened.st_ino) {
        fail(reason::unusable, journal_name(path_) + " is this process's " + name +
                                   ": its output would be written into the journal; send it elsewhere");
      }
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    detail::lock_exclusively(fd_, path_);
    // Removed between the open and the lock (a run that made it and was
    // stopped before it counted takes it away again): as if it had never
    // been there, so that this run makes the journal anew rather than
    // count into a file no resume would find.
    struct stat locked {};
    if (::fstat(fd_, &locked) == 0 && locked.st_nlink == 0) {
      ::close(fd_);
      fd_ = -1;
      read_only_ = false;
      return;
    }
    // The header first, so that no more than 64 bytes of a file that is not a
    // journal are ever read. An empty file is not a journal either: a journal
    // is created with its header.
    std::array<unsigned char, header_size> h{};
    const ssize_t got = detail::read_up_to(fd_, h.data(), h.size());
    if (got < 0) fail(reason::unusable, "cannot read " + journal_name(path_) + ": " + std::strerror(errno));
    // A journal's first bytes alone, fewer than its magic, are a header cut
    // short too, as 8 to 63 of them are, not another kind of file.
    const auto bytes_read = static_cast<std::size_t>(got);
    if (bytes_read == 0 || std::memcmp(h.data(), magic.data(), std::min(bytes_read, magic.size())) != 0) {
      fail(reason::corrupt, journal_name(path_) + " is not an nqueens checkpoint journal (" +
                                (got == 0 ? std::string("an empty file") : std::string("another kind of file")) +
                                "); it is left as it is: give another --checkpoint");
    }
    if (static_cast<std::size_t>(got) < h.size()) {
      fail(reason::corrupt, journal_name(path_) + " has a header cut short (" + std::to_string(got) + " of its " +
                                std::to_string(h.size()) + " bytes)");
    }
    if (!checksum_matches(h.data(), header::checksum)) {
      fail(reason::corrupt, journal_name(path_) + " has a damaged header (checksum mismatch)");
    }
    if (get(h.data(), header::version) != format_version) {
      fail(reason::foreign, journal_name(path_) + " has journal format " +
                                std::to_string(get(h.data(), header::version)) + ", this build reads format " +
                                std::to_string(format_version) +
                                " (finish that run with the build that started it, or start afresh)");
    }
    finished_ = ends_with_mark(fd_, h);  // the size now the file is locked
    header_ = h;
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

checkpoint_file::checkpoint_file(checkpoint_file&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      read_only_(other.read_only_),
      finished_(std::exchange(other.finished_, false)),
      header_(other.header_) {}

checkpoint_file& checkpoint_file::operator=(checkpoint_file&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    read_only_ = other.read_only_;
    finished_ = std::exchange(other.finished_, false);
    header_ = other.header_;
  }
  return *this;
}

bool checkpoint_file::finished_run_of(const plan& p, shard_spec shard) const {
  return finished_ && get(header_.data(), header::checksum) == get(header_for(p, shard).data(), header::checksum);
}

bool checkpoint_file::finished_run_of(int n, engine kind, shard_spec shard) const noexcept {
  return finished_ && names_run_of(header_.data(), n, kind, shard);
}

void checkpoint_file::require_run_of(int n, engine kind, int split_depth, shard_spec shard, bool at_least) const {
  if (fd_ < 0) return;
  const std::uint64_t depth = get(header_.data(), header::split_depth), asked = static_cast<std::uint64_t>(split_depth);
  const bool same = names_run_of(header_.data(), n, kind, shard) &&
                    (split_depth == 0 || depth == asked || (at_least && depth > asked));
  if (same) return;
  std::string ours = "n = " + std::to_string(n) + ", engine " + std::string(to_string(kind));
  if (split_depth != 0)
    ours += ", split depth " + std::string(at_least ? "at least " : "") + std::to_string(split_depth);
  if (!shard.whole()) ours += ", shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count);
  throw checkpoint_error(checkpoint_error::reason::foreign,
                         journal_name(path_) + " belongs to another run (" + describe_run(header_.data()) +
                             "), not this one (" + ours +
                             "); resume it with the options it names, or use another checkpoint file");
}

checkpoint_file::~checkpoint_file() {
  if (fd_ >= 0) ::close(fd_);
}

// A new journal appears whole or not at all: an unnamed file (O_TMPFILE) in
// the target's directory gets the header, is locked and fsynced, then linked
// under its name. link() never replaces a file: if another run created the
// journal meanwhile, this one is refused. Where O_TMPFILE or /proc is missing,
// a named temporary file does the same (and is left behind only by a kill in
// the microseconds between its creation and its link).
void checkpoint_journal::create(const plan& p, shard_spec shard) {
  const auto header = header_for(p, shard);
  int& fd = state_->file.fd_;
  // Nothing is created before counting starts unless it is whole: every
  // failure here is a refusal (exit 2), the disk-full kind included.
  const auto refuse = [&](const std::string& what, int error, const std::string& temporary) {
    if (!temporary.empty()) ::unlink(temporary.c_str());
    if (fd >= 0) ::close(fd);
    fd = -1;
    fail(checkpoint_error::reason::unusable,
         error == EEXIST ? journal_name(state_->path) + " was created by another run meanwhile; it is left to that run"
                         : what + " " + journal_name(state_->path) + ": " + std::strerror(error));
  };
  // The new name reaches the disk with its directory's fsync; where that
  // fails, a crash could take the name and a long run's journal with it,
  // unseen: the journal just made is taken away again and refused.
  const auto settle_name = [&](const std::filesystem::path& target) {
    const int error = detail::sync_directory_of(target);
    if (error == 0) return;
    // Unlinked only while the name is still the file this run made (what
    // a failing disk's seconds-long fsync let change is left alone).
    struct stat made {};
    struct stat named {};
    if (::fstat(fd, &made) == 0 && ::lstat(target.c_str(), &named) == 0 && made.st_dev == named.st_dev &&
        made.st_ino == named.st_ino) {
      ::unlink(target.c_str());
    }
    refuse("cannot create", error, "");
  };
  const auto prepare = [&](const std::string& temporary) {
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) refuse("cannot lock", errno, temporary);
    if (detail::write_all(fd, header.data(), header.size()) != header.size() || ::fsync(fd) != 0)
      refuse("cannot write", errno, temporary);
  };
  // A relative name in a working directory that was deleted has no absolute
  // path: that too is a journal that cannot be created.
  std::error_code absolute_error;
  const std::filesystem::path target = std::filesystem::absolute(state_->path, absolute_error);
  if (absolute_error) {
    // getcwd's ENOENT says no more than "No such file or directory".
    fail(checkpoint_error::reason::unusable,
         "cannot create " + journal_name(state_->path) + ": " + std::strerror(absolute_error.value()) +
             (absolute_error.value() == ENOENT ? " (the working directory was deleted: give the journal a full path)"
                                               : ""));
  }
  fd = ::open(target.parent_path().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EROFS)) {
    refuse("cannot create", errno, "");
  }
  if (fd >= 0) {
    prepare("");
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      settle_name(target);
      return;
    }
    if (errno == EEXIST || (std::filesystem::exists("/proc/self/fd") && !takes_no_hard_links(errno))) {
      refuse("cannot create", errno, "");
    }
    ::close(fd);  // no /proc to link through, or no hard links: the named way below
    fd = -1;
  }
  std::string temporary = detail::temporary_name_for(target);
  fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) refuse("cannot create", errno, "");
  ::fchmod(fd, 0644);
  prepare(temporary);
  if (::link(temporary.c_str(), target.c_str()) == 0) {
    ::unlink(temporary.c_str());
  } else if (!takes_no_hard_links(errno)) {
    refuse("cannot create", errno, temporary);
  } else if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) != 0) {
    // A file system with no hard links (vfat, exFAT, some SMB and FUSE
    // mounts) renames without replacing instead, where it can.
    refuse(errno == EINVAL ? "cannot create (its file system takes neither hard links nor a rename that replaces "
                             "nothing, one of which makes a new journal appear whole)"
                           : "cannot create",
           errno, temporary);
  }
  settle_name(target);
}

using detail::journal_name;
using detail::journal::record_for;
using detail::journal::record_size;
using detail::journal::record_type;

checkpoint_journal::checkpoint_journal(checkpoint_file file, const plan& p, shard_spec shard,
                                       const std::atomic<bool>* cancel)
    : state_(std::make_unique<state>()) {
  require_valid_shard(shard);  // before a header could name it
  if (file.empty()) {          // checkpoint_file() is no journal: not a file named ''
    throw checkpoint_error(checkpoint_error::reason::unusable, "a checkpoint needs a file name");
  }
  state_->file = std::move(file);
  state_->path = state_->file.path();
  std::error_code no_absolute;
  state_->absolute_path = std::filesystem::absolute(state_->path, no_absolute).string();
  if (no_absolute) state_->absolute_path.clear();
  state_->subproblems = p.size();
  state_->run = detail::journal::get(detail::journal::header_for(p, shard).data(), detail::journal::header::checksum);
  state_->held.assign((p.size() + 63) / 64, 0);
  state_->owned.emplace(p, shard);
  if (state_->file.exists()) {
    load(p, shard, cancel);
    const std::size_t mine = state_->owned->size();
    // Every record but the mark (a run stopped as it finished): read as
    // finished, the mark left unwritten, as the file cannot take it.
    if (state_->file.read_only() && !state_->complete && state_->held_sums.finished == mine) {
      state_->complete = true;
    }
    if (state_->file.read_only() && !state_->complete) {
      throw checkpoint_error(checkpoint_error::reason::unusable,
                             journal_name(state_->path) + " cannot be written (it is read-only) and holds " +
                                 std::to_string(state_->held_sums.finished) + " of the " + std::to_string(mine) +
                                 " subproblems of its run; make it writable to resume, or give another --checkpoint");
    }
  } else {
    create(p, shard);
    state_->created = true;
  }
  state_->shard = shard;
  state_->held_sums.subproblems = state_->owned->size();  // held().complete(): every subproblem of the shard held
  if (!state_->complete) {                                // a finished journal takes no record
    state_->recorded = state_->held;
    state_->recorded_count = state_->held_sums.finished;
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
  // Written, a record of another plan's index would make the journal refuse
  // every later resume; here it is the caller's error.
  if (index >= state_->subproblems) {
    throw std::out_of_range("checkpoint_journal::record: subproblem " + std::to_string(index) +
                            " is not in the plan of " + std::to_string(state_->subproblems));
  }
  if (state_->complete) {  // a record after the mark: every later resume would refuse the journal
    throw std::logic_error("checkpoint_journal::record: " + journal_name(state_->path) +
                           " holds a finished run; it takes no more records");
  }
  if (!state_->owned->contains(index)) {  // as another plan's: the journal would refuse to resume
    throw std::out_of_range("checkpoint_journal::record: subproblem " + std::to_string(index) + " is not in shard " +
                            std::to_string(state_->shard.index) + "/" + std::to_string(state_->shard.count) +
                            ", the journal's");
  }
  const auto bytes = record_for(record_type::subproblem, index, c, state_->run);
  const std::lock_guard lock(state_->mutex);
  if (state_->removed) {
    throw std::logic_error("checkpoint_journal::record: " + journal_name(state_->path) +
                           " was removed (remove_if_unused); it takes no more records");
  }
  state_->pending.insert(state_->pending.end(), bytes.begin(), bytes.end());
  std::uint64_t& word = state_->recorded[index / 64];
  const std::uint64_t bit = std::uint64_t{1} << (index % 64);
  state_->recorded_count += (word & bit) == 0 ? 1 : 0;
  word |= bit;
}

// Appends whole records, or nothing: a failed write (a full disk, a file-size
// limit) is cut back to the last whole record, and the journal takes no more,
// so what it holds stays valid for a later resume.
namespace {

// False only where the open file `fd` is known to be gone from `path`: no
// file there any more (ENOENT, ENOTDIR), another file there, or none of its
// names left. Where stat cannot tell (a directory made unreadable, an NFS
// server's passing error), true: a run is never ended on a guess.
bool at_its_path(int fd, const std::string& path) {
  if (path.empty()) return true;
  struct stat open_file {};
  if (::fstat(fd, &open_file) != 0) return true;
  if (open_file.st_nlink == 0) return false;
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0) return errno != ENOENT && errno != ENOTDIR;
  return named.st_dev == open_file.st_dev && named.st_ino == open_file.st_ino;
}

}  // namespace

void checkpoint_journal::append(const unsigned char* bytes, std::size_t size) {
  if (state_->failed) {
    throw checkpoint_error(checkpoint_error::reason::write, "writing " + journal_name(state_->path) +
                                                                " failed earlier; it holds what was written before");
  }
  if (state_->removed) {
    throw std::logic_error("checkpoint_journal: " + journal_name(state_->path) +
                           " was removed (remove_if_unused); nothing more is written to it");
  }
  const int fd = state_->file.fd_;
  state_->appended = true;
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
    // The remedy said with the failure: the result of a run that had counted
    // everything stands without it, a run cut short resumes from it.
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing " + journal_name(state_->path) + " failed: " + std::strerror(error) +
                               "; the journal keeps every whole record before it: the same command again, with room "
                               "to write, finishes it (counting only what it lacks)");
  }
  // Written, but where a resume looks for it? A journal deleted, moved or
  // replaced under a run took its records where no resume would find them,
  // and its lock no longer kept a second run off the path.
  if (!at_its_path(fd, state_->absolute_path)) {
    state_->failed = true;
    // The records flushed up to here went with the file: moved, it resumes
    // under its new name; deleted, they are lost.
    throw checkpoint_error(checkpoint_error::reason::write,
                           journal_name(state_->path) +
                               " was deleted, moved or replaced while the run wrote it: its records went with the "
                               "file, where a resume would not look, and the run writes it no more; to go on from "
                               "them, give the file's new name to --checkpoint (deleted, they are lost)");
  }
}

std::size_t checkpoint_journal::queued_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->pending.size();
}

void checkpoint_journal::flush() {
  const std::lock_guard flushing(state_->flushing);
  std::vector<unsigned char>& out = state_->writing;
  out.clear();
  {
    const std::lock_guard lock(state_->mutex);
    out.swap(state_->pending);
  }
  if (!out.empty()) append(out.data(), out.size());
}

bool checkpoint_journal::remove_if_unused() noexcept {
  // Both locks for the whole: no record slips in between the look and the
  // unlink, and none is taken after it (record() refuses a removed journal).
  const std::lock_guard flushing(state_->flushing);
  const std::lock_guard lock(state_->mutex);
  if (!state_->created || state_->removed || state_->appended || !state_->pending.empty()) return false;
  // Unlinked while still locked, and only while the name is certainly the
  // file made here (where stat cannot tell, it is left): a run that opened
  // it meanwhile finds it gone once it has the lock (checkpoint_file).
  const std::string& path = state_->absolute_path;
  struct stat made {};
  struct stat named {};
  if (path.empty() || ::fstat(state_->file.fd_, &made) != 0 || made.st_nlink == 0 ||
      ::stat(path.c_str(), &named) != 0 || named.st_dev != made.st_dev || named.st_ino != made.st_ino ||
      ::unlink(path.c_str()) != 0) {
    return false;
  }
  state_->removed = true;
  try {
    static_cast<void>(detail::sync_directory_of(path));  // the name's going reaches the disk, where it can
  } catch (...) {                                        // (it allocates): the file is removed all the same
  }
  return true;
}

void checkpoint_journal::mark_complete() {
  if (state_->complete) return;  // a finished journal is never appended to
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->recorded_count != state_->owned->size()) {  // the journal would refuse to resume
      throw std::logic_error("checkpoint_journal::mark_complete: " + std::to_string(state_->recorded_count) +
                             " of the " + std::to_string(state_->owned->size()) +
                             " subproblems are held or recorded; a run is complete only with all of them");
    }
  }
  flush();
  const auto bytes = record_for(record_type::complete, 0, {}, state_->run);
  append(bytes.data(), bytes.size());
  state_->complete = true;
}

void checkpoint_journal::load(const plan& p, shard_spec shard, const std::atomic<bool>* cancel) {
  detail::journal_contents c =
      detail::replay_journal(state_->file.fd_, state_->path, state_->file.read_only(), p, shard, cancel);
  state_->held = std::move(c.held);
  state_->held_sums = c.sums;
  state_->complete = c.complete;
  state_->dropped_bytes = c.dropped_bytes;
}

}  // namespace nqueens
