// scale's --csv file: whole or untouched, and never a file that is not one
// of its own, even one that came in its place while the runs went on.

#include "cli/io/output_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>

#include "cli/arguments.hpp"
#include "run/journal/journal_layout.hpp"

namespace nqueens::cli {
namespace {

constexpr std::string_view header = "threads,median_seconds\n";
// As scale's: its header, or an earlier one of fewer columns.
constexpr own_first_line own{.now = "threads,median_seconds,speedup", .oldest = "threads,median_seconds"};

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("nqueens-output-file-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "f.csv").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void put(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }
  std::string contents() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_), {}));
  }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(OutputFileTest, ReplacesItsOwnFileOnCommitOnly) {
  put(std::string(header) + "1,9.5\n");
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    EXPECT_EQ(contents(), std::string(header) + "1,9.5\n");  // untouched until the commit
    out.commit();
  }
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  EXPECT_EQ(entries(), 1u);  // no temporary file left
}

TEST_F(OutputFileTest, RefusesAForeignFileUpFront) {
  put("my notes\n");
  EXPECT_THROW(output_file(path_, "--csv file", own), usage_error);
  EXPECT_EQ(contents(), "my notes\n");
}

// An empty file is taken (a name the user made ready): read as empty, not
// judged by its size alone.
TEST_F(OutputFileTest, ReplacesAnEmptyFile) {
  put("");
  output_file out(path_, "--csv file", own);
  out.write(std::string(header));
  out.commit();
  EXPECT_EQ(contents(), header);
}

// The kernel's files (its settings and switches under /proc and /sys) say
// they are regular files of 0 bytes: one was taken as empty and written
// over (as root, a --csv of /proc/sys/kernel/hostname renamed the host).
// Said alike whoever runs the test, and whatever the container mounts
// read-only.
TEST_F(OutputFileTest, RefusesTheKernelsFiles) {
  for (const char* kernels :
       {"/proc/self/comm", "/proc/sys/kernel/hostname", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
    SCOPED_TRACE(kernels);
    if (!std::filesystem::exists(kernels)) continue;
    try {
      output_file out(kernels, "--csv file", own);
      ADD_FAILURE() << "taken";
    } catch (const usage_error& e) {  // before the permission, which a read-only /proc/sys refuses
      EXPECT_NE(std::string(e.what()).find("it is one of the kernel's files"), std::string::npos) << e.what();
    }
  }
}

// A file is its own only by its whole first line: the header now or an
// earlier one (fewer columns at the end, CRLF too), never a header with a
// column of the user's added or a name that only begins like one.
TEST_F(OutputFileTest, TellsItsOwnHeaderByTheWholeFirstLine) {
  for (const char* first : {"threads,median_seconds,speedup\n", "threads,median_seconds\n",
                            "threads,median_seconds\r\n", "threads,median_seconds,speedup"}) {
    SCOPED_TRACE(first);
    put(std::string(first) + (std::string_view(first).ends_with('\n') ? "1,0.5\n" : ""));
    EXPECT_NO_THROW(output_file(path_, "--csv file", own));
  }
  for (const char* first :
       {"threads,median_seconds,speedup,notes\n", "threads,median_secondsheet\n", "threads,median\n",
        "threads,median_seconds,speedup,efficiency\n", "threads,median_seconds,spee\n", "threads,median_seconds,"}) {
    SCOPED_TRACE(first);
    put(std::string(first) + "1,0.5\n");
    EXPECT_THROW(output_file(path_, "--csv file", own), usage_error);
    EXPECT_EQ(contents(), std::string(first) + "1,0.5\n");
  }
}

// A file written where there was none (or an empty one) while the runs went
// on is the user's: the commit keeps it and says so.
TEST_F(OutputFileTest, KeepsAForeignFileThatCameWhileItWasWritten) {
  output_file out(path_, "--csv file", own);
  out.write(std::string(header) + "1,0.25\n");
  put("notes typed meanwhile\n");
  try {
    out.commit();
    FAIL() << "the commit replaced a file it did not write";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("it changed while the runs went on: it exists and is not one this tool wrote"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(contents(), "notes typed meanwhile\n");
}

// A count begun meanwhile with its journal on the same name: the journal
// is the run's only record of its work.
TEST_F(OutputFileTest, KeepsAJournalThatCameWhileItWasWritten) {
  put("");
  output_file out(path_, "--csv file", own);
  out.write(std::string(header) + "1,0.25\n");
  const auto& magic = detail::journal::magic;
  const std::string journal(magic.begin(), magic.end());
  put(journal + "records");
  try {
    out.commit();
    FAIL() << "the commit replaced a journal";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("it is a checkpoint journal"), std::string::npos) << e.what();
  }
  EXPECT_EQ(contents(), journal + "records");
}

// A FIFO put there meanwhile is refused at once: opened to be read, it
// would have waited for a writer for ever.
TEST_F(OutputFileTest, RefusesAFifoThatCameWhileItWasWritten) {
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
    try {
      out.commit();
      FAIL() << "the commit replaced a FIFO";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("it changed while the runs went on: it is not a regular file"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(std::filesystem::is_fifo(path_));
  EXPECT_EQ(entries(), 1u);  // its temporary file removed once it is gone
}

// Its own kind of file, written meanwhile (another scale's), is replaced as
// it would have been at the start.
TEST_F(OutputFileTest, ReplacesItsOwnKindThatCameWhileItWasWritten) {
  output_file out(path_, "--csv file", own);
  out.write(std::string(header) + "2,0.5\n");
  put(std::string(header) + "1,0.25\n");
  out.commit();
  EXPECT_EQ(contents(), std::string(header) + "2,0.5\n");
}

// Another name for the same file sees the new text: written in place, not
// renamed over (which would leave the other name on the old file).
TEST_F(OutputFileTest, KeepsTheFileItsOtherNamesShare) {
  put(std::string(header) + "1,9.5\n");
  const std::string other = (dir_ / "other.csv").string();
  ASSERT_EQ(::link(path_.c_str(), other.c_str()), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path_.c_str(), &before), 0);
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    EXPECT_EQ(contents(), std::string(header) + "1,9.5\n");  // untouched until the commit
    out.commit();
  }
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  std::ifstream in(other, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), std::string(header) + "1,0.25\n");
  struct stat after {};
  ASSERT_EQ(::stat(path_.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(entries(), 2u);  // no temporary file left
}

// Written in place over a longer file, the new text is the whole file: the
// old one's tail is cut, not left after it as rows no run measured.
TEST_F(OutputFileTest, InPlaceCutsALongerOldFile) {
  put(std::string(header) + "1,9.5\n2,4.75\n3,3.5\n");
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    out.commit();
  }
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
}

// A file replaced keeps its mode (0640 stays 0640, not the temporary
// file's 0600); a new one gets 0666 less the umask, as a file the shell
// makes. (In place: InPlaceMakesAFileRemovedMeanwhile.)
TEST_F(OutputFileTest, KeepsTheModeOrGivesTheUmasks) {
  const auto mode_of = [](const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0);
    return st.st_mode & 07777;
  };
  struct umask_kept {
    mode_t before = ::umask(022);
    ~umask_kept() { ::umask(before); }
  } umask_022;
  {
    output_file out(path_, "--csv file", own);  // new
    out.write(std::string(header) + "1,0.5\n");
    out.commit();
  }
  EXPECT_EQ(mode_of(path_), 0644U);
  ASSERT_EQ(::chmod(path_.c_str(), 0640), 0);
  {
    output_file out(path_, "--csv file", own);  // renamed over
    out.write(std::string(header) + "1,0.25\n");
    out.commit();
  }
  EXPECT_EQ(mode_of(path_), 0640U);
}

// Written in place, a run that fails before its commit leaves the file as
// it was, as a rename would.
TEST_F(OutputFileTest, InPlaceLeavesTheFileUntouchedWithoutACommit) {
  put(std::string(header) + "1,9.5\n");
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
  }
  EXPECT_EQ(contents(), std::string(header) + "1,9.5\n");
}

// Written in place, a file removed while the runs went on is made again,
// as the rename would have made it: with the old file's mode, whatever the
// umask.
TEST_F(OutputFileTest, InPlaceMakesAFileRemovedMeanwhile) {
  put(std::string(header) + "1,9.5\n");
  ASSERT_EQ(::chmod(path_.c_str(), 0666), 0);
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  const mode_t mask = ::umask(022);
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    std::filesystem::remove(path_);
    out.commit();
  }
  ::umask(mask);
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0666u);
}

// Written in place, a file of another kind that took the name meanwhile is
// kept, and said so.
TEST_F(OutputFileTest, InPlaceKeepsAForeignFileThatCameMeanwhile) {
  put(std::string(header) + "1,9.5\n");
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  output_file out(path_, "--csv file", own);
  out.write(std::string(header) + "1,0.25\n");
  std::filesystem::remove(path_);
  put("notes typed meanwhile\n");
  try {
    out.commit();
    FAIL() << "the commit wrote over a file it did not write";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("it changed while the runs went on: it exists and is not one this tool wrote"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(contents(), "notes typed meanwhile\n");
}

// Written in place, a text past the file-size limit is refused before its
// first byte: the file keeps its old text (truncated first, it was lost).
TEST_F(OutputFileTest, InPlaceRefusedWriteLeavesTheOldText) {
  put(std::string(header) + "1,9.5\n");
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails, not kills
  std::string failure;
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n" + std::string(4096, 'x'));
    rlimit small = before;
    small.rlim_cur = 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    try {
      out.commit();
    } catch (const std::runtime_error& e) {
      failure = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &before);
  }
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(failure.find("(while writing it)"), std::string::npos) << failure;
  EXPECT_EQ(contents(), std::string(header) + "1,9.5\n");
}

// Replaced by root, a file keeps its owner and group: the rename's new file
// takes them first (a new inode: renamed, not written in place).
TEST_F(OutputFileTest, KeepsTheOwnerOfTheFileItReplaces) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another owner needs root";
  put(std::string(header) + "1,9.5\n");
  if (::chown(path_.c_str(), 65534, 65534) != 0) GTEST_SKIP() << "user 65534 is not mapped here";
  struct stat before {};
  ASSERT_EQ(::stat(path_.c_str(), &before), 0);
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    out.commit();
  }
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  struct stat after {};
  ASSERT_EQ(::stat(path_.c_str(), &after), 0);
  EXPECT_EQ(after.st_uid, 65534u);
  EXPECT_EQ(after.st_gid, 65534u);
  EXPECT_NE(after.st_ino, before.st_ino);
}

// A file's extended attributes (its ACL, a security label, notes of the
// user's) are the new file's too: renamed over, they were dropped.
TEST_F(OutputFileTest, KeepsTheExtendedAttributesOfTheFileItReplaces) {
  put(std::string(header) + "1,9.5\n");
  constexpr std::string_view note = "from the 2-core guest";
  if (::setxattr(path_.c_str(), "user.note", note.data(), note.size(), 0) != 0) {
    GTEST_SKIP() << "this file system keeps no user attributes: " << std::strerror(errno);
  }
  {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    out.commit();
  }
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  std::string kept(64, '\0');
  const ssize_t size = ::getxattr(path_.c_str(), "user.note", kept.data(), kept.size());
  ASSERT_GE(size, 0) << std::strerror(errno);
  kept.resize(static_cast<std::size_t>(size));
  EXPECT_EQ(kept, note);
  EXPECT_EQ(entries(), 1u);  // no temporary file left
}

// A directory that takes no new file (immutable here, which binds root too)
// still lets its writable file be rewritten.
TEST_F(OutputFileTest, WritesInPlaceWhereTheDirectoryTakesNoFile) {
  put(std::string(header) + "1,9.5\n");
  const int dir = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dir, 0);
  int flags = 0;
  bool immutable = ::ioctl(dir, FS_IOC_GETFLAGS, &flags) == 0;
  if (immutable) {
    flags |= FS_IMMUTABLE_FL;
    immutable = ::ioctl(dir, FS_IOC_SETFLAGS, &flags) == 0;
  }
  if (!immutable) {
    ::close(dir);
    GTEST_SKIP() << "this file system or user cannot make a directory immutable";
  }
  std::string failure;
  try {
    output_file out(path_, "--csv file", own);
    out.write(std::string(header) + "1,0.25\n");
    out.commit();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  flags &= ~FS_IMMUTABLE_FL;
  EXPECT_EQ(::ioctl(dir, FS_IOC_SETFLAGS, &flags), 0);  // before any assertion: TearDown must remove it
  ::close(dir);
  EXPECT_EQ(failure, "");
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
}

// Sets or clears chattr's `flag` on `path`; false where the file system or
// the user cannot.
bool set_inode_flag(const std::filesystem::path& path, int flag, bool on) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  int flags = 0;
  bool done = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  if (done) {
    flags = on ? (flags | flag) : (flags & ~flag);
    done = ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  }
  ::close(fd);
  return done;
}

// In an append-only directory (chattr +a) nothing can be renamed over a
// file nor a name removed: the table is written in place, or made there,
// and no temporary name is left behind (each run left one, undeletable).
TEST_F(OutputFileTest, WritesInPlaceInAnAppendOnlyDirectory) {
  put(std::string(header) + "1,9.5\n");
  if (!set_inode_flag(dir_, FS_APPEND_FL, true)) GTEST_SKIP() << "this file system or user cannot make it append-only";
  const std::string made = (dir_ / "new.csv").string();
  std::string failure;
  try {
    for (const std::string& name : {path_, made}) {
      output_file out(name, "--csv file", own);
      out.write(std::string(header) + "1,0.25\n");
      out.commit();
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  const std::size_t left = entries();
  EXPECT_TRUE(set_inode_flag(dir_, FS_APPEND_FL, false));  // before any assertion: TearDown must remove it
  EXPECT_EQ(failure, "");
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");
  std::ifstream in(made, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), std::string(header) + "1,0.25\n");
  EXPECT_EQ(left, 2u) << "a temporary name was left";
}

// An append-only file can be neither replaced nor written over: refused
// before the runs, not after them.
TEST_F(OutputFileTest, RefusesAnAppendOnlyFileUpFront) {
  put(std::string(header) + "1,9.5\n");
  if (!set_inode_flag(path_, FS_APPEND_FL, true)) GTEST_SKIP() << "this file system or user cannot make it append-only";
  std::string refusal;
  try {
    output_file out(path_, "--csv file", own);
  } catch (const usage_error& e) {
    refusal = e.what();
  }
  EXPECT_TRUE(set_inode_flag(path_, FS_APPEND_FL, false));
  EXPECT_NE(refusal.find("it is append-only (chattr +a)"), std::string::npos) << refusal;
}

// Written in place, a commit waits for another's lock on the file (two runs
// committing at once wrote one table over the other, then cut it to their
// own length), and refuses at once a journal held by its run.
TEST_F(OutputFileTest, InPlaceCommitsOneAtATime) {
  put(std::string(header) + "1,9.5\n");
  ASSERT_EQ(::link(path_.c_str(), (dir_ / "other.csv").c_str()), 0);
  output_file out(path_, "--csv file", own);
  out.write(std::string(header) + "1,0.25\n");
  const int held = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  std::thread committing([&] { out.commit(); });
  // Until the commit waits for the lock (a "->" entry on the file's inode in
  // /proc/locks), not a guessed while: a commit not yet there proved nothing.
  struct stat file {};
  ASSERT_EQ(::stat(path_.c_str(), &file), 0);
  const std::string inode = ":" + std::to_string(file.st_ino) + " ";
  bool waiting = false;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
       !waiting && std::chrono::steady_clock::now() < deadline;) {
    std::ifstream locks("/proc/locks");
    for (std::string line; !waiting && std::getline(locks, line);) {
      waiting = line.find(" -> ") != std::string::npos && line.find(inode) != std::string::npos;
    }
    if (!locks.is_open()) break;  // no /proc: the commit had its chance below
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(contents(), std::string(header) + "1,9.5\n") << "written while another held the file";
  ::close(held);  // the lock with it
  committing.join();
  EXPECT_EQ(contents(), std::string(header) + "1,0.25\n");

  output_file late(path_, "--csv file", own);
  late.write(std::string(header) + "1,0.5\n");
  const std::string journal(reinterpret_cast<const char*>(detail::journal::magic.data()),
                            detail::journal::magic.size());
  put(journal);  // into the same file: a run's journal now, locked by it
  const int run = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(run, 0);
  ASSERT_EQ(::flock(run, LOCK_EX), 0);
  EXPECT_THROW(late.commit(), std::runtime_error);
  ::close(run);
  EXPECT_EQ(contents(), journal);
}

TEST_F(OutputFileTest, NamesWhatItCannotCreate) {
  try {
    output_file((dir_ / "missing" / "f.csv").string(), "--csv file", own);
    FAIL() << "a file in a missing directory was taken";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create a file in its directory"), std::string::npos) << e.what();
  }
  try {
    output_file((dir_ / "absent/").string(), "--csv file", own);
    FAIL() << "a name ending in '/' was taken";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot end in '/'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nqueens::cli
