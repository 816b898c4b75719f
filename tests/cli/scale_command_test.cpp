// `nqueens scale`: one row per thread count, and its CSV file.

#include "cli/commands/scale_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "nqueens/progress.hpp"
#include "nqueens/threads.hpp"
#include "support/cli_run.hpp"
#include "support/one_cpu.hpp"
#include "support/scratch_directory.hpp"

namespace nqueens::test {
namespace {

// A field's raw text in one-line JSON ("key":VALUE up to the next , or }).
std::string json_field(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  const std::size_t start = at + key.size() + 3;
  return json.substr(start, json.find_first_of(",}", start) - start);
}

// A string field's text, unquoted (no escapes expected).
std::string json_text(const std::string& json, const std::string& key) {
  const std::string raw = json_field(json, key);
  return raw.size() >= 2 ? raw.substr(1, raw.size() - 2) : raw;
}

// Under a real CPU quota (half a CPU, in a cgroup v1 cpu controller's child
// this test makes: as root, where the controller is there to write), scale
// names it in a warning and in its JSON; elsewhere the test is skipped.
// The cpu_quota column of every row after the header, each followed by a
// space: third from the end (the processor's name before it may hold commas).
std::string csv_quota_column(const std::string& csv) {
  std::string column;
  std::size_t start = csv.find('\n') + 1;
  for (std::size_t end; (end = csv.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string row = csv.substr(start, end - start);
    const std::size_t last = row.rfind(','), second = row.rfind(',', last - 1), third = row.rfind(',', second - 1);
    column += row.substr(third + 1, second - third - 1) + ' ';
  }
  return column;
}

TEST(CliTest, ScaleNamesTheCpuQuotaItRunsUnder) {
  const std::filesystem::path controller = "/sys/fs/cgroup/cpu";
  const std::filesystem::path group = controller / ("nqueens-test-" + std::to_string(::getpid()));
  if (!std::filesystem::exists(controller / "cpu.cfs_quota_us") || ::mkdir(group.c_str(), 0755) != 0) {
    GTEST_SKIP() << "no cgroup v1 cpu controller this test may make a group in";
  }
  struct removed_at_end {
    std::filesystem::path group;
    ~removed_at_end() { ::rmdir(group.c_str()); }  // empty once the script has ended
  } cleanup{group};
  std::ofstream(group / "cpu.cfs_quota_us") << 50000 << std::flush;
  std::ofstream(group / "cpu.cfs_period_us") << 100000 << std::flush;
  const scratch_directory dir("quota");
  const std::string csv = (dir.path() / "rows.csv").string();
  const cli_run r =
      run_script("echo $$ > '" + group.string() +
                 "/cgroup.procs' && exec \"$NQ\" scale 12 --threads 1,2 --repeat 1 --json --csv '" + csv + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_field(r.out, "cpu_quota"), "0.5") << r.out;
  const std::string rows = slurp(csv);  // on every row
  EXPECT_NE(rows.find(",0.5," + json_field(r.out, "split_depth") + ","), std::string::npos) << rows;
  EXPECT_EQ(csv_quota_column(rows), "0.5 0.5 ") << rows;
  EXPECT_NE(r.err.find("nqueens: warning: a CPU quota (cgroup) gives this process 0.5 CPUs of time: every run, one "
                       "thread's too, gets only that, so the speed-ups are the quota's, not this machine's\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("hardware threads busy"), std::string::npos) << r.err;  // the quota, not another process
  EXPECT_EQ(lines_in(r.err), r.err.find("too short to time") == std::string::npos ? 1 : 2) << r.err;
  // Without one (unless this test itself runs under one), JSON says so,
  // the CSV's column is empty, and no warning.
  if (cpu_quota()) return;
  const std::string free_csv = (dir.path() / "free.csv").string();
  const cli_run free = run_cli("scale 12 --threads 1,2 --repeat 1 --json --csv '" + free_csv + "'");
  ASSERT_EQ(free.status, 0) << free.err;
  EXPECT_EQ(json_field(free.out, "cpu_quota"), "null") << free.out;
  EXPECT_EQ(free.err.find("CPU quota"), std::string::npos) << free.err;
  const std::string free_rows = slurp(free_csv);
  EXPECT_EQ(csv_quota_column(free_rows), "  ") << free_rows;
}

// From n = 21 each of scale's whole counts takes minutes to months: that is
// said before the first begins (here stopped once it is said), not after them.
// Its stderr file made before the count starts: the first look for the
// warning could come before the count's shell had made it, and grep's
// complaint led stderr.
TEST(CliTest, ScaleWarnsOfItsCostFirstFromN21) {
  const cli_run r = run_script(
      ": > scale21.err\n"
      "$NQ scale 21 -t 1 -r 2 --engine symmetric 2>scale21.err & pid=$!\n"
      "i=0; while [ $i -lt 1200 ] && ! grep -q warning scale21.err; do sleep 0.05; i=$((i + 1)); done\n"
      "kill -TERM $pid; wait $pid; status=$?; cat scale21.err >&2; exit $status");
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_EQ(r.err.rfind("nqueens: warning: scale counts Q(21) whole 3 times (an untimed first count, then 2 at each "
                        "of 1 thread count); from n = 21 one count takes minutes to months: 'nqueens plan 21 "
                        "--estimate' prices it\n",
                        0),
            0u)
      << r.err;
  const cli_run small = run_cli("scale 12 -t 1 -r 1");
  EXPECT_EQ(small.err.find("whole"), std::string::npos) << small.err;
  // A scale refused before it counts (a split too deep, a bound too small)
  // says its refusal alone, in one line: no count is run to warn of.
  for (const char* refused : {"scale 21 --split-depth 10 -t 1 -r 1 --engine symmetric",
                              "scale 21 -t 1 -r 1 --max-memory 1M --engine quadrant"}) {
    const cli_run r = run_cli(refused);
    EXPECT_EQ(r.status, 2) << refused << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << refused << ": " << r.err;
    EXPECT_EQ(r.err.find("whole"), std::string::npos) << refused << ": " << r.err;
  }
}

// The cost warning is the run's, said once: measure_scaling copies the
// callback into each of its counts, and each copy once said it again (a
// scale of 13 whole counts warned 13 times).
TEST(CliTest, ScalesCostIsSaidOnceAmongTheCountsCopies) {
  std::ostringstream out;
  int reports = 0;
  const auto first = cli::with_line_first([&](const progress&) { ++reports; }, "costly\n", out);
  const auto second = first;  // a later count's copy
  first(progress{});
  second(progress{});
  first(progress{});
  EXPECT_EQ(out.str(), "costly\n");
  EXPECT_EQ(reports, 3);
  std::ostringstream alone;
  cli::with_line_first({}, "costly\n", alone)(progress{});  // with no progress shown, said all the same
  EXPECT_EQ(alone.str(), "costly\n");
}

// What made the table less telling is in --json too, as stderr said it: a
// script that reads the JSON alone sees it.
TEST(CliTest, ScaleJsonCarriesItsWarnings) {
  const cli_run r = run_cli("scale 10 -t 1,2 -r 1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("nqueens: warning: one thread took"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(",\"warnings\":[\"one thread took "), std::string::npos) << r.out;
}

// One run a row has no spread to show: "-", where "0.0%" read as runs
// alike.
TEST(CliTest, ScaleShowsNoSpreadForOneRun) {
  const cli_run r = run_cli("scale 10 -t 1 -r 1");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t row = r.out.find("\n      1 ");
  ASSERT_NE(row, std::string::npos) << r.out;
  std::istringstream fields(r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1));
  std::string threads, seconds, spread;
  fields >> threads >> seconds >> spread;
  EXPECT_EQ(spread, "-") << r.out;
}

TEST(CliTest, ScalePrintsOneRowPerThreadCountWithTheSameTotal) {
  const auto csv = std::filesystem::temp_directory_path() / ("nqueens-scale-" + std::to_string(::getpid()) + ".csv");
  const cli_run r = run_cli("scale 10 --threads 2,1 --repeat 2 --csv " + csv.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("every run counted the same total, verified"), std::string::npos) << r.out;
  EXPECT_LE(widest_line(r.out), 80U) << r.out;  // an 80-column terminal wraps none
  const std::string rows = slurp(csv);
  std::filesystem::remove(csv);
  EXPECT_EQ(rows.rfind("threads,median_seconds,speedup,efficiency,total,runs,min_seconds,max_seconds,n,engine,isa,"
                       "kernels,busy_threads,hardware_threads,version,cpu,gpus,cpu_quota,split_depth,subproblems\n",
                       0),
            0u)
      << rows;
  EXPECT_NE(rows.find("\n1,"), std::string::npos) << rows;
  EXPECT_NE(rows.find(",1.0000,1.0000,724,2,"), std::string::npos) << rows;
  EXPECT_NE(rows.find(",10,symmetric,"), std::string::npos) << rows;  // what the file measured
  // ... and where: every row names the kernels, this machine's hardware
  // threads and the version, as --version and the JSON do.
  const cli_run json = run_cli("scale 10 --threads 1 --repeat 1 --json");
  EXPECT_EQ(json.status, 0) << json.err;
  for (const char* key : {"\"kernels\":\"", "\"cpu\":\"", "\"version\":\"", "\"busy_threads\":"}) {
    EXPECT_NE(json.out.find(key), std::string::npos) << key << json.out;
  }
  const std::string kernels = json_text(json.out, "kernels");
  const std::string hardware = "," + json_field(json.out, "hardware_threads") + ",";
  EXPECT_NE(rows.find("," + kernels + ","), std::string::npos) << kernels << rows;
  EXPECT_NE(rows.find(hardware + json_text(json.out, "version") + ","), std::string::npos) << rows;
  EXPECT_NE(rows.find("\n2,"), std::string::npos) << rows;
  EXPECT_EQ(lines_in(rows), 3);
  EXPECT_NE(r.out.find(" efficiency   busy "), std::string::npos) << r.out;
  // Q(10) takes well under a millisecond: too short to time, and said so,
  // with a size past start-up's reach where it took under 10 ms (what
  // Q(10)'s time would have named, Q(16), is itself too short on the
  // machines measured; a sanitized build may take longer and be told less).
  const std::size_t took = r.err.find("nqueens: warning: one thread took ");
  ASSERT_NE(took, std::string::npos) << r.err;
  const std::size_t such_as = r.err.find("take a larger N, such as ");
  ASSERT_NE(such_as, std::string::npos) << r.err;
  if (std::stod(r.err.substr(took + 34)) < 0.01) EXPECT_GE(std::stoi(r.err.substr(such_as + 25)), 17) << r.err;
}

// --csv - prints the rows on standard output in place of the table (no
// file named '-'); with --json, which prints there too, it is refused.
// The JSON names the plan every row counted: an engine named under a
// tight bound is fitted once (symmetric at n = 14 within 1 MiB: depth 4);
// the automatic split as plan builds it, its depth and subproblems, in the
// JSON, the table's first line and every CSV row.
TEST(CliTest, ScaleNamesThePlanEveryRowCounted) {
  const cli_run fitted = run_cli("scale 14 --engine symmetric --max-memory 1M --threads 1,2 --repeat 1 --json");
  EXPECT_EQ(fitted.status, 0) << fitted.err;
  EXPECT_NE(fitted.out.find("\"engine\":\"symmetric\",\"split_depth\":4,"), std::string::npos) << fitted.out;
  const cli_run planned = run_cli("plan 10 --engine symmetric --json");
  ASSERT_EQ(planned.status, 0) << planned.err;
  const std::string depth = json_field(planned.out, "split_depth"),
                    subproblems = json_field(planned.out, "subproblems");
  ASSERT_NE(depth, "0") << planned.out;  // a real depth, not the automatic split's request
  const cli_run automatic = run_cli("scale 10 --engine symmetric --threads 1 --repeat 1 --json");
  EXPECT_EQ(json_field(automatic.out, "split_depth"), depth) << automatic.out;
  EXPECT_EQ(json_field(automatic.out, "subproblems"), subproblems) << automatic.out;
  const cli_run table = run_cli("scale 10 --engine symmetric --threads 1 --repeat 1");
  EXPECT_NE(table.out.find("\nplan: split depth " + depth + ", " + subproblems + " subproblems\n"), std::string::npos)
      << table.out;
  const cli_run csv = run_cli("scale 10 --engine symmetric --threads 1 --repeat 1 --csv -");
  EXPECT_NE(csv.out.find("," + depth + "," + subproblems + "\n"), std::string::npos) << csv.out;
}

TEST(CliTest, ScaleCsvDashPrintsTheRowsOnStandardOutput) {
  const scratch_directory dir("csv-dash");
  const cli_run r = run_script("cd " + dir.path().string() + " && $NQ scale 8 --threads 1,2 --repeat 1 --csv -");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("threads,median_seconds,speedup,", 0), 0u) << r.out;
  EXPECT_EQ(lines_in(r.out), 3) << r.out;
  EXPECT_NE(r.out.find("\n2,"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "-"));
  const cli_run both = run_cli("scale 8 --threads 1 --repeat 1 --csv - --json");
  EXPECT_EQ(both.status, 2) << both.err;
  EXPECT_EQ(both.out, "");
  EXPECT_EQ(both.err,
            "nqueens: --csv - and --json both print on standard output: give --csv a file name, or leave one "
            "out\n");
}

// --progress shows each count's progress, named by its run, in a log too
// (stderr no terminal: a line at each count's end); --no-progress none.
TEST(CliTest, ScaleProgressNamesEachRun) {
  const cli_run r = run_cli("scale 10 --threads 1,2 --repeat 1 --progress");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* run : {"progress: untimed first run, 2 threads  100.0%", "progress: run 1 of 2, 1 thread  100.0%",
                          "progress: run 2 of 2, 2 threads  100.0%"}) {
    EXPECT_NE(r.err.find(run), std::string::npos) << run << r.err;
  }
  const cli_run quiet = run_cli("scale 10 --threads 1 --repeat 1 --no-progress");
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("progress:"), std::string::npos) << quiet.err;
}

// Every run's time is in the JSON, beside the median; thread counts past the
// hardware's are run, with a warning that they share it.
TEST(CliTest, ScaleGivesEveryRunAndWarnsOfOversubscription) {
  const cli_run r = run_cli("scale 8 --threads 1025 --repeat 3 --json");
  EXPECT_EQ(r.status, 2) << r.err;  // past the range any call accepts
  const std::string past = std::to_string(std::thread::hardware_concurrency() + 1);
  const cli_run shared = run_cli("scale 8 --threads 1," + past + " --repeat 3 --json");
  EXPECT_EQ(shared.status, 0) << shared.err;
  EXPECT_NE(shared.out.find("\"threads\":" + past + ","), std::string::npos) << shared.out;
  EXPECT_NE(shared.out.find("\"seconds\":["), std::string::npos) << shared.out;
  std::size_t runs = 0;
  const std::size_t at = shared.out.find("\"seconds\":[");
  for (std::size_t k = at; k < shared.out.find(']', at); ++k) runs += shared.out[k] == ',';
  EXPECT_EQ(runs + 1, 3u) << shared.out;
  EXPECT_NE(shared.err.find("rows past it measure threads sharing them"), std::string::npos) << shared.err;
}

// A thread list given as a range is refused with the list's form.
TEST(CliTest, ScaleThreadRangeIsRefusedWithTheListForm) {
  const cli_run negative = run_cli("scale 8 --threads -1");  // no range: the count's own error
  EXPECT_EQ(negative.status, 2);
  EXPECT_EQ(negative.err.find("comma-separated"), std::string::npos) << negative.err;
  for (const char* range : {"1..4", "1-4", "1:4"}) {
    const cli_run r = run_cli(std::string("scale 8 --threads ") + range);
    EXPECT_EQ(r.status, 2) << range;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--threads takes a comma-separated list of thread counts, such as 1,2,4"), std::string::npos)
        << r.err;
  }
}

// A field holding a comma, a quote or a line break is quoted, its quotes
// doubled (RFC 4180): a processor's name with a comma would otherwise
// shift every column after it.
TEST(ScaleCommandTest, CsvFieldsAreQuotedWhereTheyMustBe) {
  EXPECT_EQ(cli::csv_field("AMD EPYC"), "AMD EPYC");
  EXPECT_EQ(cli::csv_field(""), "");
  EXPECT_EQ(cli::csv_field("Xeon, 2 sockets"), "\"Xeon, 2 sockets\"");
  EXPECT_EQ(cli::csv_field("the \"fast\" one"), "\"the \"\"fast\"\" one\"");
  EXPECT_EQ(cli::csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(cli::csv_field("cr\r"), "\"cr\r\"");
}

// A row is judged by what it could keep busy: its threads on no more than
// the hardware's (4 threads on 2 that keep 2 busy are all busy, not half),
// within a CPU quota's time.
TEST(ScaleCommandTest, BusyShareIsOfWhatTheRowCouldKeepBusy) {
  EXPECT_DOUBLE_EQ(cli::busy_share(4, 2.0, 2, std::nullopt), 1.0);
  EXPECT_DOUBLE_EQ(cli::busy_share(1, 0.5, 2, std::nullopt), 0.5);
  EXPECT_DOUBLE_EQ(cli::busy_share(2, 1.0, 2, std::nullopt), 0.5);
  EXPECT_DOUBLE_EQ(cli::busy_share(8, 1.5, 16, 1.5), 1.0);
  EXPECT_DOUBLE_EQ(cli::busy_share(8, 0.75, 16, 1.5), 0.5);
  EXPECT_DOUBLE_EQ(cli::busy_share(0, 0.0, 2, std::nullopt), 0.0);
}

// Runs that share their one core with a busy loop keep about half a thread
// busy (the scheduler's fair share between the two), said in the row's
// busy_threads and by a warning that its speed-ups are not the machine's.
TEST(CliTest, ScaleWarnsOfRunsThatSharedTheirCores) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "Q(18) takes minutes when sanitized";
#endif
  const cli_run r = run_script(busy_loop_on_one_cpu() + on_one_cpu() +
                               "$NQ scale 18 --threads 1,2 --repeat 1 --engine quadrant --json");
  if (r.status == 77) GTEST_SKIP() << "no taskset here, or it may not set the CPUs";
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t row = r.out.find("{\"threads\":1,");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::size_t busy = r.out.find("\"busy_threads\":", row);
  ASSERT_NE(busy, std::string::npos) << r.out;
  EXPECT_LT(std::stod(r.out.substr(busy + 15)), 0.75) << r.out;
  // The warning, unless one thread counted too fast to time by: that warning then.
  // It names the row that kept the smallest share busy: the 2-thread one
  // where more processes than the loop shared the core (the tests beside it).
  if (r.err.find("too short to time threads by") == std::string::npos) {
    EXPECT_TRUE(r.err.find("nqueens: warning: the 1-thread runs kept 0.") != std::string::npos ||
                r.err.find("nqueens: warning: the 2-thread runs kept 0.") != std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("another process is using the cores, or the count did not spread"), std::string::npos)
        << r.err;
  }
}

// scale's --csv file is written to a temporary file in its target's directory
// and renamed over it at the end: whole or untouched, never a journal or any
// file but an earlier --csv, no temporary file left behind.
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
  // What an earlier run wrote, which a new one replaces.
  const std::string old_csv_ =
      "threads,median_seconds,speedup,efficiency,total,runs,min_seconds,max_seconds,n,engine,isa\n"
      "1,9.5,1.0000,1.0000,92,1,9.5,9.5,8,symmetric,portable\n";
};

TEST_F(CliCsvTest, ReplacesTheOldContentsOnSuccess) {
  std::ofstream(csv_) << old_csv_;
  const cli_run r = run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(csv_).rfind("threads,median_seconds,speedup,efficiency,total,runs,", 0), 0u) << slurp(csv_);
  EXPECT_NE(slurp(csv_).find(",cpu,gpus,cpu_quota,split_depth,subproblems\n1,"), std::string::npos) << slurp(csv_);
  EXPECT_EQ(others(), "");
}

// In a sticky folder (such as /tmp) a user may not rename over a third
// user's file even where it may write it (nor open it with O_CREAT, where
// fs.protected_regular is set): the file is written in place, keeps its
// owner, and nothing is refused after the runs.
TEST_F(CliCsvTest, AnotherUsersWritableFileInAStickyFolderIsWrittenInPlace) {
  if (::geteuid() != 0) GTEST_SKIP() << "running as another user needs root";
  const std::filesystem::path sticky = dir_ / "sticky";
  std::filesystem::create_directories(sticky);
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
  const std::string shared = (sticky / "shared.csv").string();
  std::ofstream(shared) << old_csv_;
  ASSERT_EQ(::chmod(shared.c_str(), 0666), 0);
  if (::chown(shared.c_str(), 65533, 65533) != 0) GTEST_SKIP() << "user 65533 is not mapped here";
  const std::string as_nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  const cli_run probe = run_script(as_nobody + "$NQ --version");
  if (probe.status != 0) GTEST_SKIP() << "user 65534 cannot run the tool here: " << probe.err;
  const cli_run r =
      run_script("cd " + sticky.string() + " && " + as_nobody + "$NQ scale 8 --threads 1 --repeat 1 --csv shared.csv");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(shared).find(",cpu,gpus,cpu_quota,split_depth,subproblems\n1,"), std::string::npos) << slurp(shared);
  struct stat st {};
  ASSERT_EQ(::stat(shared.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65533u);
}

TEST_F(CliCsvTest, SigtermMidRunLeavesTheOldContents) {
  std::ofstream(csv_) << old_csv_;
  // Signalled once the temporary file is open (unnamed, so seen in /proc)
  // and then SIGTERM is caught (its bit, 0x4000, in SigCgt), long before
  // 2000 runs of Q(14) end.
  const cli_run r = run_script(
      "cd " + dir_.string() + " && { $NQ scale 14 --repeat 1000 --csv f.csv & pid=$!; i=0; " +
      "until ls -l /proc/$pid/fd 2>/dev/null | grep -qF \"$(pwd -P)/\" || [ $i -ge 3000 ]; do sleep 0.01; " +
      "i=$((i+1)); done; caught() { m=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null); " +
      "[ -n \"$m\" ] && [ $((0x$m & 0x4000)) -ne 0 ]; }; until caught || [ $i -ge 6000 ]; do sleep 0.01; " +
      "i=$((i+1)); done; kill -TERM $pid; wait $pid; }");
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(slurp(csv_), old_csv_);
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

// A file --csv did not write (notes, a source file, a mistyped name) is
// never replaced: refused before any run, left as it was. An empty one is.
TEST_F(CliCsvTest, NeverOverwritesAFileItDidNotWrite) {
  for (const std::string& contents : {std::string("notes\n"), std::string("threads\n"), old_csv_.substr(1)}) {
    std::ofstream(csv_, std::ios::binary) << contents;
    const cli_run r = run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_);
    EXPECT_EQ(r.status, 2) << contents;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cannot write --csv file '" + csv_ + "': it exists and is not one this tool wrote"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(slurp(csv_), contents);
    EXPECT_EQ(others(), "");
  }
  // Empty, or written by an earlier version (six columns): replaced.
  for (const std::string& contents : {std::string(), std::string("threads,median_seconds,speedup,efficiency,total,"
                                                                 "runs\n1,0.5,1.0000,1.0000,92,3\n")}) {
    std::ofstream(csv_, std::ios::binary | std::ios::trunc) << contents;
    EXPECT_EQ(run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_).status, 0) << contents;
    EXPECT_EQ(slurp(csv_).rfind("threads,median_seconds,speedup,efficiency,total,runs,min_seconds,", 0), 0u)
        << slurp(csv_);
  }
}

// A name as long as a file system takes is written: the temporary name
// beside it is shortened, not refused once every run is done.
TEST_F(CliCsvTest, WritesAFileOfTheLongestName) {
  const std::string longest = (dir_ / (std::string(251, 'a') + ".csv")).string();
  const cli_run r = run_cli("scale 8 --threads 1 --repeat 1 --csv " + longest);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(longest).rfind("threads,", 0), 0u);
  std::filesystem::remove(longest);
  EXPECT_EQ(others(), "");
}

// The file stdout or stderr writes to is never the CSV's target: renamed
// over it, the table would go to a file no name reaches.
TEST_F(CliCsvTest, NeverReplacesItsOwnStandardStreams) {
  const cli_run out = run_script("cd " + dir_.string() + " && $NQ scale 8 --threads 1 --repeat 1 --csv f.csv > f.csv");
  EXPECT_EQ(out.status, 2) << out.err;
  EXPECT_NE(out.err.find("cannot write --csv file 'f.csv': it is this command's standard output"), std::string::npos)
      << out.err;
  const cli_run err =
      run_script("cd " + dir_.string() + " && $NQ scale 8 --threads 1 --repeat 1 --csv /dev/stderr 2> f.csv");
  EXPECT_EQ(err.status, 2);
  EXPECT_NE(slurp(csv_).find("it is this command's standard error"), std::string::npos) << slurp(csv_);
  EXPECT_EQ(others(), "");
}

TEST_F(CliCsvTest, WritesThroughASymlinkAndKeepsIt) {
  std::ofstream(dir_ / "target.csv") << old_csv_;
  std::filesystem::create_symlink("target.csv", csv_);
  EXPECT_EQ(run_cli("scale 8 --threads 1 --repeat 1 --csv " + csv_).status, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(csv_));
  EXPECT_EQ(slurp(dir_ / "target.csv").rfind("threads,", 0), 0u);
  std::filesystem::create_symlink(".", dir_ / "dir.csv");
  const cli_run r = run_cli("scale 8 --csv " + (dir_ / "dir.csv").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("a symlink to something other than a file"), std::string::npos) << r.err;
  // A link whose target is missing is said to be one, and left as it is.
  std::filesystem::create_symlink("missing/x.csv", dir_ / "dangling.csv");
  const cli_run dangling = run_cli("scale 8 --csv " + (dir_ / "dangling.csv").string());
  EXPECT_EQ(dangling.status, 2);
  EXPECT_NE(dangling.err.find("a symlink to nothing (its target is missing)"), std::string::npos) << dangling.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "dangling.csv"));
}

// A --csv file that cannot be written once every run is done (a full disk, a
// file-size limit) costs the file, exit 3, not the runs' results: the table
// is on standard output, and no temporary file is left behind.
TEST_F(CliCsvTest, AFileThatCannotBeWrittenCostsTheFileNotTheTable) {
#ifdef NQUEENS_SANITIZED_THREAD
  GTEST_SKIP() << "TSan's runtime does not keep SIGXFSZ ignored: the file-size limit kills the process";
#endif
  // The limit is the command's alone: its stdout and stderr go through a
  // pipe (no file size there) to cat, and its status out through fd 3.
  const cli_run r = run_script("cd " + dir_.string() +
                               " && exec 4>&1 && s=$({ { (ulimit -f 0; exec $NQ scale 8 --threads 1 --repeat 1 "
                               "--csv f.csv 2>&1); echo $? >&3; } | cat >&4; } 3>&1) && exit $s");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("nqueens: cannot write --csv file 'f.csv': File too large (while writing it); the results are "
                       "on standard output"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Q(8) with engine"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("92"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(csv_));
  EXPECT_EQ(others(), "");
}

// A wrong total fails scale (exit 1), text and JSON: emulated GPUs whose
// rounds of counts each add 8 times a job's weight
// (NQUEENS_GPU_TEST_FAULT=miscount). The runs agree on it (a count's calls
// are fixed slices of the plan, whatever its threads), and the published
// value is named.
TEST(CliTest, ScaleFailsOnATotalThatDiffersFromThePublishedOne) {
  const std::string scale = "NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=miscount " + std::string(NQUEENS_CLI_PATH) +
                            " scale 10 --engine gpu --threads 1,2 --repeat 1";
  const cli_run text = run_cli_command(scale);
  EXPECT_EQ(text.status, 1) << text.err;
  EXPECT_NE(text.out.find("every run counted the same total, "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("MISMATCH: published value is 724\n"), std::string::npos) << text.out;
  const cli_run json = run_cli_command(scale + " --json");
  EXPECT_EQ(json.status, 1) << json.err;
  EXPECT_NE(json.out.find("\"verified\":false"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"consistent\":true"), std::string::npos) << json.out;
}

// Runs that disagree fail scale (exit 1) and say so, text and JSON, even
// where one of them holds the published total: on a node of two emulated
// GPUs of which the second miscounts (miscount:1), the one-thread row counts
// on the first alone and is right, the two-thread row on both and is not.
TEST(CliTest, ScaleFailsWhereItsRunsCountDifferentTotals) {
  const std::string scale = "NQUEENS_GPU=emulate:2 NQUEENS_GPU_TEST_FAULT=miscount:1 " + std::string(NQUEENS_CLI_PATH) +
                            " scale 10 --engine gpu --threads 1,2 --repeat 1";
  const cli_run text = run_cli_command(scale);
  EXPECT_EQ(text.status, 1) << text.err;
  EXPECT_NE(text.out.find("TOTALS DIFFER between runs"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("every run counted the same total"), std::string::npos) << text.out;
  const cli_run json = run_cli_command(scale + " --json");
  EXPECT_EQ(json.status, 1) << json.err;
  EXPECT_NE(json.out.find("\"consistent\":false"), std::string::npos) << json.out;
  const std::size_t one = json.out.find("{\"threads\":1,");
  const std::size_t two = json.out.find("{\"threads\":2,");
  ASSERT_NE(one, std::string::npos) << json.out;
  ASSERT_NE(two, std::string::npos) << json.out;
  EXPECT_EQ(json_field(json.out.substr(one), "total"), "724") << json.out;
  EXPECT_NE(json_field(json.out.substr(two), "total"), "724") << json.out;
}

// Where no GPU is usable, scale --engine gpu is refused as count refuses
// it: exit 2, one line (choosing each row's GPUs first made it exit 3).
TEST(CliTest, ScaleOnTheGpuEngineWithoutAGpuIsAUsageError) {
  const cli_run r = run_cli_command("NQUEENS_GPU=device " + std::string(NQUEENS_CLI_PATH) +
                                    " scale 8 --engine gpu --threads 1 --repeat 1");
  if (r.status == 0) GTEST_SKIP() << "a GPU is usable here";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("nqueens: --engine gpu ", 0), 0u) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
}

// On a node of two GPUs (emulated) the GPU engine drives each from a thread
// of its own: scale's one-thread row, every speed-up's base, counts on one of
// them, the two-thread row on both (count alone refuses one thread for two),
// and a third thread no third GPU: each row's efficiency is per GPU.
TEST(CliTest, ScaleOnTwoGpusScalesOverThem) {
  const cli_run r = run_cli_command("NQUEENS_GPU=emulate:2 " + std::string(NQUEENS_CLI_PATH) +
                                    " scale 10 --engine gpu --threads 1,2,3 --repeat 1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t one = r.out.find("{\"threads\":1,");
  const std::size_t two = r.out.find("{\"threads\":2,");
  const std::size_t three = r.out.find("{\"threads\":3,");
  ASSERT_NE(one, std::string::npos) << r.out;
  ASSERT_NE(two, std::string::npos) << r.out;
  ASSERT_NE(three, std::string::npos) << r.out;
  EXPECT_EQ(json_field(r.out.substr(one), "gpus"), "1") << r.out;
  EXPECT_EQ(json_field(r.out.substr(two), "gpus"), "2") << r.out;
  EXPECT_EQ(json_field(r.out.substr(three), "gpus"), "2") << r.out;
  EXPECT_EQ(json_field(r.out.substr(one), "total"), "724") << r.out;
  for (const std::size_t row : {one, two, three}) {
    const std::string fields = r.out.substr(row);
    EXPECT_NEAR(std::stod(json_field(fields, "efficiency")),
                std::stod(json_field(fields, "speedup")) / std::stod(json_field(fields, "gpus")), 1e-9)
        << r.out;
  }
  // Threads waiting on GPUs share no cores: no warning of oversubscription.
  EXPECT_EQ(r.err.find("this machine runs"), std::string::npos) << r.err;
  const cli_run table = run_cli_command("NQUEENS_GPU=emulate:2 " + std::string(NQUEENS_CLI_PATH) +
                                        " scale 10 --engine gpu --threads 1,2 --repeat 1");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find(" gpus\n"), std::string::npos) << table.out;
  EXPECT_LE(widest_line(table.out), 80U) << table.out;
}

// More GPUs than hardware threads (two emulated, on one CPU): a row of T
// threads counts on T of them, so rows that ask for them all are run, not
// refused because the default thread count could not keep every GPU busy.
TEST(CliTest, ScaleTakesMoreGpusThanHardwareThreadsWhereItsRowsDo) {
  const cli_run r = run_script(on_one_cpu_or_77() + on_one_cpu() +
                               "env NQUEENS_GPU=emulate:2 $NQ scale 9 --engine gpu --threads 1,2 --repeat 1 --json");
  if (r.status == 77) GTEST_SKIP() << "no taskset here, or it may not set the CPUs";
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t most = r.out.find("{\"threads\":2,");
  ASSERT_NE(most, std::string::npos) << r.out;
  EXPECT_EQ(json_field(r.out.substr(most), "gpus"), "2") << r.out;
  EXPECT_EQ(json_field(r.out.substr(most), "total"), "352") << r.out;
}

}  // namespace
}  // namespace nqueens::test
