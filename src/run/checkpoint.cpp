#include "nqueens/checkpoint.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "run/fingerprint.hpp"
#include "run/shard_members.hpp"

namespace nqueens {
namespace {

constexpr std::array<unsigned char, 8> magic = {'N', 'Q', 'C', 'K', 'P', 'T', '\r', '\n'};
// 2: records carry the rotation-symmetric counts; the header, the plan scope.
constexpr std::uint32_t format_version = 2;
constexpr std::uint32_t record_subproblem = 1;
constexpr std::uint32_t record_complete = 2;

void put(unsigned char* at, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<unsigned char>(value >> (8 * i));
}
std::uint64_t get(const unsigned char* at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= std::uint64_t{at[i]} << (8 * i);
  return value;
}
std::uint64_t checksum(const unsigned char* bytes, std::size_t size) {
  detail::fnv1a hash;
  for (std::size_t i = 0; i < size; ++i) hash.add_byte(bytes[i]);
  return hash.value();
}

std::array<unsigned char, checkpoint_journal::header_size> header_for(const plan& p, shard_spec shard) {
  std::array<unsigned char, checkpoint_journal::header_size> h{};
  std::memcpy(h.data(), magic.data(), magic.size());
  put(h.data() + 8, format_version, 4);
  put(h.data() + 12, static_cast<std::uint64_t>(p.board_size()), 4);
  put(h.data() + 16, static_cast<std::uint64_t>(p.kind()), 4);
  put(h.data() + 20, static_cast<std::uint64_t>(p.split_depth()), 4);
  put(h.data() + 24, p.fingerprint(), 8);
  put(h.data() + 32, p.size(), 8);
  put(h.data() + 40, static_cast<std::uint64_t>(shard.index), 4);
  put(h.data() + 44, static_cast<std::uint64_t>(shard.count), 4);
  put(h.data() + 48, static_cast<std::uint64_t>(p.scope()), 4);
  put(h.data() + 56, checksum(h.data(), 56), 8);
  return h;
}

std::array<unsigned char, checkpoint_journal::record_size> record_for(std::uint32_t type, std::size_t index,
                                                                      const subproblem_count& c) {
  std::array<unsigned char, checkpoint_journal::record_size> r{};
  put(r.data(), type, 4);
  put(r.data() + 4, index, 4);
  put(r.data() + 8, c.total, 8);
  put(r.data() + 16, c.unique, 8);
  put(r.data() + 24, c.symmetric_180, 8);
  put(r.data() + 32, c.symmetric_90, 8);
  put(r.data() + 40, checksum(r.data(), 40), 8);
  return r;
}

// "n = 12, engine symmetric, split depth 4, plan 0123456789abcdef[, shard 1/4]" from a header.
std::string describe_run(const unsigned char* h) {
  std::string engine_name = "unknown";
  for (const engine e : all_engines()) {
    if (get(h + 16, 4) == static_cast<std::uint64_t>(e)) engine_name = to_string(e);
  }
  const bool rotational = get(h + 48, 4) == static_cast<std::uint64_t>(plan_scope::rotational);
  std::string out = "n = " + std::to_string(get(h + 12, 4)) +
                    (rotational ? ", rotation-symmetric solutions only"
                                : ", engine " + engine_name + ", split depth " + std::to_string(get(h + 20, 4))) +
                    ", plan " + format_fingerprint(get(h + 24, 8));
  if (get(h + 44, 4) > 1) out += ", shard " + std::to_string(get(h + 40, 4)) + "/" + std::to_string(get(h + 44, 4));
  return out;
}

// write() until everything is out; false with errno set on failure.
bool write_all(int fd, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// read() up to `size` bytes (fewer only at the end of the file); -1 on error.
ssize_t read_up_to(int fd, unsigned char* data, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

std::string journal_name(const std::string& path) { return "checkpoint '" + path + "'"; }

[[noreturn]] void fail(checkpoint_error::reason why, const std::string& what) { throw checkpoint_error(why, what); }

// An exclusive lock that dies with the process (flock: per open file, released
// by the kernel on exit or kill -9). Two runs on one journal would interleave
// their records; the second is refused instead.
void lock_exclusively(int fd, const std::string& path) {
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) {
      fail(checkpoint_error::reason::unusable,
           journal_name(path) + " is in use by another run (locked); wait for it to end, or give another --checkpoint");
    }
    fail(checkpoint_error::reason::unusable, "cannot lock " + journal_name(path) + ": " + std::strerror(errno));
  }
}

void sync_directory_of(const std::string& path) {
  const auto dir = std::filesystem::absolute(path).parent_path();
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

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
  if (fd_ < 0) fail(reason::unusable, "cannot open " + journal_name(path_) + ": " + std::strerror(errno));
  try {
    struct stat opened {};
    if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      fail(reason::unusable, journal_name(path_) + " is not a regular file");
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    lock_exclusively(fd_, path_);
    // The header first, so that no more than 64 bytes of a file that is not a
    // journal are ever read. An empty file is not a journal either: a journal
    // is created with its header.
    std::array<unsigned char, checkpoint_journal::header_size> h{};
    const ssize_t got = read_up_to(fd_, h.data(), h.size());
    if (got < 0) fail(reason::unusable, "cannot read " + journal_name(path_) + ": " + std::strerror(errno));
    if (static_cast<std::size_t>(got) < magic.size() || std::memcmp(h.data(), magic.data(), magic.size()) != 0) {
      fail(reason::corrupt, journal_name(path_) + " is not an nqueens checkpoint journal (" +
                                (got == 0 ? std::string("an empty file") : std::string("another kind of file")) +
                                "); it is left as it is: give another --checkpoint");
    }
    if (static_cast<std::size_t>(got) < h.size() || get(h.data() + 56, 8) != checksum(h.data(), 56)) {
      fail(reason::corrupt, journal_name(path_) + " has a damaged header (checksum mismatch)");
    }
    if (get(h.data() + 8, 4) != format_version) {
      fail(reason::foreign, journal_name(path_) + " has journal format " + std::to_string(get(h.data() + 8, 4)) +
                                ", this build reads format " + std::to_string(format_version) +
                                " (finish that run with the build that started it, or start afresh)");
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

checkpoint_file::checkpoint_file(checkpoint_file&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

checkpoint_file& checkpoint_file::operator=(checkpoint_file&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

checkpoint_file::~checkpoint_file() {
  if (fd_ >= 0) ::close(fd_);
}

checkpoint_journal::checkpoint_journal(checkpoint_file file, const plan& p, shard_spec shard,
                                       const std::atomic<bool>* cancel)
    : file_(std::move(file)), path_(file_.path()), held_((p.size() + 63) / 64, 0) {
  if (file_.exists()) {
    load(p, shard, cancel);
  } else {
    create(p, shard);
  }
}

// A new journal appears whole or not at all: an unnamed file (O_TMPFILE) in
// the target's directory gets the header, is locked and fsynced, then linked
// under its name. link() never replaces a file: if another run created the
// journal meanwhile, this one is refused. Where O_TMPFILE or /proc is missing,
// a named temporary file does the same (and is left behind only by a kill in
// the microseconds between its creation and its link).
void checkpoint_journal::create(const plan& p, shard_spec shard) {
  const auto header = header_for(p, shard);
  const std::filesystem::path target = std::filesystem::absolute(path_);
  int& fd = file_.fd_;
  // Nothing is created before counting starts unless it is whole: every
  // failure here is a refusal (exit 2), the disk-full kind included.
  const auto refuse = [&](const std::string& what, int error, const std::string& temporary) {
    if (!temporary.empty()) ::unlink(temporary.c_str());
    if (fd >= 0) ::close(fd);
    fd = -1;
    fail(checkpoint_error::reason::unusable,
         error == EEXIST ? journal_name(path_) + " was created by another run meanwhile; it is left to that run"
                         : what + " " + journal_name(path_) + ": " + std::strerror(error));
  };
  const auto prepare = [&](const std::string& temporary) {
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) refuse("cannot lock", errno, temporary);
    if (!write_all(fd, header.data(), header.size()) || ::fsync(fd) != 0) refuse("cannot write", errno, temporary);
  };
  fd = ::open(target.parent_path().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EROFS)) {
    refuse("cannot create", errno, "");
  }
  if (fd >= 0) {
    prepare("");
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      sync_directory_of(path_);
      return;
    }
    if (errno == EEXIST || std::filesystem::exists("/proc/self/fd")) refuse("cannot create", errno, "");
    ::close(fd);  // no /proc to link through: the named way below
    fd = -1;
  }
  std::string hidden = target.filename().string();
  hidden.insert(0, 1, '.');
  hidden.append(".XXXXXX");
  std::string temporary = (target.parent_path() / hidden).string();
  fd = ::mkstemp(temporary.data());
  if (fd < 0) refuse("cannot create", errno, "");
  ::fchmod(fd, 0644);
  prepare(temporary);
  if (::link(temporary.c_str(), target.c_str()) != 0) refuse("cannot create", errno, temporary);
  ::unlink(temporary.c_str());
  sync_directory_of(path_);
}

// Reads the records after a header checkpoint_file has checked, a block at a
// time (memory bounded whatever the file's size), and cuts off a torn tail.
void checkpoint_journal::load(const plan& p, shard_spec shard, const std::atomic<bool>* cancel) {
  using reason = checkpoint_error::reason;
  const int fd = file_.fd_;
  const std::string name = journal_name(path_);
  const auto expected = header_for(p, shard);
  std::array<unsigned char, header_size> h{};
  if (::lseek(fd, 0, SEEK_SET) != 0 || read_up_to(fd, h.data(), h.size()) != static_cast<ssize_t>(h.size())) {
    fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
  }
  if (std::memcmp(h.data(), expected.data(), header_size) != 0) {
    fail(reason::foreign, name + " belongs to another run (" + describe_run(h.data()) + "), not this one (" +
                              describe_run(expected.data()) + ")");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  const detail::shard_members owned(p, shard);  // the subproblems this shard counts
  const std::size_t owned_count = owned.size();
  const auto bit_of = [](const std::vector<std::uint64_t>& bits, std::size_t i) {
    return ((bits[i / 64] >> (i % 64)) & 1U) != 0;
  };

  // The first record that fails its checksum starts the tail. A crash during
  // one flush can leave there only what that flush was writing: a record cut
  // short, and zeros where the file grew before its data reached the disk (a
  // record may straddle the last page that did). So the tail is torn, and cut
  // off, when every byte past the first record_size - 1 of it is zero; any
  // other byte there is damage.
  struct repeat {
    std::size_t index, record_number;
    subproblem_count count;
  };
  std::vector<repeat> repeats;  // records of a subproblem already held (none in a journal a run wrote)
  constexpr std::size_t block_records = 4096;
  std::vector<unsigned char> block(block_records * record_size);
  std::uint64_t offset = header_size;  // of block[0]
  std::optional<std::uint64_t> tail;   // where the torn tail starts
  std::size_t record_number = 0;
  for (;;) {
    detail::throw_if_cancelled(cancel);  // a block of 4096 records: well under a millisecond
    const ssize_t got = read_up_to(fd, block.data(), block.size());
    if (got < 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
    const auto size = static_cast<std::size_t>(got);
    for (std::size_t at = 0; at < size; at += record_size) {
      const unsigned char* r = block.data() + at;
      const std::uint64_t where_bytes = offset + at;
      const std::size_t length = std::min(record_size, size - at);
      if (!tail && (length < record_size || get(r + 40, 8) != checksum(r, 40))) {
        // Nothing is written after the mark: whatever follows it is damage,
        // never a torn flush to cut off.
        if (complete_) {
          fail(reason::corrupt, name + ": " + std::to_string(file_size - where_bytes) + " bytes at byte " +
                                    std::to_string(where_bytes) + " follow the completion mark");
        }
        tail = where_bytes;
        // One flush writes at most a record per subproblem: a longer tail is
        // no torn flush (and a sparse terabyte is not scanned to find out).
        if (file_size - where_bytes > (p.size() + 1) * record_size) {
          fail(reason::corrupt, name + ": record " + std::to_string(record_number) + " at byte " +
                                    std::to_string(where_bytes) + " is damaged (checksum mismatch), and " +
                                    std::to_string(file_size - where_bytes) +
                                    " bytes follow it, more than one flush writes");
        }
      }
      if (tail) {
        for (std::size_t k = 0; k < length; ++k) {
          if (r[k] != 0 && where_bytes + k >= *tail + record_size - 1) {
            fail(reason::corrupt, name + ": record " + std::to_string((*tail - header_size) / record_size) +
                                      " at byte " + std::to_string(*tail) +
                                      " is damaged (checksum mismatch), and it is no torn end: byte " +
                                      std::to_string(where_bytes + k) + " is not zero");
          }
        }
        continue;
      }
      const std::string where =
          name + ": record " + std::to_string(record_number) + " at byte " + std::to_string(where_bytes);
      if (complete_) fail(reason::corrupt, where + " follows the completion mark");
      const auto type = static_cast<std::uint32_t>(get(r, 4));
      const auto index = static_cast<std::size_t>(get(r + 4, 4));
      const subproblem_count c{get(r + 8, 8), get(r + 16, 8), get(r + 24, 8), get(r + 32, 8)};
      if (type == record_complete) {
        if (held_sums_.finished != owned_count)
          fail(reason::corrupt, where + " marks the run complete with subproblems missing");
        complete_ = true;
      } else if (type == record_subproblem && index < p.size() && owned.contains(index)) {
        if (bit_of(held_, index)) {
          // Harmless if it repeats the first record: checked below, once the
          // first ones are known (a bit each is all this pass keeps).
          if (repeats.size() >= owned_count) {
            fail(reason::corrupt, where + " repeats a subproblem: more records than the shard has subproblems");
          }
          repeats.push_back({index, record_number, c});
        } else {
          held_[index / 64] |= std::uint64_t{1} << (index % 64);
          accumulate(held_sums_, c);
        }
      } else {
        fail(reason::corrupt, where + " is not a valid record");
      }
      ++record_number;
    }
    offset += size;
    if (size < block.size()) break;
  }
  const std::uint64_t keep = tail.value_or(offset);
  if (!repeats.empty()) {
    // A repeated record must say what its subproblem's first record said:
    // one more pass, looking only at the subproblems repeated.
    std::sort(repeats.begin(), repeats.end(), [](const repeat& a, const repeat& b) {
      return a.index != b.index ? a.index < b.index : a.record_number < b.record_number;
    });
    const auto slot = [&](std::size_t index) {  // the first repeat of `index`
      return static_cast<std::size_t>(std::lower_bound(repeats.begin(), repeats.end(), index,
                                                       [](const repeat& r, std::size_t i) { return r.index < i; }) -
                                      repeats.begin());
    };
    std::vector<std::optional<subproblem_count>> first(repeats.size());
    if (::lseek(fd, static_cast<off_t>(header_size), SEEK_SET) < 0) {
      fail(reason::unusable, "cannot seek in " + name + ": " + std::strerror(errno));
    }
    for (std::uint64_t at_byte = header_size; at_byte < keep;) {
      const ssize_t got =
          read_up_to(fd, block.data(), static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), keep - at_byte)));
      if (got <= 0) fail(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
      for (std::size_t at = 0; at + record_size <= static_cast<std::size_t>(got); at += record_size) {
        const unsigned char* r = block.data() + at;
        if (get(r, 4) != record_subproblem) continue;
        const std::size_t k = slot(static_cast<std::size_t>(get(r + 4, 4)));
        if (k < repeats.size() && repeats[k].index == get(r + 4, 4) && !first[k]) {
          first[k] = subproblem_count{get(r + 8, 8), get(r + 16, 8), get(r + 24, 8), get(r + 32, 8)};
        }
      }
      at_byte += static_cast<std::uint64_t>(got);
    }
    for (const repeat& r : repeats) {
      if (!(*first[slot(r.index)] == r.count)) {
        fail(reason::corrupt, name + ": record " + std::to_string(r.record_number) + " gives subproblem " +
                                  std::to_string(r.index) + " a second, different count");
      }
    }
  }
  if (keep != offset) {
    dropped_bytes_ = static_cast<std::size_t>(offset - keep);
    if (::ftruncate(fd, static_cast<off_t>(keep)) != 0 || ::fsync(fd) != 0) {
      fail(reason::unusable, "cannot repair " + name + ": " + std::strerror(errno));
    }
  }
  if (::lseek(fd, static_cast<off_t>(keep), SEEK_SET) < 0) {
    fail(reason::unusable, "cannot seek in " + name + ": " + std::strerror(errno));
  }
}

checkpoint_journal::~checkpoint_journal() {
  try {
    flush();
  } catch (...) {  // best effort: the journal stays valid up to its last whole record
  }
}

void checkpoint_journal::record(std::size_t index, const subproblem_count& c) {
  const auto bytes = record_for(record_subproblem, index, c);
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
  std::size_t written = 0;
  while (before >= 0 && written < size) {
    const ssize_t n = ::write(fd, bytes + written, size - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
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
  const auto bytes = record_for(record_complete, 0, {});
  append(bytes.data(), bytes.size());
  complete_ = true;
}

}  // namespace nqueens
