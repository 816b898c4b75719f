#include "nqueens/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "fingerprint.hpp"

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

bool read_all(int fd, unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

checkpoint_journal::checkpoint_journal(const std::string& path, const plan& p, shard_spec shard)
    : path_(path), finished_(p.size(), 0), counts_(p.size()) {
  std::vector<std::uint8_t> owned(p.size(), 0);  // the subproblems this shard counts
  std::size_t owned_count = 0;
  for (const std::size_t i : shard_indices(p, shard)) {
    owned[i] = 1;
    ++owned_count;
  }
  using reason = checkpoint_error::reason;
  const std::string name = "checkpoint '" + path + "'";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw checkpoint_error(reason::unusable, "cannot open " + name + ": " + std::strerror(errno));
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      throw checkpoint_error(reason::unusable, name + " is not a regular file");
    }
    const auto expected = header_for(p, shard);
    auto size = static_cast<std::size_t>(st.st_size);
    std::vector<unsigned char> bytes(size);
    if (size > 0 && !read_all(fd_, bytes.data(), size)) {
      throw checkpoint_error(reason::unusable, "cannot read " + name + ": " + std::strerror(errno));
    }
    // A file shorter than a header is ours only if it is the start of the
    // header we would write (a crash while creating it): start it afresh.
    // Anything else is not ours to overwrite.
    if (size < header_size) {
      if (size > 0 && std::memcmp(bytes.data(), expected.data(), size) != 0) {  // memcmp wants non-null even for 0 bytes
        throw checkpoint_error(reason::corrupt, name + " is not an nqueens checkpoint journal");
      }
      if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0 ||
          !write_all(fd_, expected.data(), expected.size()) || ::fsync(fd_) != 0) {
        throw checkpoint_error(reason::unusable, "cannot write " + name + ": " + std::strerror(errno));
      }
      // Make the new file's directory entry durable too.
      const auto dir = std::filesystem::absolute(path).parent_path();
      if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
      }
      return;
    }
    const unsigned char* h = bytes.data();
    if (std::memcmp(h, magic.data(), magic.size()) != 0) {
      throw checkpoint_error(reason::corrupt, name + " is not an nqueens checkpoint journal");
    }
    if (get(h + 56, 8) != checksum(h, 56)) {
      throw checkpoint_error(reason::corrupt, name + " has a damaged header (checksum mismatch)");
    }
    if (get(h + 8, 4) != format_version) {
      throw checkpoint_error(reason::foreign, name + " has journal format " + std::to_string(get(h + 8, 4)) +
                                                  ", this build reads format " + std::to_string(format_version) +
                                                  " (finish that run with the build that started it, or start afresh)");
    }
    if (std::memcmp(h, expected.data(), header_size) != 0) {
      throw checkpoint_error(reason::foreign, name + " belongs to another run (" + describe_run(h) +
                                                  "), not this one (" + describe_run(expected.data()) + ")");
    }
    const std::size_t records = (size - header_size) / record_size;
    const std::size_t tail = (size - header_size) % record_size;
    std::size_t good = records;
    for (std::size_t k = 0; k < records; ++k) {
      const unsigned char* r = bytes.data() + header_size + k * record_size;
      const std::string where = name + ": record " + std::to_string(k) + " at byte " +
                                std::to_string(header_size + k * record_size);
      if (get(r + 40, 8) != checksum(r, 40)) {
        // A last record of zeros is a crash that extended the file before its
        // data reached the disk: torn, like a short one. Other damage is not.
        const bool zeros = std::all_of(r, r + record_size, [](unsigned char b) { return b == 0; });
        if (k + 1 == records && tail == 0 && zeros) {
          good = k;
          break;
        }
        throw checkpoint_error(reason::corrupt, where + " is damaged (checksum mismatch)");
      }
      if (complete_) throw checkpoint_error(reason::corrupt, where + " follows the completion mark");
      const auto type = static_cast<std::uint32_t>(get(r, 4));
      const auto index = static_cast<std::size_t>(get(r + 4, 4));
      const subproblem_count c{get(r + 8, 8), get(r + 16, 8), get(r + 24, 8), get(r + 32, 8)};
      if (type == record_complete) {
        if (finished_count_ != owned_count) {
          throw checkpoint_error(reason::corrupt, where + " marks the run complete with subproblems missing");
        }
        complete_ = true;
      } else if (type == record_subproblem && index < p.size() && owned[index] != 0) {
        if (finished_[index] != 0 && !(counts_[index] == c)) {
          throw checkpoint_error(reason::corrupt, where + " gives subproblem " + std::to_string(index) +
                                                      " a second, different count");
        }
        if (finished_[index] == 0) ++finished_count_;
        finished_[index] = 1;
        counts_[index] = c;
      } else {
        throw checkpoint_error(reason::corrupt, where + " is not a valid record");
      }
    }
    const std::size_t keep = header_size + good * record_size;
    if (keep != size) {
      dropped_bytes_ = size - keep;
      if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0 || ::fsync(fd_) != 0) {
        throw checkpoint_error(reason::unusable, "cannot repair " + name + ": " + std::strerror(errno));
      }
    }
    if (::lseek(fd_, static_cast<off_t>(keep), SEEK_SET) < 0) {
      throw checkpoint_error(reason::unusable, "cannot seek in " + name + ": " + std::strerror(errno));
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

checkpoint_journal::~checkpoint_journal() {
  try {
    flush();
  } catch (...) {  // best effort: the journal stays valid up to its last whole record
  }
  ::close(fd_);
}

void checkpoint_journal::record(std::size_t index, const subproblem_count& c) {
  const auto bytes = record_for(record_subproblem, index, c);
  const std::lock_guard lock(mutex_);
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
}

void checkpoint_journal::flush() {
  std::vector<unsigned char> out;
  {
    const std::lock_guard lock(mutex_);
    out.swap(pending_);
  }
  if (out.empty()) return;
  if (!write_all(fd_, out.data(), out.size()) || ::fsync(fd_) != 0) {
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing checkpoint '" + path_ + "' failed: " + std::strerror(errno));
  }
}

void checkpoint_journal::mark_complete() {
  flush();
  const auto bytes = record_for(record_complete, 0, {});
  if (!write_all(fd_, bytes.data(), bytes.size()) || ::fsync(fd_) != 0) {
    throw checkpoint_error(checkpoint_error::reason::write,
                           "writing checkpoint '" + path_ + "' failed: " + std::strerror(errno));
  }
  complete_ = true;
}

}  // namespace nqueens
