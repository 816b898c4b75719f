// Runs the real `nqueens` binary and checks stdout, stderr and exit status.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/shard_json.hpp"

namespace {

struct cli_run {
  int status = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

cli_run run_cli_command(const std::string& command_line);

// `args` is passed through the shell unquoted, so keep it to simple words.
cli_run run_cli(const std::string& args) { return run_cli_command(std::string(NQUEENS_CLI_PATH) + " " + args); }

cli_run run_cli_command(const std::string& command_line) {
  const auto dir = std::filesystem::temp_directory_path();
  static int calls = 0;  // ctest runs each test in its own process: pid + call number is unique
  const auto tag = std::to_string(::getpid()) + "-" + std::to_string(++calls);
  const auto out = dir / ("nqueens-cli-" + tag + ".out");
  const auto err = dir / ("nqueens-cli-" + tag + ".err");
  const std::string command = command_line + " >" + out.string() + " 2>" + err.string() + " </dev/null";
  const int raw = std::system(command.c_str());
  cli_run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// Runs a shell script in which $NQ is the nqueens binary (for background
// runs, signals and limits); stdout and stderr are captured as for run_cli.
cli_run run_script(const std::string& script) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto file = dir / ("nqueens-cli-" + std::to_string(::getpid()) + ".sh");
  {
    std::ofstream out(file);
    out << "NQ='" << NQUEENS_CLI_PATH << "'\n" << script << '\n';
  }
  cli_run r = run_cli_command("sh " + file.string());
  std::filesystem::remove(file);
  return r;
}

int lines_in(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(CliTest, CountPrintsVerifiedTotal) {
  const cli_run r = run_cli("count 8 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(8) = 92"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 threads"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliTest, BareNumberIsShorthandForCount) {
  const cli_run r = run_cli("10");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(10) = 724"), std::string::npos) << r.out;
}

TEST(CliTest, CountJsonIsOneObjectWithExactTotal) {
  const cli_run r = run_cli("count 9 --json -t 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1);
  EXPECT_EQ(r.out.front(), '{');
  for (const char* field : {"\"n\":9", "\"total\":352", "\"threads\":1", "\"verified\":true",
                            "\"seconds\":", "\"engine\":\"symmetric\"", "\"unique\":46"}) {
    EXPECT_NE(r.out.find(field), std::string::npos) << field << " in " << r.out;
  }
}

// Every engine gives the four counts, each verified: the fundamental count
// comes from the rotation-symmetric ones (Burnside), not from the engine.
TEST(CliTest, CountPrintsAllFourCountsForEveryEngine) {
  for (const char* engine : {"symmetric", "mirror", "quadrant"}) {
    const cli_run r = run_cli(std::string("count 12 --engine ") + engine);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unique = 1787  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unchanged by a half turn: 80  verified (OEIS A032522)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unchanged by a quarter turn: 8  verified (OEIS A033148)"), std::string::npos) << r.out;
    const cli_run j = run_cli(std::string("count 12 --json --engine ") + engine);
    EXPECT_NE(j.out.find("\"n\":12,\"total\":14200,\"unique\":1787,\"symmetric_180\":80,\"symmetric_90\":8,"),
              std::string::npos)
        << j.out;
    EXPECT_NE(j.out.find("\"verified\":true"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find(std::string("\"engine\":\"") + engine + "\""), std::string::npos) << j.out;
  }
}

TEST(CliTest, RotationalCountsTheSymmetricSolutionsAlone) {
  const cli_run r = run_cli("rotational 13 --json --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1);
  EXPECT_EQ(r.out.rfind("{\"n\":13,\"symmetric_180\":136,\"symmetric_90\":8,", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
  const cli_run text = run_cli("rotational 16");
  EXPECT_NE(text.out.find("unchanged by a half turn: 3000  verified"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("unchanged by a quarter turn: 64  verified"), std::string::npos) << text.out;
  const cli_run help = run_cli("rotational --help");
  EXPECT_NE(help.out.find("'symmetric' engine"), std::string::npos) << help.out;  // says how it differs
  EXPECT_EQ(run_cli("rotational 33").status, 2);
}

TEST(CliTest, VerifyChecksAllFourColumnsWithTheAutoEngine) {
  const cli_run r = run_cli("verify --from 12 --to 17 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"engine\":\"auto\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"n\":16,\"total\":14772512,\"unique\":1846955,\"symmetric_180\":3000,\"symmetric_90\":64,"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"engine\":\"quadrant\""), std::string::npos) << r.out;  // auto picks it at 16 and 17
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
}

TEST(CliTest, VerifyDefaultRangePasses) {
  const cli_run r = run_cli("verify");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("MISMATCH"), r.out.find("OK"));  // sanity: a table was printed
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all 15 counts match"), std::string::npos) << r.out;
}

TEST(CliTest, VerifyJsonListsEveryBoard) {
  const cli_run r = run_cli("verify --from 4 --to 9 --json --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1);
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"n\":9,\"total\":352"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"n\":10,"), std::string::npos) << r.out;
}

TEST(CliTest, ScalePrintsOneRowPerThreadCountWithTheSameTotal) {
  const auto csv = std::filesystem::temp_directory_path() / ("nqueens-scale-" + std::to_string(::getpid()) + ".csv");
  const cli_run r = run_cli("scale 10 --threads 2,1 --repeat 2 --csv " + csv.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("every run counted the same total, verified"), std::string::npos) << r.out;
  const std::string rows = slurp(csv);
  std::filesystem::remove(csv);
  EXPECT_EQ(rows.rfind("threads,median_seconds,speedup,efficiency,total,runs\n", 0), 0u) << rows;
  EXPECT_NE(rows.find("\n1,"), std::string::npos) << rows;
  EXPECT_NE(rows.find(",1.0000,1.0000,724,2\n"), std::string::npos) << rows;
  EXPECT_NE(rows.find("\n2,"), std::string::npos) << rows;
  EXPECT_EQ(lines_in(rows), 3);
}

// scale's --csv file is written to a temporary file in its target's directory
// and renamed over it at the end: whole or untouched, never a journal, no
// temporary file left behind.
class CliCsvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("nqueens-csv-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    csv_ = (dir_ / "f.csv").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // Names in the directory other than f.csv (a temporary file left behind).
  std::string others() const {
    std::string names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      if (entry.path().filename() != "f.csv") names += entry.path().filename().string() + " ";
    }
    return names;
  }
  std::filesystem::path dir_;
  std::string csv_;
};

TEST_F(CliCsvTest, ReplacesTheOldContentsOnSuccess) {
  std::ofstream(csv_) << "old\n";
  const cli_run r = run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(csv_).rfind("threads,median_seconds,speedup,efficiency,total,runs\n1,", 0), 0u) << slurp(csv_);
  EXPECT_EQ(others(), "");
}

TEST_F(CliCsvTest, SigtermMidRunLeavesTheOldContents) {
  std::ofstream(csv_) << "old\n";
  // Signalled once the temporary file is open (unnamed, so seen in /proc; the
  // handlers follow at once), long before 2000 runs of Q(14) end.
  const cli_run r =
      run_script("cd " + dir_.string() + " && { $NQ scale 14 --repeat 1000 --csv f.csv & pid=$!; i=0; " +
                 "until ls -l /proc/$pid/fd 2>/dev/null | grep -qF \"$(pwd -P)/\" || [ $i -ge 3000 ]; do sleep 0.01; " +
                 "i=$((i+1)); done; sleep 0.2; kill -TERM $pid; wait $pid; }");
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(slurp(csv_), "old\n");
  EXPECT_EQ(others(), "");  // the handler let the temporary file be removed
}

TEST_F(CliCsvTest, NeverOverwritesACheckpointJournal) {
  const std::string journal = "NQCKPT\r\n" + std::string(56, '\x01');
  std::ofstream(csv_, std::ios::binary) << journal;
  const cli_run r = run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cannot write --csv file '" + csv_ + "': it is a checkpoint journal"), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;  // refused before any run
  EXPECT_EQ(slurp(csv_), journal);
  EXPECT_EQ(others(), "");
}

TEST_F(CliCsvTest, WritesThroughASymlinkAndKeepsIt) {
  std::ofstream(dir_ / "target.csv") << "old\n";
  std::filesystem::create_symlink("target.csv", csv_);
  EXPECT_EQ(run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_).status, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(csv_));
  EXPECT_EQ(slurp(dir_ / "target.csv").rfind("threads,", 0), 0u);
  std::filesystem::create_symlink(".", dir_ / "dir.csv");
  const cli_run r = run_cli("scale 8 --csv " + (dir_ / "dir.csv").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("a symlink to something other than a file"), std::string::npos) << r.err;
}

TEST(CliTest, PlanStatsReportsTheBound) {
  const cli_run r = run_cli("plan 12 --stats --json --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* field : {"\"subproblems\":", "\"total_seconds\":", "\"longest_seconds\":", "\"bound\":",
                            "\"total\":14200", "\"verified\":true"}) {
    EXPECT_NE(r.out.find(field), std::string::npos) << field << " in " << r.out;
  }
  const cli_run text = run_cli("plan 12");
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("subproblems, fingerprint"), std::string::npos) << text.out;
}

// Signal and kill tests need a count that is still running when the signal
// lands and a resume that finishes soon. They signal once the run's journal
// holds a finished subproblem (whatever the build's speed) and 0.2 s more; Q(17) runs for over a second in Release and
// under ASan (measured 1.2 s and 3.6 s on 2 threads). ThreadSanitizer runs the kernel 5-15 times slower, so Q(16)
// there.
#ifdef NQUEENS_SANITIZED_THREAD
constexpr const char* long_n = "16";
constexpr const char* long_total = "14772512";
#else
constexpr const char* long_n = "17";
constexpr const char* long_total = "95815104";
#endif

class CliCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    journal_ = (std::filesystem::temp_directory_path() /
                ("nqueens-cli-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".ckpt"))
                   .string();
    std::filesystem::remove(journal_);
  }
  void TearDown() override { std::filesystem::remove(journal_); }
  // Resumes the journal and checks the exact result and how much was reused.
  void expect_resumes_exactly(const std::string& n, const std::string& total) {
    const cli_run r = run_cli("count " + n + " --checkpoint " + journal_);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(" + n + ") = " + total + "  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  }
  // Starts `count long_n <options> --checkpoint journal`, runs `signal_commands`
  // (with $pid) once the journal holds a finished subproblem and the count has
  // run 0.2 s more, and returns how the count ended.
  cli_run interrupt_count(const std::string& options, const std::string& signal_commands) {
    // Past the 64-byte header: a record is in, so the signal lands mid-count
    // (not while the tables are built, which takes seconds under TSan).
    return run_script(
        std::string("$NQ count ") + long_n + " " + options + " --checkpoint-interval 0.1 --checkpoint " + journal_ +
        " & pid=$!; i=0; until [ \"$(stat -c %s " + journal_ +
        " 2>/dev/null || echo 0)\" -gt 64 ] || [ $i -ge 6000 ]; do sleep 0.01; i=$((i+1)); done; sleep 0.2; " +
        signal_commands + "; wait $pid");
  }
  std::string journal_;
};

TEST_F(CliCheckpointTest, KillNineMidRunThenResume) {
  const cli_run killed = interrupt_count("--threads 2 --checkpoint-interval 0.02", "kill -9 $pid");
  EXPECT_EQ(killed.status, 137) << killed.err;
  expect_resumes_exactly(long_n, long_total);
}

TEST_F(CliCheckpointTest, SigintStopsWritesTheJournalAndExits130) {
  const cli_run r = interrupt_count("--threads 1", "kill -INT $pid");
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGINT after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("run the same command again to resume"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  expect_resumes_exactly(long_n, long_total);
}

TEST_F(CliCheckpointTest, SigtermExits143AndResumes) {
  const cli_run r = interrupt_count("", "kill -TERM $pid");
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  expect_resumes_exactly(long_n, long_total);
}

TEST_F(CliCheckpointTest, SecondSigintExitsAtOnceLeavingAValidJournal) {
  const cli_run r = interrupt_count("--checkpoint-interval 0.02", "kill -INT $pid; kill -INT $pid");
  EXPECT_EQ(r.status, 130) << r.err;
  expect_resumes_exactly(long_n, long_total);
}

TEST_F(CliCheckpointTest, FullDiskIsReportedAndTheJournalStaysUsable) {
  // A file-size limit of 2 KiB stands in for a full disk: the journal's
  // writes fail (EFBIG) after its first few dozen records.
  const cli_run r = run_script("ulimit -f 2; $NQ count 15 --checkpoint " + journal_ + " --checkpoint-interval 0.01");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("writing checkpoint"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  expect_resumes_exactly("15", "2279184");
}

TEST_F(CliCheckpointTest, JournalOfAnotherBoardIsRefusedWithExitTwo) {
  ASSERT_EQ(run_cli("count 12 --checkpoint " + journal_).status, 0);
  const cli_run r = run_cli("count 13 --checkpoint " + journal_);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("belongs to another run (n = 12"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
}

TEST_F(CliCheckpointTest, ProgressGoesToStderrOnly) {
  const cli_run r = run_cli("count 15 --progress --json --checkpoint " + journal_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1) << r.out;
  EXPECT_NE(r.err.find("progress: 100.0%"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("subproblems  "), std::string::npos) << r.err;
}

class CliShardTest : public ::testing::Test {
 protected:
  // Counts shard k of `shards` of Q(n) into its own JSON file; returns the file.
  std::string shard_file(int n, int k, int shards, const std::string& extra = "") {
    std::string file = (std::filesystem::temp_directory_path() /
                        ("nqueens-shard-" + std::to_string(::getpid()) + "-" + std::to_string(n) + "-" +
                         std::to_string(k) + "of" + std::to_string(shards) + ".json"))
                           .string();
    files_.push_back(file);
    const cli_run r = run_cli("count " + std::to_string(n) + " --shard " + std::to_string(k) + "/" +
                              std::to_string(shards) + " --json " + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ofstream(file) << r.out;
    return file;
  }
  void TearDown() override {
    for (const auto& f : files_) std::filesystem::remove(f);
  }
  std::vector<std::string> files_;
};

TEST_F(CliShardTest, FourShardsMergeToTheVerifiedCounts) {
  std::string all;
  for (int k = 0; k < 4; ++k) all += " " + shard_file(13, k, 4);
  const cli_run r = run_cli("merge" + all);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(13) = 73712  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unique = 9233  verified"), std::string::npos) << r.out;
}

TEST_F(CliShardTest, MoreShardsThanSubproblemsAndOneShard) {
  std::string all;
  for (int k = 0; k < 40; ++k) all += " " + shard_file(5, k, 40);  // the 5-board plan is tiny
  EXPECT_EQ(run_cli("merge" + all).status, 0);
  EXPECT_EQ(run_cli("merge " + shard_file(11, 0, 1)).status, 0);
}

TEST_F(CliShardTest, MissingDuplicateAndForeignShardsAreNamed) {
  const std::string a = shard_file(12, 0, 3), b = shard_file(12, 1, 3), c = shard_file(12, 2, 3);
  const std::string other = shard_file(11, 2, 3);
  cli_run r = run_cli("merge " + a + " " + b);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("1 of 3 shards missing: 2"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;  // never a partial sum presented as a total
  r = run_cli("merge " + a + " " + b + " " + b + " " + c);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("shard 1/3 is given twice: " + b + " and " + b), std::string::npos) << r.err;
  r = run_cli("merge " + a + " " + b + " " + other);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(other + " belongs to another run (n = 11"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shards missing: 2"), std::string::npos) << r.err;
}

// The rotation-symmetric parts are summed and the fundamental count derived;
// shards whose counts cannot all be right (Q + P + 2R not a multiple of 8)
// are a mismatch, exit 1, not a crash.
TEST_F(CliShardTest, MergeDerivesTheFundamentalCountAndRefusesInconsistentParts) {
  const std::string a = shard_file(12, 0, 2), b = shard_file(12, 1, 2);
  cli_run r = run_cli("merge --json " + a + " " + b);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"total\":14200,\"unique\":1787,\"symmetric_180\":80,\"symmetric_90\":8,"), std::string::npos)
      << r.out;
  std::string text = slurp(a);
  text.insert(text.find("\"symmetric_180\":") + 16, "1");
  std::ofstream(a, std::ios::trunc) << nqueens::test::resigned(text);  // past the checksum, to Burnside's check
  r = run_cli("merge " + a + " " + b);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("not a multiple of 8"), std::string::npos) << r.err;
}

// A shard file that is not strictly the JSON `count --json` writes is a usage
// error (exit 2) naming the file and the byte, never wrapped, guessed or
// echoed raw into the output.
TEST_F(CliShardTest, MalformedShardFilesAreRefusedNamingTheFile) {
  const std::string a = shard_file(12, 0, 2), b = shard_file(12, 1, 2);
  const std::string good = slurp(a);
  ASSERT_NE(good.find("\"total\":6994,"), std::string::npos) << good;
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  struct bad_shard {
    std::string text;
    const char* message;
    bool resign = false;  // the checksum made to match, to reach the checks behind it
  };
  const bad_shard cases[] = {
      // Above 2^128: once wrapped silently to a small total.
      {replaced("\"total\":6994", "\"total\":340282366920938463463374607431768218450"),
       "byte 17: \"total\" does not fit in 128 bits"},
      {replaced("\"total\":6994", "\"total\":\"6994\""), "\"total\" must be a number, not a string"},
      {replaced("\"total\":6994", "\"total\":6994.0"), "\"total\" must be a whole number"},
      {replaced("{\"n\":12,", "{\"n\":12,\"n\":13,"), "byte 9: duplicate key \"n\""},
      {good + "{}", "unexpected text after the object"},
      {replaced("\"engine\":\"symmetric\"", "\"engine\":\"sym\x1b[2Jmetric\""), "raw control character 0x1b"},
      {replaced("\"engine\":\"symmetric\"",
                "\"engine\":\"sym\xff"
                "metric\""),
       "invalid UTF-8 in a string"},
      {replaced("\"engine\":\"symmetric\"", "\"engine\":\"sym\\u001b[2Jmetric\""), "\"engine\" is not one of"},
      {replaced("\"plan_fingerprint\":\"", "\"plan_fingerprint\":\"\\n"), "\"plan_fingerprint\" is not 16"},
      {replaced("\"shard\":0", "\"shard\":2"), "\"shard\" 2 is out of range: expected an integer from 0 to 1"},
      {replaced("\"n\":12", "\"m\":12"), "no \"n\" member"},
      {good + std::string(std::size_t{1} << 20, ' '), "larger than 1048576 bytes"},
      // A digit changed in transit, which Burnside's divisibility cannot see.
      {replaced("\"total\":6994", "\"total\":6995"), "the checksum does not match the counts"},
      {replaced("\"total\":6994", "\"total\":7002"), "the checksum does not match the counts"},
      {replaced("\"symmetric_90\":4", "\"symmetric_90\":5"), "the checksum does not match the counts"},
      {replaced("\"shard_subproblems\":671", "\"shard_subproblems\":672"), "the checksum does not match"},
      {replaced(",\"checksum\":\"", ",\"sum\":\""), "no \"checksum\": it was written by an nqueens older"},
      // A part of a run claims no verified total and no fundamental count.
      {replaced("\"verified\":null", "\"verified\":true"), "\"verified\" must be null in shard 0/2"},
      {replaced("\"unique\":null", "\"unique\":1787"), "\"unique\" must be null in shard 0/2"},
      // Fields that contradict the plan the fingerprint names.
      {replaced("\"split_depth\":4", "\"split_depth\":3"), "plan d0fe00b6c56b4b19 is not the plan its fields make",
       true},
      {replaced("\"subproblems\":1342", "\"subproblems\":1343"), "\"subproblems\" 1343 contradicts its plan", true},
      {replaced("\"shard_subproblems\":671", "\"shard_subproblems\":670"),
       "\"shard_subproblems\" 670 contradicts shard 0/2 of its plan, which holds 671", true},
  };
  const std::string bad =
      (std::filesystem::temp_directory_path() / ("nqueens-bad-shard-" + std::to_string(::getpid()) + ".json")).string();
  files_.push_back(bad);
  for (const bad_shard& c : cases) {
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << (c.resign ? nqueens::test::resigned(c.text) : c.text);
    const cli_run r = run_cli(std::string("merge ").append(bad).append(" ").append(b));
    EXPECT_EQ(r.status, 2) << c.message << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("nqueens: " + bad + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;  // nothing read reaches the terminal raw
  }
  EXPECT_EQ(run_cli("merge " + a + " " + b).status, 0);  // the untouched files still merge
}

TEST_F(CliShardTest, ShardsWithTheirOwnJournals) {
  const auto journal = std::filesystem::temp_directory_path() / ("nqueens-shard-" + std::to_string(::getpid()));
  std::string all;
  for (int k = 0; k < 2; ++k) {
    const std::string j = journal.string() + "-" + std::to_string(k) + ".ckpt";
    files_.push_back(j);
    all += " " + shard_file(13, k, 2, "--checkpoint " + j);
  }
  EXPECT_EQ(run_cli("merge" + all).status, 0);
  // A shard's journal is refused for another shard.
  const cli_run r = run_cli("count 13 --shard 1/2 --checkpoint " + journal.string() + "-0.ckpt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("shard 0/2"), std::string::npos) << r.err;
}

TEST(CliTest, HelpAndVersion) {
  EXPECT_EQ(run_cli("--help").status, 0);
  EXPECT_NE(run_cli("--help").out.find("verify"), std::string::npos);
  EXPECT_EQ(run_cli("count --help").status, 0);
  EXPECT_NE(run_cli("count --help").out.find("--threads"), std::string::npos);
  const cli_run v = run_cli("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("nqueens ", 0), 0u) << v.out;
}

// Output that never arrived is a failure: every command, its help and the
// version, with standard output on /dev/full (each write fails with ENOSPC),
// exit 3 with one line, whatever they computed.
TEST(CliTest, LostStandardOutputIsExitThree) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string shard =
      (std::filesystem::temp_directory_path() / ("nqueens-full-" + std::to_string(::getpid()) + ".json")).string();
  ASSERT_EQ(run_script("$NQ count 8 --json > " + shard).status, 0);
  for (const std::string& args : std::vector<std::string>{
           "count 8 --shard 0/2 --json", "count 8", "merge " + shard, "merge --json " + shard, "verify --to 8",
           "check 1 3 0 2", "plan 8", "scale 8 --threads 1 --repeat 1", "rotational 8", "list 8", "first 8",
           "first 1000000", "--version", "--help", "count --help", "merge --help"}) {
    const cli_run r = run_script("$NQ " + args + " >/dev/full");
    EXPECT_EQ(r.status, 3) << args << ": " << r.err;
    EXPECT_EQ(r.err, "nqueens: cannot write to standard output: No space left on device\n") << args;
  }
  std::filesystem::remove(shard);
  // A usage error says more than the lost output.
  const cli_run usage = run_script("$NQ count 33 >/dev/full");
  EXPECT_EQ(usage.status, 2);
  EXPECT_EQ(lines_in(usage.err), 1) << usage.err;
}

TEST(CliTest, ClosedStandardOutputIsExitThreeOnlyWhenWrittenTo) {
  const cli_run version = run_script("$NQ --version >&-");
  EXPECT_EQ(version.status, 3);
  EXPECT_EQ(version.err, "nqueens: cannot write to standard output: Bad file descriptor\n");
  // `first 2` prints nothing on stdout: nothing was lost, its own status stays.
  const cli_run none = run_script("$NQ first 2 >&-");
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.err, "nqueens: no solution exists for N = 2\n");
  // A reader that goes away still ends list and first quietly.
  const cli_run first = run_script("($NQ first 100000; echo \"first exited $?\" >&2) | head -c 4");
  EXPECT_EQ(first.out, "(1, ");
  EXPECT_EQ(first.err, "first exited 0\n");
}

TEST(CliTest, HelpListsEveryCommandAndEachHasItsOwnHelp) {
  const cli_run r = run_cli("--help");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* command : {"count", "verify", "scale", "plan", "merge", "list", "first", "check"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + command + " "), std::string::npos) << command << " in " << r.out;
    const cli_run help = run_cli(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command << ": " << help.err;
    EXPECT_NE(help.out.find("nqueens " + std::string(command)), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("-h, --help"), std::string::npos) << help.out;
  }
  EXPECT_NE(r.out.find("\n  N            Shorthand for 'count N'"), std::string::npos) << r.out;
}

// The value of "key" in a one-line JSON object, when it is a string.
std::string json_string(const std::string& json, const std::string& key) {
  const std::string open = "\"" + key + "\":\"";
  const auto start = json.find(open);
  if (start == std::string::npos) return "<no " + key + ">";
  const auto first = start + open.size();
  return json.substr(first, json.find('"', first) - first);
}

bool is_isa_name(const std::string& name) { return name == "portable" || name == "avx2" || name == "avx512"; }

TEST(CliTest, VersionNamesTheInstructionSet) {
  const cli_run r = run_cli("--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 2) << r.out;
  const auto line = r.out.find("\nisa: ");
  ASSERT_NE(line, std::string::npos) << r.out;
  EXPECT_TRUE(is_isa_name(r.out.substr(line + 6, r.out.size() - line - 7))) << r.out;
}

TEST(CliTest, EveryJsonOutputNamesTheInstructionSet) {
  const cli_run count = run_cli("count 8 --json");
  EXPECT_EQ(count.status, 0) << count.err;
  EXPECT_TRUE(is_isa_name(json_string(count.out, "isa"))) << count.out;
  const std::string shard =
      (std::filesystem::temp_directory_path() / ("nqueens-isa-" + std::to_string(::getpid()) + ".json")).string();
  for (const std::string args : {"verify --to 6 --json", "scale 8 --threads 1 --repeat 1 --json", "plan 8 --json",
                                 "plan 8 --stats --threads 1 --json"}) {
    const cli_run r = run_cli(args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    EXPECT_EQ(lines_in(r.out), 1) << r.out;
    EXPECT_EQ(json_string(r.out, "isa"), json_string(count.out, "isa")) << args << ": " << r.out;
  }
  const cli_run merge = run_script("$NQ count 8 --json > " + shard + " && $NQ merge --json " + shard);
  std::filesystem::remove(shard);
  EXPECT_EQ(merge.status, 0) << merge.err;
  EXPECT_EQ(json_string(merge.out, "isa"), json_string(count.out, "isa")) << merge.out;
}

TEST(CliTest, UnknownIsaIsAOneLineUsageError) {
  for (const char* command : {"count 8", "verify --to 6", "8", "--version"}) {
    const cli_run r = run_script(std::string("NQUEENS_ISA=bogus $NQ ") + command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;  // checked before verify's table header
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("nqueens: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("NQUEENS_ISA"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_script("NQUEENS_ISA=bogus $NQ --help").status, 0);  // help still says how to use the tool
}

TEST(CliTest, PortableIsaCountsTheSameTotals) {
  const cli_run r = run_script("NQUEENS_ISA=portable $NQ count 10 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_string(r.out, "isa"), "portable") << r.out;
  EXPECT_NE(r.out.find("\"total\":724,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
}

TEST(CliTest, QuadrantEngineCountsAndVerifies) {
  const cli_run r = run_cli("count 12 --engine quadrant --threads 2 --max-memory 64M");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine quadrant"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unique = 1787  verified"), std::string::npos) << r.out;  // from the rotation-symmetric counts
}

// plan takes count's memory bound: the estimate follows it (the quadrant
// engine drops its whole tables, then slices its groups) and stays within it.
TEST(CliTest, PlanPricesTheMemoryBound) {
  const cli_run roomy = run_cli("plan 22 --engine quadrant --threads 2 --max-memory 64G --json");
  ASSERT_EQ(roomy.status, 0) << roomy.err;
  const cli_run squeezed = run_cli("plan 22 --engine quadrant --threads 2 --max-memory 300M --json");
  ASSERT_EQ(squeezed.status, 0) << squeezed.err;
  const auto estimate = [](const std::string& out) {
    const std::size_t at = out.find("\"memory_estimate_bytes\":");
    return at == std::string::npos ? 0.0 : std::stod(out.substr(at + 24));
  };
  EXPECT_GT(estimate(roomy.out), 1.5e9) << roomy.out;  // the whole tables
  EXPECT_GT(estimate(squeezed.out), 0.0) << squeezed.out;
  EXPECT_LE(estimate(squeezed.out), 300.0 * 1024 * 1024) << squeezed.out;
  const cli_run text = run_cli("plan 20 --engine quadrant --threads 2 --max-memory 128M");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("memory: about"), std::string::npos) << text.out;
}

// Boards past the whole tables' reach plan within 8 GiB: the plan is ranked
// (7 * 10^7 subproblems at n = 27), each subproblem builds its own quarters.
TEST(CliTest, QuadrantPlansEveryBoardUpTo28Within8GiB) {
  for (const int n : {25, 26, 27, 28}) {
    const cli_run r = run_cli("plan " + std::to_string(n) + " --engine quadrant --threads 2 --max-memory 8G --json");
    ASSERT_EQ(r.status, 0) << n << ": " << r.err;
    const std::size_t at = r.out.find("\"memory_estimate_bytes\":");
    ASSERT_NE(at, std::string::npos) << r.out;
    const double estimate = std::stod(r.out.substr(at + 24));
    EXPECT_GT(estimate, 1e9) << r.out;
    EXPECT_LE(estimate, 8.0 * 1024 * 1024 * 1024) << r.out;
    EXPECT_NE(r.out.find("\"subproblems\":"), std::string::npos) << r.out;
  }
}

// Squeezed below its tables, the quadrant engine still counts exactly.
TEST(CliTest, QuadrantCountsExactlyInLittleMemory) {
  const cli_run r = run_cli("count 16 --engine quadrant --threads 2 --max-memory 11M");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(16) = 14772512  verified"), std::string::npos) << r.out;
}

TEST(CliTest, QuadrantWorksWithJournalsAndShards) {
  const cli_run r = run_script(
      "rm -f quadrant.ckpt q0.json q1.json; $NQ count 14 --engine quadrant --checkpoint quadrant.ckpt >/dev/null && "
      "$NQ count 14 --engine quadrant --checkpoint quadrant.ckpt && "
      "$NQ count 14 --engine quadrant --shard 0/2 --json > q0.json && "
      "$NQ count 14 --engine quadrant --shard 1/2 --json > q1.json && $NQ merge q0.json q1.json; "
      "status=$?; rm -f quadrant.ckpt q0.json q1.json; exit $status");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merged 2 shards of engine quadrant"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), 'Q'), 2) << r.out;  // both totals printed, both verified
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
}

TEST(CliListTest, EightQueensHas92TuplesInOrder) {
  const cli_run r = run_cli("list 8 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 92);
  EXPECT_EQ(r.out.rfind("(0, 4, 7, 5, 2, 6, 1, 3)\n", 0), 0u) << r.out.substr(0, 100);
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CliListTest, UniqueListsTwelveClassesWithSizes) {
  const cli_run r = run_cli("list 8 --unique");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 12);
  EXPECT_NE(r.out.find("(2, 4, 1, 7, 0, 6, 3, 5) 4\n"), std::string::npos) << r.out;  // the symmetric class
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '8'), 11) << r.out;                // eleven of size 8
}

TEST(CliListTest, BoardFormatDrawsTheFourSolutionsOfSix) {
  const cli_run r = run_cli("list 6 --format board");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 4 * 7);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), 'Q'), std::ptrdiff_t{4} * 6);
  EXPECT_EQ(r.out.rfind(".Q....\n...Q..\n.....Q\nQ.....\n..Q...\n....Q.\n\n", 0), 0u) << r.out;
}

TEST(CliListTest, FenForTheChessBoard) {
  const cli_run r = run_cli("list 8 --format fen --limit 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4\nQ7/5Q2/7Q/2Q5/6Q1/3Q4/1Q6/4Q3\n");
}

TEST(CliListTest, ListedSolutionsPassTheChecker) {
  const cli_run r = run_script("$NQ list 10 | $NQ check");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("724 placements checked: all are solutions"), std::string::npos) << r.out;
  const cli_run unique = run_script("$NQ list 10 --unique | $NQ check");
  EXPECT_NE(unique.out.find("92 placements checked"), std::string::npos) << unique.out << unique.err;
}

TEST(CliListTest, LimitIsFastOnABoardOfThirty) {
  const cli_run r = run_script("$NQ list 30 --limit 2 | $NQ check");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 placements checked: all are solutions"), std::string::npos) << r.out;
}

TEST(CliListTest, ClosedPipeEndsQuietly) {
  // head exits after one line: the listing stops with status 0 and says nothing.
  const cli_run r = run_script("($NQ list 16; echo \"list exited $?\" >&2) | head -n 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "(0, 2, 4, 1, 12, 8, 13, 11, 14, 5, 15, 6, 3, 10, 7, 9)\n");
  EXPECT_EQ(r.err, "list exited 0\n");
}

TEST(CliFirstTest, MillionQueensPassTheChecker) {
  const cli_run r = run_script("$NQ first 1000000 | $NQ check");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 placement checked: a solution"), std::string::npos) << r.out;
}

TEST(CliFirstTest, NoSolutionForTwoAndThree) {
  for (const char* n : {"2", "3"}) {
    const cli_run r = run_cli(std::string("first ") + n);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("no solution exists for N = "), std::string::npos) << r.err;
  }
  const cli_run four = run_cli("first 4 --format board");
  EXPECT_EQ(four.status, 0);
  EXPECT_EQ(four.out, ".Q..\n...Q\nQ...\n..Q.\n\n");
}

TEST(CliCheckTest, SolutionExitsZero) {
  const cli_run r = run_cli("check 1 3 0 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "solution: 4 queens, no two attack each other\n");
  EXPECT_EQ(run_cli("check '(1, 3, 0, 2)'").status, 0);
  EXPECT_EQ(run_cli("check 1,3,0,2").status, 0);
}

TEST(CliCheckTest, AttackingQueensAreNamedAndExitOne) {
  const cli_run r = run_cli("check '(1, 1, 0, 2)'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("rows 0 and 1: same column (1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rows 1 and 2: same anti-diagonal (columns 1 and 0)"), std::string::npos) << r.out;
}

TEST(CliCheckTest, StdinLinesAreCheckedOneByOne) {
  const cli_run r = run_script("printf '1 3 0 2\\n\\n0 1\\n' | $NQ check");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("line 3: not a solution"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 placements checked: 1 is not a solution"), std::string::npos) << r.out;
}

// Separate placements are never merged into one board.
TEST(CliCheckTest, EachOperandIsAPlacementOfItsOwn) {
  const cli_run two = run_cli("check '1 3 0 2' '2 0 3 1'");
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_EQ(two.out, "2 placements checked: all are solutions\n");
  const cli_run bad = run_cli("check '1 3 0 2' '(1, 1)'");
  EXPECT_EQ(bad.status, 1) << bad.err;
  EXPECT_EQ(bad.out,
            "placement 2: not a solution: 1 pair of queens attack each other\n"
            "  rows 0 and 1: same column (1)\n"
            "2 placements checked: 1 is not a solution\n");
  // Lines inside one operand are placements too: `check "$(nqueens list 6)"`.
  const cli_run lines = run_script("$NQ check \"$($NQ list 6)\"");
  EXPECT_EQ(lines.status, 0) << lines.err;
  EXPECT_EQ(lines.out, "4 placements checked: all are solutions\n");
  // Operands that are not each a whole placement are one, as the shell split
  // it: numbers, the tool's own output unquoted, a bracket or comma per word.
  for (const char* split :
       {"check 2 0 3 1", "check 1, 3, 0, 2", "check [1 3 0 2]", "check 1 3 '0 2'", "check '(1,' 3, 0, '2)'"}) {
    const cli_run r = run_cli(split);
    EXPECT_EQ(r.status, 0) << split << ": " << r.err;
    EXPECT_EQ(r.out, "solution: 4 queens, no two attack each other\n") << split;
  }
  const cli_run first = run_script("$NQ check $($NQ first 8)");
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.out, "solution: 8 queens, no two attack each other\n");
}

// A lone CR ends a line, as on a terminal; CRLF stays one line break.
TEST(CliCheckTest, ALoneCarriageReturnEndsALine) {
  for (const char* input : {"1 3 0 2\\r2 0 3 1\\n", "1 3 0 2\\r\\n2 0 3 1\\r\\n", "1 3 0 2\\r2 0 3 1"}) {
    const cli_run r = run_script(std::string("printf '") + input + "' | $NQ check");
    EXPECT_EQ(r.status, 0) << input << ": " << r.err;
    EXPECT_EQ(r.out, "2 placements checked: all are solutions\n") << input;
  }
  const cli_run numbered = run_script("printf '1 3 0 2\\r\\r\\n0 1\\r\\n' | $NQ check");
  EXPECT_EQ(numbered.status, 1) << numbered.err;
  EXPECT_EQ(numbered.out.rfind("line 3: not a solution", 0), 0u) << numbered.out;
}

// A standard input that cannot be read is a failure (exit 3) that says why.
TEST(CliCheckTest, UnreadableStandardInputIsNamed) {
  const cli_run directory = run_script("$NQ check < /tmp");
  EXPECT_EQ(directory.status, 3);
  EXPECT_EQ(directory.err, "nqueens: cannot read standard input: Is a directory\n");
  const cli_run closed = run_script("$NQ check <&-");
  EXPECT_EQ(closed.status, 3);
  EXPECT_EQ(closed.err, "nqueens: cannot read standard input: Bad file descriptor\n");
  EXPECT_TRUE(closed.out.empty()) << closed.out;
}

// One rule for every number on the command line, option or operand: plain
// decimal digits, no sign, no leading zero, no spaces, no base prefix;
// seconds may have a fraction. What one option refuses, every option refuses.
TEST(CliTest, EveryNumberIsReadByTheSameRule) {
  for (const char* refused : {"count +12",
                              "count 012",
                              "count 0x10",
                              "count 12 --threads 0x2",
                              "count 12 --threads ' 2'",
                              "count 12 --threads 02",
                              "count 12 --checkpoint-interval 0x10",
                              "count 12 --checkpoint-interval ' 2'",
                              "count 12 --checkpoint-interval 1e1",
                              "count 12 --checkpoint-interval .5",
                              "count 12 --checkpoint-interval 2.",
                              "count 12 --checkpoint-interval +2",
                              "count 12 --shard -0/2",
                              "count 12 --shard 00/2",
                              "count 12 --shard 0/+2",
                              "count 12 --max-memory 08G",
                              "count 12 --split-depth +2",
                              "verify --to 08",
                              "scale 8 --threads 1,02",
                              "list 8 --limit 0x5",
                              "first 08",
                              "rotational 12 --checkpoint-interval 0x1"}) {
    const cli_run r = run_script(std::string("$NQ ") + refused);
    EXPECT_EQ(r.status, 2) << refused << ": " << r.out << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << refused << ": " << r.err;
  }
  for (const char* accepted : {"count 12 --checkpoint-interval 2.5 --json",
                               "count 12 --checkpoint-interval 0.01 --json", "count 12 --shard 0/2 --json",
                               "count 12 --threads 1 --json", "rotational 12 --checkpoint-interval 5 --no-progress"}) {
    const cli_run r = run_script(std::string("$NQ ") + accepted);
    EXPECT_EQ(r.status, 0) << accepted << ": " << r.err;
  }
}

// Each message names what the user gave, whole and readable.
TEST(CliTest, MessagesNameWhatWasGiven) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"$NQ first -1", "board size -1 is out of range: expected an integer from 1 to 100000000"},
      {"$NQ check -1", "columns are counted from 0: '-1' is negative"},
      {"$NQ check '1 -12 0'", "columns are counted from 0: '-12' is negative"},
      {"printf '1 3\\0 0 2\\n' | $NQ check",
       "line 1: unexpected character '\\x00' in the placement (expected column numbers)"},
      {"$NQ check \"$(printf '1 3 \\033 2')\"",
       "unexpected character '\\x1b' in the placement (expected column numbers)"},
      {"$NQ count 16 --engine mirror --split-depth 12",
       "split depth 12 gives more than 4194304 subproblems for n = 16 (depth 8 already does): "
       "choose a smaller --split-depth"},
      {"$NQ ' 12'",
       "invalid board size ' 12': expected an integer from 1 to 32, in plain decimal digits, no sign, no leading zero"},
      {"$NQ '12 '",
       "invalid board size '12 ': expected an integer from 1 to 32, in plain decimal digits, no sign, no leading zero"},
      {"$NQ scale 8 --threads 1,",
       "invalid --threads '': expected an integer from 1 to 1024, in plain decimal digits, no sign, no leading zero"},
      {"$NQ scale 8 --threads ,1",
       "invalid --threads '': expected an integer from 1 to 1024, in plain decimal digits, no sign, no leading zero"},
      {"$NQ scale 8 --threads 1,,2",
       "invalid --threads '': expected an integer from 1 to 1024, in plain decimal digits, no sign, no leading zero"},
  };
  for (const auto& [script, message] : cases) {
    const cli_run r = run_script(script);
    EXPECT_EQ(r.status, 2) << script;
    EXPECT_EQ(r.err, "nqueens: " + message + "\n") << script;
    EXPECT_TRUE(r.out.empty()) << script << ": " << r.out;
  }
}

struct bad_input {
  const char* args;
  const char* message;  // a fragment the one-line error must contain
};

// Shows the arguments in test names and failure messages.
void PrintTo(const bad_input& c, std::ostream* os) { *os << '"' << c.args << '"'; }

class CliBadInputTest : public ::testing::TestWithParam<bad_input> {};

TEST_P(CliBadInputTest, ExitsTwoWithOneLineError) {
  const bad_input& c = GetParam();
  const cli_run r = run_cli(c.args);
  EXPECT_EQ(r.status, 2) << c.args;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("nqueens: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr was: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, CliBadInputTest,
    ::testing::Values(
        bad_input{"count", "missing board size"},
        bad_input{"count abc",
                  "invalid board size 'abc': expected an integer from 1 to 32, in plain decimal digits, no sign, no "
                  "leading zero"},
        bad_input{"count 0", "board size 0 is out of range: expected an integer from 1 to 32"},
        bad_input{"count -4", "board size -4 is out of range"}, bad_input{"-4", "board size -4 is out of range"},
        bad_input{"count 33", "board size 33 is out of range"},
        bad_input{"count 99999999999999999999", "is out of range"}, bad_input{"count 12x", "invalid board size '12x'"},
        bad_input{"12x", "invalid board size '12x'"}, bad_input{"count 8 9", "expected one board size"},
        bad_input{"count 8 --threads 0", "--threads 0 is out of range: expected an integer from 1"},
        bad_input{"count 8 --threads -2", "--threads -2 is out of range"},
        bad_input{"count 8 --threads two", "invalid --threads 'two'"},
        // A negative number after an option that takes a value is that value; after a
        // flag it is a board size.
        bad_input{"count 8 -t -2", "--threads -2 is out of range"},
        bad_input{"count 8 --engine -1", "unknown engine '-1'"},
        bad_input{"count 8 --split-depth -1", "--split-depth -1 is out of range"},
        bad_input{"count 8 --json -3", "board size -3 is out of range"},
        bad_input{"list 8 --limit -5", "--limit -5 is out of range"},
        bad_input{"scale 10 -r -1", "--repeat -1 is out of range"},
        bad_input{"verify --from -3", "--from -3 is out of range"}, bad_input{"merge -3", "unexpected argument '-3'"},
        bad_input{"count 8 --threads", "missing an argument"}, bad_input{"count 8 --frobnicate", "frobnicate"},
        bad_input{"count 8 --engine warp", "unknown engine 'warp'"},
        bad_input{"count 8 --split-depth 0", "--split-depth 0 is out of range"},
        bad_input{"verify --from 9 --to 5", "--from 9 is greater than --to 5"},
        bad_input{"verify --to 28", "--to 28 is out of range: expected an integer from 1 to 27"},
        bad_input{"verify --from 0", "--from 0 is out of range"}, bad_input{"verify 12", "unexpected argument '12'"},
        bad_input{"frobnicate", "unknown command 'frobnicate'"},
        bad_input{"scale 10 --threads 1,0", "--threads 0 is out of range"},
        bad_input{"scale 10 --threads 1,x", "invalid --threads 'x'"},
        bad_input{"scale 10 --repeat 0", "--repeat 0 is out of range"},
        bad_input{"scale 10 --csv /nonexistent-dir/s.csv", "cannot write --csv file"},
        bad_input{"scale 10 --csv /", "cannot write --csv file '/': it is a directory"},
        bad_input{"scale 10 --csv /dev/null", "cannot write --csv file '/dev/null': not a regular file"},
        bad_input{"scale", "missing board size"}, bad_input{"plan 40", "board size 40 is out of range"},
        bad_input{"count 10 --checkpoint /nonexistent-dir/q.ckpt", "cannot create checkpoint"},
        bad_input{"count 10 --checkpoint-interval 0", "--checkpoint-interval 0 is out of range"},
        bad_input{"count 10 --progress --no-progress", "contradict"},
        bad_input{"count 10 --shard 4/4", "shard index I 4 is out of range: expected an integer from 0 to 3"},
        bad_input{"count 10 --shard 1", "invalid --shard '1': expected I/M"},
        bad_input{"count 10 --shard 0/0", "shard count M 0 is out of range"},
        bad_input{"merge", "merge needs the shard files"},
        bad_input{"merge /nonexistent.json", "cannot read '/nonexistent.json'"},
        bad_input{"plan 12 --split-depth 13", "--split-depth 13 is out of range"}, bad_input{"", "missing command"},
        bad_input{"list", "missing board size"}, bad_input{"list 33", "board size 33 is out of range"},
        bad_input{"list 6 --format fen", "--format fen describes a chess board: it needs N = 8, not 6"},
        bad_input{"list 8 --format ascii", "unknown --format 'ascii': expected tuple, board or fen"},
        bad_input{"list 8 --limit 0", "--limit 0 is out of range"},
        bad_input{"list 8 --threads 0", "--threads 0 is out of range"},
        bad_input{"first 0", "board size 0 is out of range"},
        bad_input{"first 100000001", "board size 100000001 is out of range"},
        bad_input{"first 5000 --format board", "--format board draws at most 1000 columns"},
        bad_input{"first 9 --format fen", "it needs N = 8, not 9"},
        bad_input{"check 1 3 x 2", "unexpected character 'x'"}, bad_input{"check 1,,3", "empty entry"},
        bad_input{"check 1,3,", "empty entry (a trailing comma)"}, bad_input{"check -", "unexpected character '-'"},
        bad_input{"check 1 3 0 4", "the queen of row 3 is in column 4, outside 0..3"},
        bad_input{"check", "no placement given"},
        bad_input{"count 14 --engine quadrant --max-memory 1M",
                  "MiB for n = 14, more than the 1 MiB allowed (--max-memory)"},
        bad_input{"count 14 --max-memory 12x", "invalid --max-memory '12x'"},
        bad_input{"count 14 --max-memory 100K", "invalid --max-memory '100K'"},
        bad_input{"plan 22 --engine quadrant --max-memory 1M",
                  "MiB for n = 22, more than the 1 MiB allowed (--max-memory)"},
        bad_input{"plan 14 --max-memory 12x", "invalid --max-memory '12x'"},
        bad_input{"count 29 --engine quadrant", "the quadrant engine handles n up to 28"},
        bad_input{"plan 28 --engine quadrant --threads 2 --max-memory 2G",
                  "GiB for n = 28, more than the 2.0 GiB allowed (--max-memory)"}));

}  // namespace

namespace {

// What `nqueens count` drew on a pseudo-terminal of `columns` columns before
// it was stopped: `before` from its start, `after` from 0.6 s after the
// terminal was resized to `resized_columns` (0: not resized).
struct pty_drawing {
  std::string before, after;
};

pty_drawing draw_on_pty(int columns, const char* term, int resized_columns = 0) {
  winsize size{};
  size.ws_row = 24;
  size.ws_col = static_cast<unsigned short>(columns);
  int master = -1, slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, &size) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::ioctl(slave, TIOCSCTTY, 0);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(slave, 2);
    ::close(master);
    if (term != nullptr) {
      ::setenv("TERM", term, 1);
    } else {
      ::unsetenv("TERM");
    }
    ::unsetenv("COLUMNS");
    ::execl(NQUEENS_CLI_PATH, NQUEENS_CLI_PATH, "count", "17", "--engine", "symmetric", "--threads", "1", "--progress",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(slave);
  const auto read_for = [&](double seconds, std::string& into) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{master, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buffer[4096];
      const ssize_t got = ::read(master, buffer, sizeof buffer);
      if (got <= 0) break;  // EIO: the other side is closed
      into.append(buffer, static_cast<std::size_t>(got));
    }
  };
  pty_drawing d;
  read_for(1.3, d.before);
  if (resized_columns > 0) {
    size.ws_col = static_cast<unsigned short>(resized_columns);
    ::ioctl(master, TIOCSWINSZ, &size);
    std::string settling;
    read_for(0.6, settling);
    read_for(1.0, d.after);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ::close(master);
  return d;
}

// The redrawn pieces of a drawing: split at \r, erase-line escapes removed,
// the first and last (perhaps cut by the reading window) left out.
std::vector<std::string> redraws(const std::string& drawing) {
  std::vector<std::string> pieces;
  std::size_t at = 0;
  while (at <= drawing.size()) {
    const std::size_t next = std::min(drawing.find('\r', at), drawing.size());
    std::string piece = drawing.substr(at, next - at);
    for (std::size_t e; (e = piece.find("\033[K")) != std::string::npos;) piece.erase(e, 3);
    pieces.push_back(piece);
    at = next + 1;
  }
  if (pieces.size() >= 2) pieces.erase(pieces.begin());
  if (!pieces.empty()) pieces.pop_back();
  return pieces;
}

// On a real terminal the progress line is redrawn in place and never wider
// than the terminal less one column, at 20, 40, 80 and 132 columns and after a
// resize: no line is ever added (a line that wraps scrolls one up at every
// redraw). With TERM=dumb or no TERM it writes no escape sequence at all.
TEST(CliProgressTest, TheLineFitsTheTerminalAndRedrawsInPlace) {
  for (const int columns : {20, 40, 80, 132}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    const pty_drawing d = draw_on_pty(columns, "xterm");
    EXPECT_EQ(d.before.find('\n'), std::string::npos) << d.before;
    const std::vector<std::string> pieces = redraws(d.before);
    ASSERT_GE(pieces.size(), 2u) << d.before;
    for (const std::string& piece : pieces) {
      EXPECT_LE(piece.size(), static_cast<std::size_t>(columns - 1)) << piece;
      EXPECT_NE(piece.find('%'), std::string::npos) << piece;
    }
    EXPECT_NE(d.before.find("\033[K"), std::string::npos);
    if (columns >= 80) {  // room for the bar, the ETA, the solutions and their pace
      EXPECT_NE(pieces.back().find("]  ETA "), std::string::npos) << pieces.back();
      EXPECT_NE(pieces.back().find(" solutions  "), std::string::npos) << pieces.back();
      EXPECT_NE(pieces.back().find("/s"), std::string::npos) << pieces.back();
    }
  }
  {
    SCOPED_TRACE("resized from 132 to 50 columns");
    const pty_drawing d = draw_on_pty(132, "xterm", 50);
    const std::vector<std::string> pieces = redraws(d.after);
    ASSERT_GE(pieces.size(), 2u) << d.after;
    for (const std::string& piece : pieces) EXPECT_LE(piece.size(), 49u) << piece;
    EXPECT_GT(redraws(d.before).back().size(), 49u);
  }
  for (const char* term : {"dumb", static_cast<const char*>(nullptr)}) {
    SCOPED_TRACE(term == nullptr ? "no TERM" : "TERM=dumb");
    const pty_drawing d = draw_on_pty(80, term);
    EXPECT_EQ(d.before.find('\033'), std::string::npos) << d.before;
    EXPECT_EQ(d.before.find('\n'), std::string::npos) << d.before;
    const std::vector<std::string> pieces = redraws(d.before);
    ASSERT_GE(pieces.size(), 2u) << d.before;
    for (const std::string& piece : pieces) EXPECT_LE(piece.size(), 79u) << piece;
  }
}

}  // namespace

namespace {

// The long options a command's --help lists (its own parser's list).
std::set<std::string> options_in_help(const std::string& help) {
  std::set<std::string> options;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    std::size_t at = std::string::npos;
    if (line.rfind("  -", 0) == 0 && line.size() > 6 && line.compare(4, 4, ", --") == 0) at = 6;
    if (line.rfind("      --", 0) == 0) at = 6;
    if (at == std::string::npos) continue;
    const std::size_t end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", at + 2);
    options.insert(line.substr(at, end - at));
  }
  return options;
}

const std::vector<std::string> every_command = {"count", "verify", "scale", "rotational", "plan",
                                                "merge", "list",   "first", "check"};

// Help, completion and man page agree with what each command takes: every
// option a help text mentions is one its command takes; the completion
// offers exactly the options of each command's help; the man page names
// every option, and none that no command takes.
TEST(CliTest, HelpCompletionAndManPageAgreeWithTheCommands) {
  std::set<std::string> all = {"--version"};
  for (const std::string& command : every_command) {
    SCOPED_TRACE(command);
    const cli_run help = run_cli(command + " --help");
    ASSERT_EQ(help.status, 0);
    const std::set<std::string> taken = options_in_help(help.out);
    EXPECT_TRUE(taken.contains("--help"));
    all.insert(taken.begin(), taken.end());
    // Mentioned anywhere in the text, the description of another option
    // included; a quoted command line ('nqueens count N --shard I/M') is
    // another command's.
    std::string text = help.out;
    for (std::size_t open; (open = text.find('\'')) != std::string::npos;) {
      const std::size_t close = text.find('\'', open + 1);
      text.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
    }
    for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
      const std::size_t end = text.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", at + 2);
      const std::string mentioned = text.substr(at, end - at);
      EXPECT_TRUE(taken.contains(mentioned)) << mentioned << " is mentioned but not taken";
    }
    EXPECT_EQ(help.out.find("\n  -n "), std::string::npos) << "the operand is listed as an option";
    EXPECT_EQ(help.out.find("positional parameters"), std::string::npos);
    // The completion, sourced into bash, completing "nqueens COMMAND --".
    const cli_run completion = run_cli_command(
        "bash -c 'source " NQUEENS_SOURCE_DIR "/packaging/nqueens.bash-completion; COMP_WORDS=(" NQUEENS_CLI_PATH " " +
        command + " --); COMP_CWORD=2; _nqueens; printf \"%s\\n\" \"${COMPREPLY[@]}\"'");
    ASSERT_EQ(completion.status, 0) << completion.err;
    std::set<std::string> offered;
    std::istringstream words(completion.out);
    for (std::string word; words >> word;) offered.insert(word);
    EXPECT_EQ(offered, taken);
  }
  std::set<std::string> in_man;
  const std::string man = slurp(NQUEENS_SOURCE_DIR "/packaging/nqueens.1");
  for (std::size_t at = man.find("\\-\\-"); at != std::string::npos; at = man.find("\\-\\-", at + 4)) {
    std::string name = "--";
    std::size_t k = at + 4;
    while (k < man.size() && ((man[k] >= 'a' && man[k] <= 'z') || man.compare(k, 2, "\\-") == 0)) {
      name += man[k] == '\\' ? '-' : man[k];
      k += man[k] == '\\' ? 2 : 1;
    }
    in_man.insert(name);
  }
  EXPECT_EQ(in_man, all);
}

}  // namespace

namespace {

// `plan N --estimate` samples for about the time asked and projects the
// count's thread-hours and wall time, here and on --cores, in text and JSON;
// it goes with no --stats, and --cores or --estimate-seconds with it alone.
TEST(CliTest, PlanEstimateProjectsTheCost) {
  cli_run r = run_cli("plan 16 --estimate --estimate-seconds 0.5 --cores 64 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("estimate from 0."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("thread-hours (one standard error)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("here,  2 threads      about "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("on 64 cores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Q(16) from the sample "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("published 14772512, "), std::string::npos) << r.out;
  r = run_cli("plan 16 --estimate --estimate-seconds 0.5 --cores 64 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* key : {"\"thread_hours\":", "\"thread_hours_error\":", "\"wall_seconds\":", "\"cores\":64,",
                          "\"wall_seconds_on_cores\":", "\"projected_total\":", "\"sample_runs\":"}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
  }
  EXPECT_EQ(lines_in(r.out), 1);
  for (const char* bad : {"plan 16 --estimate --stats", "plan 16 --cores 4", "plan 16 --estimate-seconds 2",
                          "plan 16 --estimate --estimate-seconds 0", "plan 16 --estimate --cores 0"}) {
    r = run_cli(bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(lines_in(r.err), 1) << bad << ": " << r.err;
  }
}

}  // namespace
