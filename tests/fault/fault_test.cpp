// The fault-injection suite: each case runs the real `nqueens` as a user or
// a cluster would (nqueens-mpi's cases are tests/mpi's), breaks something (a kill -9, a
// full disk, a second run, a mismatched rank, a damaged file) and checks that
// the tools either finish with the exact count or refuse with the documented
// exit status, leaving every journal valid. Many reproduce a defect found by
// trying the tools as users would. The signals' cases are in
// signal_fault_test.cpp.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/fault_fixture.hpp"
#include "support/process.hpp"
#include "support/shard_json.hpp"

namespace nqueens::test {
namespace {

// Each shard's total fits in 128 bits, their sum does not: they cannot all
// be right (exit 1, as for counts that contradict each other).
TEST_F(FaultTest, MergeSumPastTwoToThe128IsAMismatch) {
  const std::string s0 = path("s0.json"), s1 = path("s1.json");
  ASSERT_EQ(run({nq, "count", "12", "--shard", "0/2", "--json"}, {.stdout_path = s0}).status, 0);
  ASSERT_EQ(run({nq, "count", "12", "--shard", "1/2", "--json"}, {.stdout_path = s1}).status, 0);
  for (const std::string& file : {s0, s1}) {
    std::string text = bytes_of(file);
    const auto at = text.find("\"total\":") + 8;
    text.replace(at, text.find(',', at) - at, "340282366920938463463374607431768211455");  // 2^128 - 1
    write(file, resigned(text));
  }
  const finished r = run({nq, "merge", s0, s1});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("add up past 2^128"), std::string::npos) << r.err;
}

// A journal that is the run's standard output (`>> journal`, `1<>
// journal`), its own or another run's, is refused before anything is
// written: the report landed after its completion mark, or over its header,
// and no run could read the journal again. Its standard error too: the
// refusal is then all that is written there (the progress and the report
// were).
TEST_F(FaultTest, AJournalThatIsTheRunsOwnOutputIsRefused) {
  const std::string j = path("own-output.ckpt");
  ASSERT_EQ(run({nq, "count", "10", "--checkpoint", j}).status, 0);
  const std::string before = bytes_of(j);
  for (const int flags : {O_WRONLY | O_APPEND, O_RDWR}) {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{nq, "count", "10", "--checkpoint", j}, {nq, "count", "8"}}) {
      SCOPED_TRACE(((flags & O_APPEND) != 0 ? ">> " : "1<> ") + args.back());
      const int fd = ::open(j.c_str(), flags | O_CLOEXEC);
      ASSERT_GE(fd, 0);
      const finished r = run(args, {.stdout_fd = fd});
      ::close(fd);
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_EQ(r.err, "nqueens: standard output is the checkpoint journal '" + j +
                           "': what is written to it would damage it; send it elsewhere\n");
      EXPECT_EQ(bytes_of(j), before) << "the journal was written to";
    }
  }
  expect_resumes_to(j, 10, "724");
  {  // A journal still to make, the file the shell made empty for `>>`.
    const std::string fresh = path("own-output-new.ckpt");
    const int fd = ::open(fresh.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    const finished r = run({nq, "count", "10", "--checkpoint", fresh}, {.stdout_fd = fd});
    ::close(fd);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is this process's standard output: its output would be written into the journal"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(bytes_of(fresh), "");
  }
  // Standard error into a journal, this run's or another's, any command:
  // refused before a byte is written (its refusal line landed after the
  // records, damage the next start had to cut off).
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {nq, "count", "10", "--checkpoint", j, "--progress"}, {nq, "count", "8"}, {nq, "count", "x"}}) {
    SCOPED_TRACE(args[2]);
    const int fd = ::open(j.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const finished r = run(args, {.stderr_fd = fd});
    ::close(fd);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(bytes_of(j), before) << "the journal was written to";
  }
  expect_resumes_to(j, 10, "724");
}

// Where /proc is missing, a new journal is still created whole, through a
// named temporary file that is then removed.
TEST_F(FaultTest, JournalIsCreatedWholeWithoutProc) {
  const std::string j = path("noproc.ckpt");
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' runtime needs /proc";
#endif
  const finished r =
      run({"unshare", "-m", "sh", "-c", "umount -l /proc && exec \"$0\" count 10 --checkpoint \"$1\"", nq, j});
  // No mount namespace, or one whose /proc cannot be unmounted (rootless
  // containers): nothing to test here.
  if (r.status != 0 && (r.err.find("unshare") != std::string::npos || r.err.find("umount") != std::string::npos)) {
    GTEST_SKIP() << "no mount namespace here: " << r.err;
  }
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(10) = 724  verified"), std::string::npos) << r.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
  expect_resumes_to(j, 10, "724");
}

// Where the file system has no O_TMPFILE (NFS), a new journal is created
// whole through a named temporary file: a name as long as a file name may
// be (255 bytes) works too, the temporary's name shortened, nothing left.
// The preload marks each O_TMPFILE it refused: the named way was taken.
TEST_F(FaultTest, JournalIsCreatedWholeWithoutTmpfile) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' runtime must come first in the preload list";
#endif
  for (const std::string& name : {std::string("plain.ckpt"), std::string(255, 'j')}) {
    SCOPED_TRACE(name.size());
    const std::string j = path(name);
    const std::string mark = dir_.string() + "-tmpfile-refused";  // beside the test's folder, whose files are counted
    fs::remove(mark);
    const finished r =
        run({nq, "count", "10", "--checkpoint", j},
            {.env = {std::string("LD_PRELOAD=") + NQUEENS_NO_TMPFILE_PATH, "NQUEENS_NO_TMPFILE_MARK=" + mark}});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(mark)) << "no O_TMPFILE was refused: the named temporary's way was not taken";
    fs::remove(mark);
    EXPECT_NE(r.out.find("Q(10) = 724  verified"), std::string::npos) << r.out;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
    expect_resumes_to(j, 10, "724");
    fs::remove(j);
  }
}

// A new name reaches the disk with its directory's fsync. Where that fails
// (EIO), a crash could take a journal's name with its run's progress, and a
// CSV's rename could be undone: the journal is refused before counting (exit
// 2, no file left); the CSV, whole and in place, is written with a warning.
TEST_F(FaultTest, ADirectoryThatCannotBeSyncedIsAFailedWrite) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' runtime must come first in the preload list";
#endif
  const std::string preload = std::string("LD_PRELOAD=") + NQUEENS_DIRECTORY_FSYNC_FAILS_PATH;
  const std::string j = path("unsynced.ckpt");
  finished r = run({nq, "count", "10", "--checkpoint", j}, {.env = {preload}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("cannot create checkpoint '" + j + "': Input/output error"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(j));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 0);  // no temporary left
  const std::string csv = path("unsynced.csv");
  r = run({nq, "scale", "8", "--repeat", "1", "--threads", "1", "--csv", csv}, {.env = {preload}});
  EXPECT_EQ(r.status, 0) << r.err;  // the CSV is whole and in place: a script goes on to plot it
  EXPECT_NE(r.err.find("is written, but its directory could not be synced (Input/output error)"), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(csv).rfind("threads,", 0), 0u) << read_file(csv);
  // Without the fault, both work.
  EXPECT_EQ(run({nq, "count", "10", "--checkpoint", j}).status, 0);
  // A file system whose directories take no fsync (EINVAL, ENOTSUP: some
  // FUSE and network ones) is no failing disk: the journal is made, kept
  // and read again.
  for (const char* answer : {"EINVAL", "ENOTSUP"}) {
    SCOPED_TRACE(answer);
    const std::string taken = path(std::string("no-dir-sync-") + answer + ".ckpt");
    const std::string no_sync = std::string("NQUEENS_DIRECTORY_FSYNC_ERRNO=") + answer;
    r = run({nq, "count", "10", "--checkpoint", taken}, {.env = {preload, no_sync}});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    r = run({nq, "count", "10", "--checkpoint", taken}, {.env = {preload, no_sync}});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  }
}

// A journal's header and records, and a CSV's data, are on the disk only
// once their fsync succeeds. Where it fails (EIO, a failing disk): a new
// journal is refused before counting (exit 2, no file left); a journal whose
// records cannot be synced ends the run with exit 3, the result printed,
// and keeps what came before for the same command to finish; a CSV that
// cannot be synced is never renamed over the file it was to replace.
TEST_F(FaultTest, AFileThatCannotBeSyncedIsAFailedWrite) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' runtime must come first in the preload list";
#endif
  const std::string preload = std::string("LD_PRELOAD=") + NQUEENS_FILE_FSYNC_FAILS_PATH;
  const std::string j = path("unsynced.ckpt");
  finished r = run({nq, "count", "12", "--checkpoint", j}, {.env = {preload, "NQUEENS_FILE_FSYNC_FAILS_FROM=1"}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "nqueens: cannot write checkpoint '" + j + "': Input/output error\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 0);  // no journal, no temporary
  r = run({nq, "count", "12", "--checkpoint", j}, {.env = {preload, "NQUEENS_FILE_FSYNC_FAILS_FROM=2"}});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("writing checkpoint '" + j + "' failed: Input/output error"), std::string::npos) << r.err;
  expect_resumes_to(j, 12, "14200");
  fs::remove(j);
  const std::string csv = path("unsynced.csv");
  std::ofstream(csv).close();  // an empty file: what --csv may replace
  r = run({nq, "scale", "8", "--repeat", "1", "--threads", "1", "--csv", csv}, {.env = {preload}});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("cannot write --csv file '" + csv + "': Input/output error"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(csv), "");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
  // One with another name is written in place: its failed sync is a failed
  // write too, said as one that may have left it part written.
  const std::string linked = path("unsynced-other.csv");
  ASSERT_EQ(::link(csv.c_str(), linked.c_str()), 0);
  r = run({nq, "scale", "8", "--repeat", "1", "--threads", "1", "--csv", csv}, {.env = {preload}});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("cannot write --csv file '" + csv +
                       "': Input/output error (while writing it, which left it part written)"),
            std::string::npos)
      << r.err;
  // A torn tail cut off whose cut cannot be synced is refused before
  // anything is counted (exit 2), not found out at the first flush.
  const std::string torn = path("torn-unsynced.ckpt");
  ASSERT_EQ(run({nq, "count", "12", "--checkpoint", torn}).status, 0);
  const std::string finished_bytes = read_file(torn);
  write(torn, finished_bytes.substr(0, finished_bytes.size() - 48) + std::string(20, '\0'));
  r = run({nq, "count", "12", "--checkpoint", torn}, {.env = {preload, "NQUEENS_FILE_FSYNC_FAILS_FROM=1"}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("cannot repair checkpoint '" + torn + "': Input/output error"), std::string::npos) << r.err;
}

// A file system without hard links (vfat, exFAT: link() says EPERM) takes
// a new journal through a rename that replaces nothing: made whole, no
// temporary left, resumed, whether O_TMPFILE works there (its linkat then
// fails) or not; a file another run made at the name meanwhile is never
// replaced, and its run is named.
TEST_F(FaultTest, JournalIsCreatedWholeWithoutHardLinks) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' runtime must come first in the preload list";
#endif
  const std::string preload = std::string("LD_PRELOAD=") + NQUEENS_NO_TMPFILE_PATH;
  for (const char* mode : {"1", "tmpfile"}) {
    SCOPED_TRACE(mode);
    const std::string j = path(std::string("vfat-") + mode + ".ckpt");
    const finished r =
        run({nq, "count", "10", "--checkpoint", j}, {.env = {preload, std::string("NQUEENS_NO_HARD_LINKS=") + mode}});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(10) = 724  verified"), std::string::npos) << r.out;
    expect_resumes_to(j, 10, "724");
    fs::remove(j);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 0);  // no temporary left
  }
  const std::string j = path("raced.ckpt");
  const finished raced = run({nq, "count", "10", "--checkpoint", j}, {.env = {preload, "NQUEENS_NO_HARD_LINKS=race"}});
  EXPECT_EQ(raced.status, 2) << raced.err;
  EXPECT_NE(raced.err.find("was created by another run meanwhile"), std::string::npos) << raced.err;
  EXPECT_EQ(fs::file_size(j), 0u);  // the other run's file, untouched
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
}

// The same for the plain tool, whose limit is its own: 4 010 bytes, no
// whole number of 48-byte records after the 64-byte header, so that a
// write the limit cuts must be cut back to its last whole record.
TEST_F(FaultTest, CountJournalWriteFailureExitsThree) {
  const std::string j = path("full.ckpt");
  const finished r =
      run({nq, "count", "15", "--checkpoint", j, "--checkpoint-interval", "0.01"}, {.file_size_limit = 4010});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(j), 64u);
  EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);
  expect_resumes_to(j, 15, "2279184");
}

// A full disk once every subproblem is counted (at the last flush, or at
// the completion mark: the last 48-byte record) costs the journal its end,
// not the result: the count is printed, exit 3 says the journal is
// unfinished, and the same command on a disk with room finishes it.
TEST_F(FaultTest, AFullDiskAfterTheLastSubproblemStillPrintsTheCount) {
  const std::string j = path("end.ckpt");
  const std::vector<std::string> count = {nq, "count", "12", "--shard", "0/16", "--checkpoint", j};
  const finished whole = run(count);
  ASSERT_EQ(whole.status, 0) << whole.err;
  const auto size = static_cast<long>(fs::file_size(j));
  const std::string counted = whole.out.substr(0, whole.out.find('\n'));
  for (const long short_by : {48, 100}) {  // the mark alone; the mark and the last records
    SCOPED_TRACE("the limit " + std::to_string(short_by) + " bytes short");
    fs::remove(j);
    const finished full = run(count, {.file_size_limit = size - short_by});
    EXPECT_EQ(full.status, 3) << full.err;
    EXPECT_EQ(full.out.substr(0, full.out.find('\n')), counted) << full.out;
    EXPECT_EQ(full.err, "nqueens: every subproblem was counted, and the result above stands, but writing checkpoint '" +
                            j +
                            "' failed: File too large; the journal keeps every whole record before it: the same "
                            "command again, with room to write, finishes it (counting only what it lacks)\n");
    EXPECT_LT(static_cast<long>(fs::file_size(j)), size);
    EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u) << "whole records only";
    const finished finishing = run(count);
    EXPECT_EQ(finishing.status, 0) << finishing.err;
    EXPECT_EQ(finishing.out.substr(0, finishing.out.find('\n')), counted) << finishing.out;
    EXPECT_NE(finishing.out.find("resumed: "), std::string::npos) << finishing.out;
    EXPECT_EQ(static_cast<long>(fs::file_size(j)), size) << "finished, with its mark";
  }
}

// merge reads strict JSON: a shard file that is malformed or out of range
// is exit 2 naming it, never a wrapped or guessed count.
TEST_F(FaultTest, MergeRefusesMalformedShardFiles) {
  const std::string s0 = path("s0.json"), s1 = path("s1.json");
  ASSERT_EQ(run({nq, "count", "12", "--shard", "0/2", "--json"}, {.stdout_path = s0}).status, 0);
  ASSERT_EQ(run({nq, "count", "12", "--shard", "1/2", "--json"}, {.stdout_path = s1}).status, 0);
  const std::string good = bytes_of(s0);
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const std::string total =
      good.substr(good.find("\"total\":"), good.find(',', good.find("\"total\":")) - good.find("\"total\":"));
  for (const std::string& bad : {
           replaced(total,
                    "\"total\":340282366920938463463374607431768218450"),  // 2^128 + 14194: wrapped to 14200 once
           replaced(total, "\"total\":\"6994\""),
           replaced("{\"n\":12,", "{\"n\":12,\"n\":12,"),
           good + "garbage\n",
           replaced("\"engine\":\"symmetric\"", "\"engine\":\"sym\x1b[31mmetric\""),
           replaced("\"engine\":\"symmetric\"", "\"engine\":\"\xff\xfe\""),
       }) {
    write(s0, bad);
    const finished r = run({nq, "merge", s0, s1});
    EXPECT_EQ(r.status, 2) << bad << r.out;
    EXPECT_NE(r.err.find(s0), std::string::npos) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  write(s0, good);
  EXPECT_EQ(run({nq, "merge", s0, s1}).status, 0);
  EXPECT_EQ(run({nq, "merge", s0}).status, 1);  // a missing shard stays exit 1
}

// A result that could not be written is a failure, for every command.
TEST_F(FaultTest, LostStandardOutputIsExitThree) {
  const std::string s0 = path("s0.json"), s1 = path("s1.json");
  ASSERT_EQ(run({nq, "count", "8", "--shard", "0/2", "--json"}, {.stdout_path = s0}).status, 0);
  ASSERT_EQ(run({nq, "count", "8", "--shard", "1/2", "--json"}, {.stdout_path = s1}).status, 0);
  for (const std::vector<std::string>& argv :
       std::vector<std::vector<std::string>>{{nq, "count", "8", "--shard", "0/2", "--json"},
                                             {nq, "merge", s0, s1},
                                             {nq, "verify", "--to", "8"},
                                             {nq, "check", "1 3 0 2"},
                                             {nq, "plan", "10"}}) {
    const finished r = run(argv, {.stdout_path = "/dev/full"});
    EXPECT_EQ(r.status, 3) << argv[1] << ": " << r.err;
    EXPECT_NE(r.err.find("cannot write to standard output: No space left on device"), std::string::npos) << r.err;
  }
  // nqueens-mpi's rank 0 checks its own stdout. (mpirun forwards a rank's
  // output through a pipe and, Open MPI 4.1, exits 0 when it cannot write
  // it: docs/cluster.md says to redirect inside the rank, as here.)
  SKIP_WITHOUT_MPI();
  const finished r = run({mpirun, "-x", test_tag(), "-np", "1", "sh", "-c", "exec \"$0\" \"$@\" > /dev/full", mpi, "8"},
                         {mpi_env}, 60);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: cannot write to standard output: No space left on device"), std::string::npos)
      << r.err;
  // The form docs/cluster.md gives, with workers: rank 0 alone redirected,
  // every rank given the same options.
  const finished job = run({mpirun, "-x", test_tag(), "-np", "1", "sh", "-c", "exec \"$0\" \"$@\" > /dev/full", mpi,
                            "8", "--json", ":", "-np", "2", mpi, "8", "--json"},
                           {mpi_env}, 60);
  EXPECT_EQ(job.status, 3) << "status -1 means it hung\n" << job.err;
  EXPECT_NE(job.err.find("nqueens-mpi: cannot write to standard output: No space left on device"), std::string::npos)
      << job.err;
}

// What an earlier `scale --csv` wrote: the file a new one may replace.
const std::string earlier_csv =
    "threads,median_seconds,speedup,efficiency,total,runs,min_seconds,max_seconds,n,engine,isa\n"
    "1,9.5,1.0000,1.0000,14200,1,9.5,9.5,12,symmetric,portable\n";

// A CSV is replaced whole or not at all, and a journal is never taken
// for one.
TEST_F(FaultTest, CsvSurvivesAStopAndNeverOverwritesAJournal) {
  const std::string csv = path("res.csv");
  write(csv, earlier_csv);
  child c({nq, "scale", "12", "--repeat", "1000", "--csv", csv});
  // Timing runs by then: the temporary file is open and SIGTERM handled.
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 0.3));
  c.signal(SIGTERM);
  const finished r = c.wait();
  EXPECT_EQ(r.status, 143) << r.err;
  // Stopped by its handler, not killed by the signal's default action
  // (143 either way), which would leave the temporary behind.
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  EXPECT_EQ(bytes_of(csv), earlier_csv);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1) << "a temporary was left";
  const std::string j = path("j.ckpt");
  ASSERT_EQ(run({nq, "count", "10", "--checkpoint", j}).status, 0);
  const std::string journal = bytes_of(j);
  const finished refused = run({nq, "scale", "8", "--csv", j});
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(bytes_of(j), journal);
}

// A crash during one flush can leave many records' worth of zeros, or a
// record cut short: cut off, and the count resumes from what is whole.
TEST_F(FaultTest, TornTailOfManyRecordsIsRepaired) {
  const std::string j = path("torn.ckpt");
  child c({nq, "count", "16", "--engine", "symmetric", "--threads", "1", "--checkpoint", j, "--checkpoint-interval",
           "0.02"});
  ASSERT_TRUE(wait_for_size(j, 64 + 10 * 48, c));
  c.signal(SIGKILL);
  c.wait();
  std::string bytes = bytes_of(j).substr(0, 64 + 10 * 48);
  for (const std::string& tail : {std::string(96, '\0'), std::string(1000, '\0'), bytes.substr(64, 30),
                                  bytes.substr(64, 20) + std::string(500, '\0')}) {
    write(j, bytes + tail);
    const finished r = run({nq, "count", "16", "--engine", "symmetric", "--checkpoint", j});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(16) = 14772512  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("resumed: 10 of"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" (" + std::to_string(tail.size()) + " bytes of a torn last write cut off)\n"),
              std::string::npos)
        << r.out;
  }
  // Damage with records after it is refused, with its offset.
  write(j, bytes.substr(0, 64 + 48) + std::string(48, 'x') + bytes.substr(64 + 96));
  const finished r = run({nq, "count", "16", "--engine", "symmetric", "--checkpoint", j});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("record 1 at byte 112 is damaged"), std::string::npos) << r.err;
  // The message says how to keep what precedes the damage, and that works.
  EXPECT_NE(
      r.err.find("to resume from the 1 whole records before it, cut the file there (truncate -s 112 '" + j + "')"),
      std::string::npos)
      << r.err;
  fs::resize_file(j, 112);
  const finished cut = run({nq, "count", "16", "--engine", "symmetric", "--checkpoint", j});
  EXPECT_EQ(cut.status, 0) << cut.err;
  EXPECT_NE(cut.out.find("Q(16) = 14772512  verified"), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("resumed: 1 of"), std::string::npos) << cut.out;

  // The suggested command runs as given in a shell, a quote in the path too.
  const std::string quoted = path("it's.ckpt");
  write(quoted, bytes.substr(0, 64 + 48) + std::string(48, 'x') + bytes.substr(64 + 96));
  const finished damaged = run({nq, "count", "16", "--engine", "symmetric", "--checkpoint", quoted});
  EXPECT_EQ(damaged.status, 2);
  const std::size_t at = damaged.err.find("(truncate -s ");
  const std::size_t end = damaged.err.rfind(')');
  ASSERT_TRUE(at != std::string::npos && end != std::string::npos && end > at) << damaged.err;
  const std::string command = damaged.err.substr(at + 1, end - at - 1);
  EXPECT_NE(command.find("it'\\''s.ckpt'"), std::string::npos) << command;
  ASSERT_EQ(run({"/bin/sh", "-c", command}).status, 0) << command;
  EXPECT_EQ(fs::file_size(quoted), 112u);

  // A newline and a byte of no UTF-8 character in the path (each shown on
  // the message's one line as \xHH): the command names the same file in
  // bash, a quote and a backslash with them.
  const std::string odd = path("a\nb'\\c\xe9.ckpt");
  write(odd, bytes.substr(0, 64 + 48) + std::string(48, 'x') + bytes.substr(64 + 96));
  const finished odd_damage = run({nq, "count", "16", "--engine", "symmetric", "--checkpoint", odd});
  EXPECT_EQ(odd_damage.status, 2);
  EXPECT_EQ(lines_in(odd_damage.err), 1) << odd_damage.err;
  const std::size_t odd_at = odd_damage.err.find("(truncate -s ");
  const std::size_t odd_end = odd_damage.err.rfind(')');
  ASSERT_TRUE(odd_at != std::string::npos && odd_end != std::string::npos && odd_end > odd_at) << odd_damage.err;
  const std::string odd_command = odd_damage.err.substr(odd_at + 1, odd_end - odd_at - 1);
  ASSERT_EQ(run({"/bin/bash", "-c", odd_command}).status, 0) << odd_command;
  EXPECT_EQ(fs::file_size(odd), 112u);
}

// Only a journal's header is read before it is trusted: a foreign file of
// any size costs 64 bytes and is "not a journal" (exit 2).
TEST_F(FaultTest, ForeignFilesAreRefusedFromTheirHeader) {
  const std::string big = path("big.bin");
  write(big, std::string(64 << 20, 'z'));
  finished r = run({nq, "count", "10", "--checkpoint", big});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is not an nqueens checkpoint journal"), std::string::npos) << r.err;
  // Against a run that reads no journal at all: the 64 MiB must not show.
  const finished baseline = run({nq, "count", "10", "--checkpoint", path("new.ckpt")});
  ASSERT_EQ(baseline.status, 0) << baseline.err;
  EXPECT_LT(r.max_rss_kib, baseline.max_rss_kib + 16L * 1024) << "the file was read whole";
  const std::string sparse = path("sparse.bin");
  write(sparse, "");
  fs::resize_file(sparse, std::uintmax_t{1} << 40);
  r = run({nq, "count", "10", "--checkpoint", sparse});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is not an nqueens checkpoint journal"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(sparse), std::uintmax_t{1} << 40);
}

// One journal, one run: a second is refused while the first holds it;
// a symlink and an empty file are refused and left as they are.
TEST_F(FaultTest, OneJournalOneRun) {
  const std::string j = path("shared.ckpt");
  child first(endless_count({"--checkpoint", j}));
  ASSERT_TRUE(wait_for_size(j, 63, first));
  finished r = run(endless_count({"--checkpoint", j}));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("checkpoint '" + j + "' is in use by another run"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  first.signal(SIGKILL);  // the lock dies with its process
  first.wait();
  r = run({nq, "count", "10", "--checkpoint", j});  // another n: refused as foreign now, no longer as locked
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("belongs to another run"), std::string::npos) << r.err;
  const std::string link = path("link.ckpt");
  fs::create_symlink(j, link);
  r = run(endless_count({"--checkpoint", link}));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is a symbolic link"), std::string::npos) << r.err;
  const std::string empty = path("empty.ckpt");
  write(empty, "");
  r = run({nq, "count", "10", "--checkpoint", empty});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not an nqueens checkpoint journal (an empty file)"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(empty), 0u);
}

// A journal moved or deleted under its run ends the run at the next flush,
// exit 3 and one line, as a failed write does: its records went where no
// resume would look, and the path's lock no longer kept a second run off
// (which then started beside it). The moved file keeps what it took.
TEST_F(FaultTest, AJournalMovedOrDeletedUnderItsRunEndsIt) {
  for (const bool deleted : {false, true}) {
    SCOPED_TRACE(deleted ? "deleted" : "moved");
    const std::string j = path("gone.ckpt"), moved = path("moved.ckpt");
    fs::remove(j);
    fs::remove(moved);
    child c(endless_count({"--checkpoint", j, "--checkpoint-interval", "0.05"}));
    ASSERT_TRUE(wait_for_size(j, 64 + 48, c));  // a record flushed
    if (deleted) {
      fs::remove(j);
    } else {
      fs::rename(j, moved);
    }
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_NE(r.err.find("checkpoint '" + j + "' was deleted, moved or replaced while the run wrote it"),
              std::string::npos)
        << r.err;
    // The remedy that fits: the file's new name, not the same command (which
    // would count afresh).
    EXPECT_NE(r.err.find("give the file's new name to --checkpoint (deleted, they are lost)"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("with room to write"), std::string::npos) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_FALSE(fs::exists(j));
    if (!deleted) EXPECT_EQ((fs::file_size(moved) - 64) % 48, 0u);
  }
}

// A shard never takes another engine because of its node's memory: it
// refuses with advice. A signal is never swallowed, not even by a run that
// finishes within the first tick, and it stops a table build.
TEST_F(FaultTest, ShardsRefuseRatherThanChangePlan) {
  finished r = run({nq, "count", "16", "--shard", "1/2", "--max-memory", "1M"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the quadrant engine needs about"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("choose another --engine"), std::string::npos) << r.err;
  r = run({nq, "count", "16", "--checkpoint", path("j.ckpt"), "--max-memory", "1M"});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(path("j.ckpt")));
}

// Runs argv as an unprivileged user when this is root (root ignores file
// permissions), through util-linux's setpriv; empty when that cannot be done.
std::vector<std::string> without_privileges(std::vector<std::string> argv) {
  if (::geteuid() != 0) return argv;
  if (!fs::exists("/usr/bin/setpriv")) return {};
  argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
  return argv;
}

// A finished journal is only read, so it is reported whatever its
// permissions; an unfinished one that cannot be written is refused (exit 2,
// naming it) before anything is counted, and left as it was.
TEST_F(FaultTest, ReadOnlyJournalIsReportedWhenFinishedRefusedWhenNot) {
  fs::permissions(dir_, fs::perms::all);  // the unprivileged user reaches the files
  const std::string done = path("done.ckpt");
  ASSERT_EQ(run({nq, "count", "12", "--checkpoint", done}).status, 0);
  fs::permissions(done, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::vector<std::string> report = without_privileges({nq, "count", "12", "--checkpoint", done});
  if (report.empty()) GTEST_SKIP() << "running as root without setpriv";
  // The unprivileged user must reach the tool (a build under a private home
  // directory it cannot enter is no defect of the tool).
  if (::geteuid() == 0 && run(without_privileges({nq, "--version"})).status != 0) {
    GTEST_SKIP() << "user 65534 cannot run " << nq;
  }
  // Nor the journal, where the test's directory lies under one (TMPDIR).
  if (::geteuid() == 0 && run(without_privileges({"cat", done})).status != 0) {
    GTEST_SKIP() << "user 65534 cannot reach " << done;
  }
  const std::string before = bytes_of(done);
  finished r = run(report);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
  const std::string all = grouped(plan_field({"12"}, "subproblems"));
  EXPECT_NE(r.out.find("resumed: " + all + " of " + all), std::string::npos) << r.out;
  EXPECT_EQ(bytes_of(done), before);

  // Every record but the completion mark (the last 48 bytes): finished too,
  // read as it is.
  const std::string unmarked = path("unmarked.ckpt");
  write(unmarked, before.substr(0, before.size() - 48));
  fs::permissions(unmarked, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  r = run(without_privileges({nq, "count", "12", "--checkpoint", unmarked}));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resumed: " + all + " of " + all), std::string::npos) << r.out;
  EXPECT_EQ(bytes_of(unmarked), before.substr(0, before.size() - 48));

  // Every record but the mark, then a torn write: the tail must be cut
  // off, which a read-only file cannot be: refused saying so, and how to go on.
  const std::string torn = path("torn.ckpt");
  write(torn, before.substr(0, before.size() - 48) + std::string(20, '\0'));
  fs::permissions(torn, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  r = run(without_privileges({nq, "count", "12", "--checkpoint", torn}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("checkpoint '" + torn + "' is read-only and ends in a torn record that must be cut off"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(bytes_of(torn), before.substr(0, before.size() - 48) + std::string(20, '\0'));

  const std::string half = path("half.ckpt");
  {
    child c(endless_count({"--checkpoint", half, "--checkpoint-interval", "0.01"}));
    ASSERT_TRUE(wait_for_size(half, 64 + 10 * 48, c));
    c.signal(SIGKILL);
    c.wait();
  }
  fs::permissions(half, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string unfinished = bytes_of(half);
  r = run(without_privileges(endless_count({"--checkpoint", half})));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("checkpoint '" + half + "' cannot be written (it is read-only) and holds "), std::string::npos)
      << r.err;
  EXPECT_EQ(bytes_of(half), unfinished);
}

// Sets a file's inode flags (chattr: FS_IMMUTABLE_FL, FS_APPEND_FL; 0
// clears them); false where the file system or the user cannot.
bool set_inode_flags(const std::string& file, int flags) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  int now = 0;
  bool done = ::ioctl(fd, FS_IOC_GETFLAGS, &now) == 0;
  now = (now & ~(FS_IMMUTABLE_FL | FS_APPEND_FL)) | flags;
  done = done && ::ioctl(fd, FS_IOC_SETFLAGS, &now) == 0;
  ::close(fd);
  return done;
}

// A journal made immutable or append-only (chattr +i, +a) can only be opened
// for reading, as one without write permission: a finished one is reported
// (its open refused with EPERM was a refusal, exit 2), an unfinished one
// refused naming it, each left as it was.
TEST_F(FaultTest, ImmutableOrAppendOnlyJournalIsReadAsAReadOnlyOne) {
  const std::string done = path("done.ckpt");
  ASSERT_EQ(run({nq, "count", "12", "--checkpoint", done}).status, 0);
  const std::string all = grouped(plan_field({"12"}, "subproblems"));
  const std::string half = path("half.ckpt");
  {
    child c(endless_count({"--checkpoint", half, "--checkpoint-interval", "0.01"}));
    ASSERT_TRUE(wait_for_size(half, 64 + 10 * 48, c));
    c.signal(SIGKILL);
    c.wait();
  }
  const std::string finished_bytes = bytes_of(done), unfinished_bytes = bytes_of(half);
  for (const int flag : {FS_IMMUTABLE_FL, FS_APPEND_FL}) {
    if (!set_inode_flags(done, flag) || !set_inode_flags(half, flag)) {
      set_inode_flags(done, 0);
      set_inode_flags(half, 0);
      GTEST_SKIP() << "this file system or user cannot make a file immutable or append-only";
    }
    finished r = run({nq, "count", "12", "--checkpoint", done});
    const finished refused = run(endless_count({"--checkpoint", half}));
    set_inode_flags(done, 0);  // before any assertion: the test's directory must be removable
    set_inode_flags(half, 0);
    EXPECT_EQ(r.status, 0) << flag << ' ' << r.err;
    EXPECT_NE(r.out.find("resumed: " + all + " of " + all), std::string::npos) << r.out;
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(lines_in(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("checkpoint '" + half + "' cannot be written"), std::string::npos) << refused.err;
    EXPECT_EQ(bytes_of(done), finished_bytes);
    EXPECT_EQ(bytes_of(half), unfinished_bytes);
  }
}

// A journal that cannot be created is a refusal (exit 2, one line naming
// it), whatever the cause: here a relative name in a working directory that
// was deleted, which has no absolute path.
TEST_F(FaultTest, JournalThatCannotBeCreatedIsExitTwo) {
  const finished r = run({"/bin/sh", "-c",
                          "cd '" + dir_.string() + "' && mkdir gone && cd gone && rmdir '" + path("gone") +
                              "' && exec '" + nq + "' count 12 --checkpoint x.ckpt"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cannot create checkpoint 'x.ckpt'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the working directory was deleted"), std::string::npos) << r.err;
  const finished missing = run({nq, "count", "12", "--checkpoint", path("no/such/dir/x.ckpt")});
  EXPECT_EQ(missing.status, 2) << missing.err;
  EXPECT_NE(missing.err.find("cannot create checkpoint '" + path("no/such/dir/x.ckpt") + "'"), std::string::npos)
      << missing.err;
}

// kill -9 at 20 random moments (planning and table building included) on one
// journal, then a resume: the exact total, and no run ever refused the
// journal its predecessor left. The first run is killed once its journal
// holds a record, so that one kill at least lands mid-count however fast
// the machine (a sanitized Q(16) took 0.7 s on a Zen 5 core, and all 20
// random moments came after it).
TEST_F(FaultTest, KillNineAtRandomMomentsThenResume) {
  const std::string j = path("kill9.ckpt");
  const unsigned seed = std::random_device{}();
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> moment(0.0, 1.2);
  int killed = 0;                                                 // runs the kill ended, not the count
  constexpr std::uintmax_t header_bytes = 64, record_bytes = 48;  // docs/journal-format.md
  for (int k = 0; k < 20; ++k) {
    // One thread: the count outlasts the first kills on any machine (a
    // many-core one finished it within two and left the rest nothing).
    child c({nq, "count", std::to_string(long_n), "--engine", "quadrant", "--threads", "1", "--checkpoint", j,
             "--checkpoint-interval", "0.05"});
    if (k == 0) {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
      const auto holds_a_record = [&] {
        std::error_code absent;  // file_size is then -1
        const std::uintmax_t bytes = fs::file_size(j, absent);
        return !absent && bytes >= header_bytes + record_bytes;
      };
      while (c.running() && std::chrono::steady_clock::now() < deadline && !holds_a_record()) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(moment(random)));
    }
    c.signal(SIGKILL);
    const finished r = c.wait();
    ASSERT_TRUE(r.status == 137 || r.status == 0) << "seed " << seed << ", kill " << k << ": " << r.err;
    killed += r.status == 137 ? 1 : 0;
  }
  EXPECT_GE(killed, 1) << "no kill landed mid-run";
  expect_resumes_to(j, long_n, long_total, {"--engine", "quadrant"});
}

// A run of many short subproblems writes its journal once a MiB of records
// waits, whatever its interval, so that the queue's memory stays bounded:
// a kill -9 (no flush at the stop) long before the interval is up leaves
// that much to resume from.
TEST_F(FaultTest, JournalIsWrittenOnceAMiBOfRecordsWaits) {
#ifdef NQUEENS_SANITIZED
  const std::string n = "16", total = "14772512";  // 71 794 subproblems
#else
  const std::string n = "17", total = "95815104";  // 109 460 subproblems: 5 MB of records, about 5 s
#endif
  const std::string j = path("queue.ckpt");
  const std::vector<std::string> argv = {nq,    "count",     n,   "--engine",     "mirror", "--split-depth",
                                         "5",   "--threads", "2", "--checkpoint", j,        "--checkpoint-interval",
                                         "3600"};
  child c(argv);
  ASSERT_TRUE(wait_for_size(j, 64 + (std::uintmax_t{1} << 20), c)) << "nothing was written before the interval";
  c.signal(SIGKILL);
  c.wait();
  // Not the run's last flush, made at its end (3.4 MB and more).
  EXPECT_LT(fs::file_size(j), std::uintmax_t{5} << 19);
  const finished r = run(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(" + n + ") = " + total + "  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
}

// A closed standard descriptor must not become a file the
// tool opens. Each of stdin, stdout and stderr closed in turn: runs without
// and with a journal finish (stdout lost is exit 3), a finished journal
// run again is left byte for byte, and a plain count then resumes it.
TEST_F(FaultTest, ClosedStandardDescriptorNeverReceivesTheJournal) {
  for (const int fd : {0, 1, 2}) {
    SCOPED_TRACE("descriptor " + std::to_string(fd) + " closed");
    const int expected = fd == 1 ? 3 : 0;  // the result written to a closed stdout is lost
    const std::string j = path("closed" + std::to_string(fd) + ".ckpt");
    EXPECT_EQ(run({nq, "count", "15", "--progress"}, {.closed = {fd}}).status, expected);
    const std::vector<std::string> with_journal = {nq, "count", "15", "--checkpoint", j, "--progress"};
    const finished first = run(with_journal, {.closed = {fd}});
    EXPECT_EQ(first.status, expected) << first.err;
    if (fd == 1) {
      EXPECT_NE(first.err.find("\nnqueens: cannot write to standard output: Bad file descriptor\n"), std::string::npos)
          << first.err;
    }
    const std::string journal = bytes_of(j);
    EXPECT_EQ(run(with_journal, {.closed = {fd}}).status, expected);
    EXPECT_EQ(bytes_of(j), journal) << "a finished journal was written to";
    const finished resumed = run({nq, "count", "15", "--checkpoint", j});
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("Q(15) = 2279184  verified"), std::string::npos) << resumed.out;
    EXPECT_NE(resumed.out.find("resumed: "), std::string::npos) << resumed.out;
  }
}

// On unfinished journals: a run stopped by SIGINT with a standard
// descriptor closed keeps its records, and resuming it the same way finishes.
TEST_F(FaultTest, InterruptedRunWithAClosedDescriptorKeepsItsRecords) {
#ifdef NQUEENS_SANITIZED
  const std::string n = "16", total = "14772512";
#else
  const std::string n = "17", total = "95815104";
#endif
  for (const int fd : {2, 1, 0}) {
    SCOPED_TRACE("descriptor " + std::to_string(fd) + " closed");
    const std::string j = path("stopped" + std::to_string(fd) + ".ckpt");
    std::vector<std::string> argv = {nq, "count", n, "--engine", "symmetric", "--threads", "1", "--checkpoint", j};
    argv.insert(argv.end(), {"--checkpoint-interval", "0.05", "--progress"});
    child c(argv, {.closed = {fd}});
    ASSERT_TRUE(wait_for_size(j, 64 + 64, c)) << "no records journaled";
    c.signal(SIGINT);
    EXPECT_EQ(c.wait().status, 130);
    const finished rest = run(argv, {.closed = {fd}});
    EXPECT_EQ(rest.status, fd == 1 ? 3 : 0) << rest.err;
    const finished resumed = run({nq, "count", n, "--engine", "symmetric", "--checkpoint", j});
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("Q(" + n + ") = " + total + "  verified"), std::string::npos) << resumed.out;
    EXPECT_NE(resumed.out.find("resumed: "), std::string::npos) << resumed.out;
  }
}

// `check` with stdin closed names the read error (exit 3), not "no placement".
// `first N | check` holds a few bytes a queen, not 53: a placement of 10^8
// queens fits in under 2 GB (1.4 GB measured), so here 2 * 10^7 queens must
// take under 20 bytes each, the text of the line (9 bytes) included.
TEST_F(FaultTest, CheckOfAHugePlacementStaysInBoundedMemory) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' shadow memory is not the tool's";
#endif
  const std::string placement = path("huge.txt");
  ASSERT_EQ(run({nq, "first", "20000000"}, {.stdout_path = placement}).status, 0);
  const finished r = run({"/bin/sh", "-c", "exec '" + nq + "' check < '" + placement + "'"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1 placement checked: a solution\n");
  EXPECT_LT(r.max_rss_kib, 20 * 20000000L / 1024) << "KiB at peak";
}

// plan --stats times the plan as a count with the same bound runs it: the
// engine within what the lists leave of --max-memory (at n = 18 in 16 MiB the
// quadrant engine builds each subproblem's quarters, not the 30 MiB tables).
TEST_F(FaultTest, PlanStatsKeepsWithinMaxMemory) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "the sanitizers' shadow memory is not the tool's";
#endif
  const std::vector<std::string> plan = {nq, "plan", "18", "--engine", "quadrant", "-t", "2", "--max-memory", "16M"};
  const finished planned = run(plan);
  ASSERT_EQ(planned.status, 0) << planned.err;
  std::vector<std::string> stats = plan;
  stats.emplace_back("--stats");
  const finished timed = run(stats);
  ASSERT_EQ(timed.status, 0) << timed.err;
  EXPECT_NE(timed.out.find("666090624"), std::string::npos) << timed.out;
  EXPECT_LT(timed.max_rss_kib - planned.max_rss_kib, 16L * 1024) << "KiB past the plan alone";
}

TEST_F(FaultTest, CheckWithStdinClosedReportsTheReadError) {
  const finished r = run({nq, "check"}, {.closed = {0}});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "nqueens: cannot read standard input: Bad file descriptor\n");
  EXPECT_EQ(run({nq, "check", "1 3 0 2"}, {.closed = {0}}).status, 0);
}

// kill -9 of `scale --csv` at any moment leaves the directory as it
// was (no hidden temporary file beside the CSV); a run that ends replaces it.
TEST_F(FaultTest, KilledScaleLeavesNoTemporaryCsvBehind) {
  const std::string csv = path("keep.csv");
  write(csv, earlier_csv);
  const auto names = [&] {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_)) found.push_back(entry.path().filename().string());
    return found;
  };
  for (const int ms : {0, 30, 150, 400}) {
    // Q(13) a thousand times: seconds even on one fast core (Q(12)'s 1.75 s
    // on a 2-vCPU Zen 5 was near the last kill's moment on a faster one).
    child c({nq, "scale", "13", "--repeat", "1000", "--csv", csv});
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    c.signal(SIGKILL);
    EXPECT_EQ(c.wait().status, 137) << "killed after " << ms << " ms";
    EXPECT_EQ(names(), std::vector<std::string>{"keep.csv"}) << "killed after " << ms << " ms";
    EXPECT_EQ(bytes_of(csv), earlier_csv);
  }
  // And once the temporary file is surely open (unnamed, seen in /proc).
  {
    child c({nq, "scale", "12", "--repeat", "1000", "--csv", csv});
    const std::string here = fs::canonical(dir_).string() + "/";
    const auto holds_one_here = [&] {
      std::error_code gone;
      for (fs::directory_iterator fd("/proc/" + std::to_string(c.pid()) + "/fd", gone), end; !gone && fd != end;
           fd.increment(gone)) {
        std::error_code unreadable;
        // The temporary file (unnamed: "#123 (deleted)", or a hidden name
        // where O_TMPFILE is missing), not the CSV it reads first.
        const std::string target = fs::read_symlink(fd->path(), unreadable).string();
        if (target.starts_with(here) && target != here + "keep.csv") return true;
      }
      return false;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (c.running() && !holds_one_here() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(holds_one_here()) << "scale never opened its temporary file beside the CSV";
    c.signal(SIGKILL);
    EXPECT_EQ(c.wait().status, 137);
    EXPECT_EQ(names(), std::vector<std::string>{"keep.csv"});
    EXPECT_EQ(bytes_of(csv), earlier_csv);
  }
  const finished r = run({nq, "scale", "8", "--threads", "1", "--repeat", "1", "--csv", csv});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(bytes_of(csv).rfind("threads,median_seconds,", 0), 0u) << bytes_of(csv);
  EXPECT_EQ(names(), std::vector<std::string>{"keep.csv"});
}

}  // namespace
}  // namespace nqueens::test
