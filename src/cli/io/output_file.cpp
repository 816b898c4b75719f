#include "cli/io/output_file.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "cli/arguments.hpp"
#include "cli/message_text.hpp"
#include "run/journal/journal_layout.hpp"
#include "run/posix_io.hpp"
#include "run/temporary_name.hpp"

namespace nqueens::cli {
namespace {

// A run's only record of finished work, which a mistyped --csv must not
// replace: a file that starts with a journal's magic bytes.
bool starts_like_a_journal(int fd) {
  std::array<unsigned char, detail::journal::magic.size()> head{};
  return detail::read_up_to(fd, head.data(), head.size()) == static_cast<ssize_t>(head.size()) &&
         head == detail::journal::magic;
}

constexpr const char* kernels_file = "it is one of the kernel's files, not one to write a table to";

// Whether `fd` is on one of the kernel's file systems (/proc, /sys, cgroups
// and the like), whose files are the kernel's settings and switches: they
// call themselves regular files of 0 bytes, and root may write them.
bool on_a_kernel_file_system(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case BPF_FS_MAGIC:
    case EFIVARFS_MAGIC:
    case PSTOREFS_MAGIC:
    case SELINUX_MAGIC:
    case SMACK_MAGIC:
    case BINFMTFS_MAGIC:
    case 0x65735543:  // fusectl
    case 0x62656570:  // configfs, which linux/magic.h does not name
      return true;
    default:
      return false;
  }
}

// Gives `to` every extended attribute of the file `from` (its ACL, a
// security label, the user's own notes); false where one could not be
// read or set (a label only the privileged may set, a list that changed):
// the file is then written in place, which keeps them all.
bool copy_extended_attributes(const std::string& from, int to) {
  const int fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  bool copied = true;
  std::string names(256, '\0');
  ssize_t size = 0;
  while ((size = ::flistxattr(fd, names.data(), names.size())) < 0 && errno == ERANGE) names.resize(names.size() * 4);
  if (size < 0) {
    copied = errno == ENOTSUP;  // a file system that keeps none: nothing to copy
  } else {
    std::string value;
    for (std::size_t at = 0; copied && at < static_cast<std::size_t>(size); at = names.find('\0', at) + 1) {
      const char* name = names.c_str() + at;
      const ssize_t length = ::fgetxattr(fd, name, nullptr, 0);
      if (length < 0) {
        copied = false;
        break;
      }
      value.resize(static_cast<std::size_t>(length));
      copied = ::fgetxattr(fd, name, value.data(), value.size()) == length &&
               ::fsetxattr(to, name, value.data(), value.size(), 0) == 0;
    }
  }
  ::close(fd);
  return copied;
}

// The inode flags of `path` (chattr's: FS_APPEND_FL, ...); 0 where the
// file system keeps none.
int inode_flags(const char* path, bool directory) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (directory ? O_DIRECTORY : 0));
  if (fd < 0) return 0;
  int flags = 0;
  if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = 0;
  ::close(fd);
  return flags;
}

// Why the file `fd` (`size` bytes by its stat) may not be replaced: a file
// of the kernel's, a journal, or a file of some other kind than one whose
// first line is `own`'s; empty if it may. Emptiness is read, not taken from
// the size: /proc/sys/kernel/hostname says 0 bytes and holds the host's name.
std::string contents_refusal(int fd, off_t size, const own_first_line& own) {
  if (on_a_kernel_file_system(fd)) return kernels_file;
  if (starts_like_a_journal(fd)) return "it is a checkpoint journal (left as it is)";
  char first = 0;
  const ssize_t any = ::lseek(fd, 0, SEEK_SET) == 0 ? detail::read_up_to(fd, &first, 1) : -1;
  if (any == 0) return {};  // empty
  // The first line and its end: its newline, or the file's end.
  std::string start(own.now.size() + 2, '\0');
  const ssize_t got = ::lseek(fd, 0, SEEK_SET) == 0 ? detail::read_up_to(fd, start.data(), start.size()) : -1;
  bool mine = false;
  if (got >= 0) {
    start.resize(static_cast<std::size_t>(got));
    const std::size_t end = start.find('\n');
    if (end != std::string::npos || (size != 0 && static_cast<off_t>(got) == size)) {
      std::string_view line(start.data(), end == std::string::npos ? start.size() : end);
      if (line.ends_with('\r')) line.remove_suffix(1);
      mine = own.matches(line);
    }
  }
  if (!mine) return "it exists and is not one this tool wrote (left as it is: remove it first)";
  return {};
}

}  // namespace

bool own_first_line::matches(std::string_view line) const noexcept {
  return line.size() >= oldest.size() && now.starts_with(line) &&
         (line.size() == now.size() || now[line.size()] == ',');
}

output_file::output_file(const std::string& path, std::string what, own_first_line own)
    : path_(path), what_(std::move(what)), own_(own) {
  const auto refuse = [&](const std::string& why) {
    throw usage_error("cannot write " + what_ + " '" + path_ + "': " + why);
  };
  if (path.empty()) throw usage_error(what_ + " needs a file name");
  target_ = path;
  std::optional<mode_t> mode;        // of the file replaced, kept
  std::optional<struct stat> found;  // the file replaced
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      // Write where the link points and keep the link: renaming over the
      // link itself would replace it with a plain file.
      if (::stat(path.c_str(), &st) != 0) {
        refuse(errno == ENOENT ? std::string("a symlink to nothing (its target is missing)") : std::strerror(errno));
      }
      if (!S_ISREG(st.st_mode)) refuse("a symlink to something other than a file");
      std::error_code ec;
      target_ = std::filesystem::canonical(path, ec).string();
      if (ec) refuse(ec.message());
    }
    if (S_ISDIR(st.st_mode)) refuse("it is a directory");
    if (!S_ISREG(st.st_mode)) refuse("not a regular file");
    // The table goes to stdout: a --csv renamed over stdout's file would
    // leave it written to a file no name reaches.
    for (const auto& [fd, name] : {std::pair{1, "standard output"}, std::pair{2, "standard error"}}) {
      struct stat stream {};
      if (::fstat(fd, &stream) == 0 && stream.st_dev == st.st_dev && stream.st_ino == st.st_ino) {
        refuse(std::string("it is this command's ") + name);
      }
    }
    const int fd = ::open(target_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) refuse(std::string("cannot check its contents: ") + std::strerror(errno));
    // Replacing by rename needs no permission on the file itself: ask for it,
    // as opening it for writing would; after the kernel's files, said alike
    // whoever runs it (a read-only /proc/sys would refuse the permission
    // first). An append-only file (chattr +a) can be neither replaced nor
    // written over: refused now, not after the runs.
    std::string refusal;
    int flags = 0;
    if (on_a_kernel_file_system(fd)) {
      refusal = kernels_file;
    } else if (::access(target_.c_str(), W_OK) != 0) {
      refusal = std::strerror(errno);
    } else if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_APPEND_FL) != 0) {
      refusal = "it is append-only (chattr +a)";
    } else {
      refusal = contents_refusal(fd, st.st_size, own_);
    }
    ::close(fd);
    if (!refusal.empty()) refuse(refusal);
    mode = st.st_mode & 07777;
    found = st;
  } else if (errno != ENOENT) {
    refuse(std::strerror(errno));
  }
  const std::filesystem::path target(target_);
  if (!target.has_filename()) refuse("a file's name cannot end in '/'");  // none there: a directory was refused above
  // Unnamed until commit, so that a kill leaves nothing behind. Linking it
  // then needs /proc; without it (or O_TMPFILE), a named file from the start.
  const std::filesystem::path parent = target.parent_path().empty() ? "." : target.parent_path();
  // In an append-only folder (chattr +a) nothing can be renamed over the
  // file, nor a temporary name removed: written in place, or made there.
  const bool append_only_folder = (inode_flags(parent.c_str(), true) & FS_APPEND_FL) != 0;
  if (!append_only_folder && std::filesystem::exists("/proc/self/fd")) {
    fd_ = ::open(parent.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  }
  if (fd_ < 0 && !append_only_folder) {
    std::string name = detail::temporary_name_for(target);
    fd_ = ::mkstemp(name.data());
    if (fd_ < 0 && !found) refuse(std::string("cannot create a file in its directory: ") + std::strerror(errno));
    if (fd_ >= 0) temp_ = name;
  }
  if (!mode) {  // what creating the file would give: 0666 less the umask (mkstemp gives 0600)
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  // The file renamed over this one must be it to every name, owner and
  // extended attribute.
  bool renamed_is_same = fd_ >= 0;
  if (found && renamed_is_same) {
    renamed_is_same = found->st_nlink == 1 && ::fchown(fd_, found->st_uid, found->st_gid) == 0 &&
                      copy_extended_attributes(target_, fd_);
  }
  if ((found && !renamed_is_same) || append_only_folder) {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
    // Opened for writing now (nothing written), so that a file it cannot
    // write fails before any work; the commit opens what the name holds then.
    if (found) {
      const int probe = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
      if (probe < 0) refuse(std::strerror(errno));
      ::close(probe);
    } else if (::access(parent.c_str(), W_OK | X_OK) != 0) {
      refuse(std::string("cannot create a file in its directory: ") + std::strerror(errno));
    }
    fd_ = -1;
    in_place_ = true;
    in_place_mode_ = *mode;
    return;
  }
  if (::fchmod(fd_, *mode) != 0) {
    const int error = errno;
    ::close(fd_);  // no destructor runs for a constructor that throws
    if (!temp_.empty()) ::unlink(temp_.c_str());
    fail("setting its mode", error);
  }
}

output_file::~output_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void output_file::fail(const std::string& step, int error) const {
  throw std::runtime_error("cannot write " + what_ + " '" + path_ + "': " + std::strerror(error) + " (while " + step +
                           ")");
}

void output_file::write(std::string_view text) {
  if (in_place_) {
    in_place_text_ += text;  // a table's lines: the file is written at the commit
    return;
  }
  if (detail::write_all(fd_, text.data(), text.size()) != text.size()) fail("writing it", errno);
}

// A name for the unnamed file, to rename over the target: a kill from here
// to the rename (microseconds) is the only one that leaves it behind.
void output_file::link_temporary() {
  const std::string self = "/proc/self/fd/" + std::to_string(fd_);
  constexpr std::string_view letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device entropy;
  std::string name = detail::temporary_name_for(target_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    for (std::size_t i = name.size() - 6; i < name.size(); ++i) name[i] = letters[entropy() % letters.size()];
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_ = name;
      return;
    }
    if (errno != EEXIST) fail("putting it in place", errno);
  }
  fail("putting it in place", EEXIST);
}

// The target as it is now, checked again: a file may have come in its place
// while the runs went on (a journal a count began there, the user's notes).
void output_file::check_target_again() const {
  // Not blocking: a FIFO put there would wait for a writer forever.
  const int fd = ::open(target_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return;
    if (errno == ELOOP) {
      throw std::runtime_error("cannot write " + what_ + " '" + path_ +
                               "': it changed while the runs went on: a symlink took its place (left as it is)");
    }
    fail("checking it again", errno);
  }
  struct stat st {};
  std::string refusal;
  if (::fstat(fd, &st) != 0) {
    refusal = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    refusal = "it is not a regular file";
  } else {
    refusal = contents_refusal(fd, st.st_size, own_);
  }
  ::close(fd);
  if (!refusal.empty()) {
    throw std::runtime_error("cannot write " + what_ + " '" + path_ +
                             "': it changed while the runs went on: " + refusal);
  }
}

// The text written over the file the name holds now, checked again through
// the descriptor written (no other file can come between), or into a file
// made where none is left; from its first byte, and cut to the text's size
// only then: a write refused before its first byte (a file-size limit,
// checked first; no room, reserved first where the file system can) leaves
// the file as it was. No O_CREAT on an existing file: a sticky folder
// (fs.protected_regular) refuses it on another user's file even to root.
void output_file::commit_in_place() {
  int fd = ::open(target_.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  bool made = false;
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(target_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    made = fd >= 0;
  }
  if (fd < 0) {
    if (errno == ELOOP) {
      throw std::runtime_error("cannot write " + what_ + " '" + path_ +
                               "': it changed while the runs went on: a symlink took its place (left as it is)");
    }
    fail("opening it", errno);
  }
  const auto fail_closing = [&](const std::string& step, int error) {
    ::close(fd);
    fail(step, error);
  };
  // Locked from the check to the last byte: two runs committing at once
  // (a hard-linked --csv is written in place) wrote one table over the
  // other, then cut it to their own length. One held already is another
  // run's commit, of milliseconds, or a running count's journal, which the
  // check refuses without waiting for it. (No lock on a file system that
  // keeps none: as before.)
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    struct stat held {};
    if (::fstat(fd, &held) == 0 && S_ISREG(held.st_mode)) {
      if (const std::string refusal = contents_refusal(fd, held.st_size, own_); !refusal.empty()) {
        ::close(fd);
        throw std::runtime_error("cannot write " + what_ + " '" + path_ +
                                 "': it changed while the runs went on: " + refusal);
      }
    }
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) fail_closing("locking it", errno);
    }
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail_closing("checking it again", errno);
  std::string refusal = S_ISREG(st.st_mode) ? contents_refusal(fd, st.st_size, own_) : "it is not a regular file";
  if (!refusal.empty()) {
    ::close(fd);
    throw std::runtime_error("cannot write " + what_ + " '" + path_ +
                             "': it changed while the runs went on: " + refusal);
  }
  // Made again with the mode of the file it replaces, as a rename keeps it
  // (open's mode would pass through the umask).
  if (made && ::fchmod(fd, in_place_mode_) != 0) fail_closing("setting its mode", errno);
  const std::size_t size = in_place_text_.size();
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && size > limit.rlim_cur) {
    fail_closing("writing it", EFBIG);
  }
  if (size > 0 && ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(size)) != 0 && errno != EOPNOTSUPP &&
      errno != ENOSYS) {
    fail_closing("making room for it", errno);
  }
  constexpr const char* part_written = "writing it, which left it part written";
  std::size_t done = 0;
  while (done < size) {
    const ssize_t wrote = ::pwrite(fd, in_place_text_.data() + done, size - done, static_cast<off_t>(done));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) fail_closing(done == 0 ? "writing it" : part_written, wrote == 0 ? EIO : errno);
    done += static_cast<std::size_t>(wrote);
  }
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) fail_closing(part_written, errno);
  if (::fsync(fd) != 0) fail_closing(part_written, errno);
  if (::close(fd) != 0) fail(part_written, errno);
  committed_ = true;
}

void output_file::commit() {
  if (in_place_) {
    commit_in_place();
    return;
  }
  // On disk before the rename: a crash then leaves the old file or the whole
  // new one, never an empty one.
  if (::fsync(fd_) != 0) fail("writing it", errno);
  if (temp_.empty()) link_temporary();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("writing it", errno);
  check_target_again();  // last, so that what can change unseen is the rename's moment alone
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("putting it in place", errno);
  committed_ = true;
  // The rename reaches the disk with its directory. Where that fsync fails
  // (EIO), the file is whole and in place, but a crash could bring the old
  // one back: a warning, not a failure (a script goes on to plot it).
  if (const int error = detail::sync_directory_of(target_); error != 0) {
    std::cerr << "nqueens: warning: " << what_ << " '" << one_line(path_)
              << "' is written, but its directory could not be synced (" << std::strerror(error)
              << "): a crash now could bring back what it held before\n";
  }
}

}  // namespace nqueens::cli
