// `nqueens count` run as users run it: totals, JSON, engines, journals under signals and full disks.

#include "cli/commands/count_command.hpp"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "nqueens/checkpoint.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/known_counts.hpp"
#include "nqueens/memory_limit.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/threads.hpp"
#include "support/cli_run.hpp"
#include "support/shard_json.hpp"

namespace nqueens::test {
namespace {

// Every option `count --help` lists is either one that nqueens-mpi's ranks
// compare (count_settings) or one named as not compared, with its reason
// (count_options_not_compared): an option added to the parser alone fails
// here, not silently in a job whose ranks disagree on it.
TEST(CliTest, EveryCountOptionIsComparedAcrossRanksOrSaysWhyNot) {
  const cli_run help = run_cli("count --help");
  ASSERT_EQ(help.status, 0) << help.err;
  std::set<std::string> listed;
  const std::regex option(R"(^\s+(?:-\w, )?(--[a-z-]+))");
  std::smatch m;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, option)) listed.insert(m[1]);
  }
  ASSERT_GE(listed.size(), 8u) << help.out;
  std::set<std::string> accounted;
  for (const cli::count_setting& s : cli::count_settings(cli::count_request{})) accounted.insert(s.option);
  for (const std::string_view o : cli::count_options_not_compared) accounted.emplace(o);
  for (const std::string& o : listed) EXPECT_TRUE(accounted.contains(o)) << o << " is neither compared nor excused";
  for (const std::string& o : accounted) {
    if (o != "N") EXPECT_TRUE(listed.contains(o)) << o << " is no longer an option of count";
  }
}

// An option the command does not have is refused in the tool's words, with
// the nearest it has when that is a slip; an option missing its value too.
// cxxopts said "Option ‘thread’ does not exist", curly quotes and no hint.
TEST(CliTest, UnknownOptionsAreRefusedWithTheNearestOne) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"count 8 --thread 2", "unknown option '--thread' for 'count': did you mean '--threads'?"},
      {"count 8 --max-mem 1G", "unknown option '--max-mem' for 'count': did you mean '--max-memory'?"},
      {"count 8 --jsn", "unknown option '--jsn' for 'count': did you mean '--json'?"},
      {"count 8 ---threads 2", "unknown option '---threads' for 'count': did you mean '--threads'?"},
      {"plan 8 --estimat", "unknown option '--estimat' for 'plan': did you mean '--estimate'?"},
      {"verify --form 3", "unknown option '--form' for 'verify': did you mean '--from'?"},
      {"count 8 --frobnicate", "unknown option '--frobnicate' for 'count' ('nqueens count --help' lists its options)"},
      {"count 8 -x", "unknown option '-x' for 'count' ('nqueens count --help' lists its options)"},
      {"count 8 --=3", "unknown option '--=3' for 'count' ('nqueens count --help' lists its options)"},
      {"count 8 --threads",
       "option '--threads' needs a value, and none was given ('nqueens count --help' says what "
       "it takes)"},
      {"list 8 -f", "option '-f' needs a value, and none was given ('nqueens list --help' says what it takes)"},
  };
  for (const auto& [args, message] : cases) {
    const cli_run r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, "nqueens: " + message + "\n") << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  }
}

// A message quotes what the user typed, but not 100 kB of it: a long
// operand is shown by its start and its length, and the line stays short.
TEST(CliTest, ALongOperandIsShownCutInItsMessage) {
  const std::string digits(100000, '9');
  const cli_run size = run_cli("count " + digits);
  EXPECT_EQ(size.status, 2);
  EXPECT_EQ(size.err, "nqueens: board size " + digits.substr(0, 40) +
                          "... (100000 bytes) is out of range: expected an integer from 1 to 32\n");
  const cli_run engine = run_cli("count 8 --engine " + std::string(300, 'x'));
  EXPECT_EQ(engine.status, 2);
  EXPECT_EQ(engine.err.rfind("nqueens: unknown engine '" + std::string(40, 'x') + "... (300 bytes)': expected", 0), 0u)
      << engine.err;
  const cli_run option = run_cli("count 8 --" + std::string(300, 'o'));
  EXPECT_EQ(option.status, 2);
  EXPECT_LT(option.err.size(), 200u) << option.err;
  const cli_run command = run_cli(std::string(300, 'c'));
  EXPECT_EQ(command.status, 2);
  EXPECT_EQ(command.err,
            "nqueens: unknown command '" + std::string(40, 'c') + "... (300 bytes)' (try 'nqueens --help')\n");
  // Short ones whole, as before.
  EXPECT_EQ(run_cli("count 8 --engine nope").err.rfind("nqueens: unknown engine 'nope': expected", 0), 0u);
}

// '-' is no journal: a stream cannot be read back and rewritten in place,
// and no file named - is made in its stead.
// oneTBB fixes the most workers it will ever start when first used:
// max(256, 4 x the hardware threads), unless a raised limit is alive then.
// A count raises its limit before its plans run on oneTBB, so that one past
// that ceiling gets every thread it asked for (it got 257). In a process of
// its own: a test before it in the same process would have fixed the ceiling.
TEST(CliTest, ACountPastOneTbbsFirstCeilingGetsItsThreads) {
  const int asked = std::max(256, 4 * hardware_threads()) + 8;
  if (asked > max_threads) GTEST_SKIP() << "more than a count takes on this machine";
  const cli_run r = run_cli("count 13 --engine quadrant --threads " + std::to_string(asked) + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_field(r.out, "threads"), std::to_string(asked)) << r.out;
  EXPECT_EQ(json_field(r.out, "total"), std::to_string(*published_total(13))) << r.out;
}

TEST(CliTest, CheckpointRefusesStandardOutput) {
  const cli_run r =
      run_script("d=$(mktemp -d) && cd \"$d\" && $NQ count 8 --checkpoint -; s=$?; ls -A; rm -rf \"$d\"; exit $s");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "nqueens: --checkpoint takes a file, not '-': a journal is read back and written in place (for a "
            "file named -, give ./-)\n");
}

// --max-memory names the sizes it takes, the largest too, whatever it was
// given: a suffix it does not know (16E), or a size past the largest.
TEST(CliTest, MaxMemoryNamesTheLargestSize) {
  const cli_run unknown = run_cli("count 8 --max-memory 16E");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "nqueens: invalid --max-memory '16E': expected a size from 1M to 16777215T (16 EiB less 1 TiB), such as "
            "512M or 8G: plain decimal digits, no sign, no leading zero, then K, M, G or T (powers of 1024, either "
            "case), or no suffix for bytes\n");
  for (const char* past : {"16777216T", "17179869184G", "18446744073709551615", "99999999999999999999999K"}) {
    const cli_run r = run_cli(std::string("count 8 --max-memory ") + past);
    EXPECT_EQ(r.status, 2) << past;
    EXPECT_EQ(r.err, std::string("nqueens: --max-memory ") + past +
                         " is out of range: expected a size from 1M to 16777215T (16 EiB less 1 TiB)\n");
  }
  const cli_run small = run_cli("count 8 --max-memory 1023K");
  EXPECT_EQ(small.err,
            "nqueens: --max-memory 1023K is out of range: expected a size from 1M to 16777215T (16 EiB "
            "less 1 TiB)\n");
  for (const char* accepted : {"16777215T", "1M", "1048576", "1024k"}) {
    EXPECT_EQ(run_cli(std::string("count 8 --json --max-memory ") + accepted).status, 0) << accepted;
  }
}

TEST(CliTest, CountPrintsVerifiedTotal) {
  const cli_run r = run_cli("count 8 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(8) = 92"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 threads"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// The default thread count is the CPUs the process may run on (its
// affinity mask, as taskset, a batch scheduler or mpirun's binding sets
// it), not the machine's: one CPU allowed, one thread.
TEST(CliTest, DefaultThreadsFollowTheAffinityMask) {
  if (std::system("command -v taskset >/dev/null 2>&1") != 0) GTEST_SKIP() << "no taskset here";
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(::sched_getaffinity(0, sizeof mask, &mask), 0);
  int first = 0;
  while (!CPU_ISSET(first, &mask)) ++first;  // this process's first CPU (a cpuset may leave out CPU 0)
  const cli_run one =
      run_cli_command("taskset -c " + std::to_string(first) + " " + std::string(NQUEENS_CLI_PATH) + " count 8 --json");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_NE(one.out.find("\"threads\":1,"), std::string::npos) << one.out;
  const cli_run whole = run_cli("count 8 --json");
  ASSERT_EQ(whole.status, 0) << whole.err;
  const std::string threads = "\"threads\":" + std::to_string(hardware_threads()) + ",";
  EXPECT_NE(whole.out.find(threads), std::string::npos) << whole.out;
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

// Every count's JSON says where its time went, phase by phase: the engine's
// start (tables, devices) and release apart from the counting, which with
// planning make up the count's seconds; and the CPU time of its threads,
// which no more than its threads can have spent in its seconds.
TEST(CliTest, EveryCountReportsItsPhases) {
  for (const std::string engine : {"symmetric", "quadrant", "gpu"}) {
    const cli_run r =
        run_cli_command("NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " count 12 --json --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::size_t at = r.out.find("\"host_phase_seconds\":{\"checks\":");
    ASSERT_NE(at, std::string::npos) << r.out;
    double sum = 0;
    for (const std::string phase : {"planning", "start", "counting", "release"}) {
      const std::size_t field = r.out.find("\"" + phase + "\":", at);
      ASSERT_NE(field, std::string::npos) << phase << " in " << r.out;
      const double seconds = std::stod(r.out.substr(field + phase.size() + 3));
      EXPECT_GE(seconds, 0.0) << phase << " in " << r.out;
      if (phase == "start" && engine != "symmetric") EXPECT_GT(seconds, 0.0) << engine << ": its tables take time";
      sum += seconds;
    }
    const double whole = std::stod(r.out.substr(r.out.find("\"seconds\":") + 10));
    EXPECT_LE(sum, whole * 1.0001 + 1e-6) << r.out;
    const std::size_t cpu = r.out.find("\"cpu_seconds\":");
    ASSERT_NE(cpu, std::string::npos) << r.out;
    const double threads = std::stod(r.out.substr(r.out.find("\"threads\":") + 10));
    const double cpu_seconds = std::stod(r.out.substr(cpu + 14));
    EXPECT_GT(cpu_seconds, 0.0) << r.out;
    // The checks, before the seconds began, are a few microseconds of one thread.
    EXPECT_LE(cpu_seconds, threads * whole + 0.001) << r.out;
  }
}

// NQUEENS_GPU_TIMES=1 puts each kernel's device time in the GPU engine's
// JSON (emulated here: the host's clock) and a line of text, with the
// rounds' phases; without it the kernels' field is null and they are not
// timed (the rounds' phases are, always); another value is refused. Every
// call sized on the device, so that the size kernel runs and is timed too.
TEST(CliTest, GpuKernelTimesAreReportedWhenAsked) {
  const std::string gpu = "NQUEENS_GPU=emulate ";
  const cli_run timed = run_cli_command(gpu + "NQUEENS_GPU_TIMES=1 NQUEENS_GPU_TEST_HOST_SIZES=0 " + NQUEENS_CLI_PATH +
                                        " count 12 --engine gpu --json");
  ASSERT_EQ(timed.status, 0) << timed.err;
  const std::size_t at = timed.out.find("\"device_kernel_seconds\":{");
  ASSERT_NE(at, std::string::npos) << timed.out;
  for (const std::string_view kernel : device_kernel_names) {
    std::string key = "\"";  // appended, not `"\"" + ...`: GCC 12 warns of a memcpy bound there
    key.append(kernel).append("\":");
    const std::size_t field = timed.out.find(key, at);
    ASSERT_NE(field, std::string::npos) << kernel << " in " << timed.out;
    EXPECT_GT(std::stod(timed.out.substr(field + kernel.size() + 3)), 0.0) << kernel << " in " << timed.out;
  }
  const cli_run text = run_cli_command(gpu + "NQUEENS_GPU_TIMES=1 NQUEENS_GPU_TEST_HOST_SIZES=0 " + NQUEENS_CLI_PATH +
                                       " count 12 --engine gpu");
  // "  device time: join 0.013 s, scan 0.010 s, ...": every kernel timed,
  // named once, the longest first.
  const std::size_t line = text.out.find("  device time: ");
  ASSERT_NE(line, std::string::npos) << text.out;
  std::istringstream kernels(text.out.substr(line + 15, text.out.find('\n', line) - line - 15));
  std::vector<std::string> named;
  double longest = 1e300;
  for (std::string name, seconds, unit; kernels >> name >> seconds >> unit;) {
    named.push_back(name);
    EXPECT_LE(std::stod(seconds), longest) << name << " after a shorter kernel in " << text.out;
    longest = std::stod(seconds);
  }
  EXPECT_EQ(named.size(), device_kernel_names.size()) << text.out;
  for (const std::string_view kernel : device_kernel_names) {
    EXPECT_EQ(std::ranges::count(named, std::string(kernel)), 1) << kernel << " in " << text.out;
  }
  EXPECT_NE(text.out.find("  host time: checks "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  rounds: between "), std::string::npos) << text.out;
  const cli_run untimed = run_cli_command(gpu + NQUEENS_CLI_PATH + " count 12 --engine gpu --json");
  EXPECT_NE(untimed.out.find("\"device_kernel_seconds\":null"), std::string::npos) << untimed.out;
  const std::size_t phases = untimed.out.find("\"round_phase_seconds\":{");
  ASSERT_NE(phases, std::string::npos) << untimed.out;
  for (const std::string_view phase : device_round_phase_names) {
    std::string key = "\"";
    key.append(phase).append("\":");
    const std::size_t field = untimed.out.find(key, phases);
    ASSERT_NE(field, std::string::npos) << phase << " in " << untimed.out;
    EXPECT_GT(std::stod(untimed.out.substr(field + phase.size() + 3)), 0.0) << phase << " in " << untimed.out;
  }
  const cli_run bad = run_cli_command(gpu + "NQUEENS_GPU_TIMES=yes " + NQUEENS_CLI_PATH + " count 12 --engine gpu");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("NQUEENS_GPU_TIMES"), std::string::npos) << bad.err;
}

// Every registered engine gives the four counts, each verified: the fundamental count
// comes from the rotation-symmetric ones (Burnside), not from the engine.
TEST(CliTest, CountPrintsAllFourCountsForEveryEngine) {
  for (const engine e : all_engines()) {  // the GPU engine emulated where CTest says so
    const std::string engine(to_string(e));
    const cli_run r = run_cli("count 12 --engine " + engine);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unique = 1787  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unchanged by a half turn: 80  verified (OEIS A032522)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unchanged by a quarter turn: 8  verified (OEIS A033148)"), std::string::npos) << r.out;
    const cli_run j = run_cli("count 12 --json --engine " + engine);
    EXPECT_NE(j.out.find("\"n\":12,\"total\":14200,\"unique\":1787,\"symmetric_180\":80,\"symmetric_90\":8,"),
              std::string::npos)
        << j.out;
    EXPECT_NE(j.out.find("\"verified\":true"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"engine\":\"" + engine + "\""), std::string::npos) << j.out;
  }
}

// Signal and kill tests need a count that is still running when the signal
// lands and a resume that finishes soon. They signal once the run's journal
// holds a finished subproblem: a flush or two into a count of seconds, so
// that a machine ten times faster still signals mid-count. The symmetric engine, whose
// speed stays put while the quadrant engine gets faster (its Q(17) fell
// from 1.2 s to 0.5 s on 2 threads, and to 0.13 s for Q(16) under ASan,
// which let a signal land after the count was over): Q(17) takes 2.7 s on
// one thread in Release and 7 s under ASan. ThreadSanitizer runs the
// kernel 5-15 times slower, so Q(16) there.
#ifdef NQUEENS_SANITIZED_THREAD
constexpr const char* long_n = "16";
constexpr const char* long_total = "14772512";
#else
constexpr const char* long_n = "17";
constexpr const char* long_total = "95815104";
#endif
constexpr const char* long_engine = " --engine symmetric";

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
  // The journal of a quadrant count of n stopped after its first subproblem.
  void journal_after_its_first_subproblem(int n) const {
    const plan p(n, {.kind = engine::quadrant});
    checkpoint_journal j(journal_, p);
    j.record(0, run_context(p).solve(0));
    j.flush();
  }
  // Resumes the journal and checks the exact result and how much was reused.
  void expect_resumes_exactly(const std::string& n, const std::string& total, const std::string& engine = long_engine) {
    const cli_run r = run_cli("count " + n + engine + " --checkpoint " + journal_);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(" + n + ") = " + total + "  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  }
  // Starts `count long_n long_engine <options> --checkpoint journal` (on one
  // thread unless the options say: a many-core machine would finish it at
  // once), runs `signal_commands` (with $pid) once the journal holds a
  // finished subproblem, and returns how the count ended.
  cli_run interrupt_count(const std::string& options, const std::string& signal_commands) {
    // Past the 64-byte header: a record is in, so the signal lands mid-count
    // (not while the plan is made).
    const std::string interval =
        options.find("--checkpoint-interval") == std::string::npos ? " --checkpoint-interval 0.1" : "";
    const std::string threads = options.find("--threads") == std::string::npos ? " --threads 1" : "";
    return run_script(std::string("$NQ count ") + long_n + long_engine + " " + options + threads + interval +
                      " --checkpoint " + journal_ + " & pid=$!; i=0; until [ \"$(stat -c %s " + journal_ +
                      " 2>/dev/null || echo 0)\" -gt 64 ] || [ $i -ge 6000 ]; do sleep 0.01; i=$((i+1)); done; " +
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

// The GPU engine (on the backend CTest names) stops like any other: the
// journal flushed, exit 143, and the same command resumes exactly. Q(16)
// takes seconds emulated; a GPU counts it in a fraction of one, so there
// Q(20), seconds on one stream.
TEST_F(CliCheckpointTest, GpuEngineSigtermExits143AndResumes) {
  const char* backend = std::getenv("NQUEENS_GPU");  // unset: the device, as the engine reads it
  const bool emulated = backend != nullptr && std::string_view(backend).starts_with("emulate");
  const std::string n = emulated ? "16" : "20";
  const std::string total = emulated ? "14772512" : "39029188884";
  const std::string count = "$NQ count " + n + " --engine gpu --threads 1 --checkpoint " + journal_;
  const cli_run r = run_script(count + " --checkpoint-interval 0.05 & pid=$!; i=0; until [ \"$(stat -c %s " + journal_ +
                               " 2>/dev/null || echo 0)\" -gt 64 ] || [ $i -ge 6000 ]; do sleep 0.01; i=$((i+1)); "
                               "done; kill -TERM $pid; wait $pid");
  EXPECT_EQ(r.status, 143) << r.out << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  const cli_run resumed = run_script(count);
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("Q(" + n + ") = " + total + "  verified"), std::string::npos) << resumed.out;
  EXPECT_NE(resumed.out.find("resumed: "), std::string::npos) << resumed.out;
}

// On an emulated node of three GPUs (NQUEENS_GPU=emulate:3) a count spread
// over them stops like any other, and its journal resumes on another set of
// the node's GPUs, chosen by index and UUID: the journal is by subproblem,
// not by device.
TEST_F(CliCheckpointTest, GpuEngineOnANodeOfThreeStopsAndResumesOnOtherGpus) {
  const std::string count = "NQUEENS_GPU=emulate:3 $NQ count 16 --engine gpu --checkpoint " + journal_;
  const cli_run r =
      run_script(count + " --threads 3 --checkpoint-interval 0.05 & pid=$!; i=0; until [ \"$(stat -c %s " + journal_ +
                 " 2>/dev/null || echo 0)\" -gt 64 ] || [ $i -ge 6000 ]; do sleep 0.01; i=$((i+1)); "
                 "done; kill -TERM $pid; wait $pid");
  EXPECT_EQ(r.status, 143) << r.out << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
  const cli_run resumed = run_script(count + " --threads 2 --devices 2,GPU-e0000000-0000-0000-0000-000000000000");
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("Q(16) = 14772512  verified"), std::string::npos) << resumed.out;
  EXPECT_NE(resumed.out.find("resumed: "), std::string::npos) << resumed.out;
}

// A count that comes out wrong is exit 1, Q(n) and the fundamental count
// each named beside its published value, text and JSON: emulated GPUs whose
// rounds of counts each add 8 times a job's weight
// (NQUEENS_GPU_TEST_FAULT=miscount), a wrong kernel that faults nowhere.
TEST(CliTest, CountFailsOnAnEngineThatMiscounts) {
  const std::string count = "NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=miscount " + std::string(NQUEENS_CLI_PATH) +
                            " count 12 --engine gpu --threads 2";
  const cli_run text = run_cli_command(count);
  EXPECT_EQ(text.status, 1) << text.err;
  EXPECT_NE(text.out.find("  MISMATCH: published value is 14200\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  MISMATCH: published value is 1787\n"), std::string::npos) << text.out;
  const cli_run json = run_cli_command(count + " --json");
  EXPECT_EQ(json.status, 1) << json.err;
  EXPECT_NE(json.out.find("\"published_total\":14200,"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"verified\":false"), std::string::npos) << json.out;
  EXPECT_EQ(json.out.find("\"total\":14200,"), std::string::npos) << json.out;
}

// A GPU that fails mid-run ends the run with its error, naming that GPU,
// and stops the other GPUs' rounds rather than wait for their calls (minutes
// each past n = 24): NQUEENS_GPU_TEST_FAULT=1 fails emulated GPU 1's first
// round and parks every other GPU's rounds until they are stopped, so a run
// that waited for them would never end. What the others finished stays in
// the journal, and the count resumes from it, exact.
TEST_F(CliCheckpointTest, AFailingGpuStopsTheOthersAndIsNamed) {
  const std::string node =
      "env -u OMPI_COMM_WORLD_LOCAL_RANK -u OMPI_COMM_WORLD_LOCAL_SIZE -u MPI_LOCALRANKID -u MPI_LOCALNRANKS "
      "-u SLURM_LOCALID -u SLURM_STEP_TASKS_PER_NODE -u SLURM_NODEID -u NQUEENS_GPU_SHARERS NQUEENS_GPU=emulate:2 ";
  const std::string count =
      std::string(NQUEENS_CLI_PATH) + " count 16 --engine gpu --threads 2 --checkpoint " + journal_;
  const cli_run failed = run_cli_command(node + "NQUEENS_GPU_TEST_FAULT=1 " + count);
  EXPECT_EQ(failed.status, 3) << failed.out << failed.err;
  EXPECT_EQ(lines_in(failed.err), 1) << failed.err;
  EXPECT_NE(failed.err.find("an emulated fault (NQUEENS_GPU_TEST_FAULT), on emulated GPU 1 (NQUEENS_GPU=emulate)\n"),
            std::string::npos)
      << failed.err;
  EXPECT_EQ(failed.out.find("Q(16)"), std::string::npos) << failed.out;
  const cli_run resumed = run_cli_command(node + count);
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("Q(16) = 14772512  verified"), std::string::npos) << resumed.out;
  // Not a device number: refused in one line before counting.
  const cli_run refused =
      run_cli_command(node + "NQUEENS_GPU_TEST_FAULT=x " + NQUEENS_CLI_PATH + " count 12 --engine gpu");
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(refused.err,
            "nqueens: NQUEENS_GPU_TEST_FAULT='x' names no emulated GPU: expected a number from 0 to 63, miscount or "
            "miscount:NUMBER\n");
  const cli_run past =
      run_cli_command(node + "NQUEENS_GPU_TEST_FAULT=miscount:64 " + NQUEENS_CLI_PATH + " count 12 --engine gpu");
  EXPECT_EQ(past.status, 2) << past.err;
  EXPECT_EQ(past.err.rfind("nqueens: NQUEENS_GPU_TEST_FAULT='miscount:64' names no emulated GPU", 0), 0u) << past.err;
  // A GPU this process does not see: every GPU it counts on would park for ever.
  const cli_run elsewhere =
      run_cli_command("timeout 20 " + node + "NQUEENS_GPU_TEST_FAULT=5 " + NQUEENS_CLI_PATH + " count 12 --engine gpu");
  EXPECT_EQ(elsewhere.status, 2) << elsewhere.err;
  EXPECT_EQ(elsewhere.err, "nqueens: NQUEENS_GPU_TEST_FAULT='5' names an emulated GPU this process does not see\n");
  // Or one it sees but leaves out: nothing would stop the GPUs it takes either.
  const cli_run left_out = run_cli_command("timeout 20 " + node + "NQUEENS_GPU_TEST_FAULT=1 " + NQUEENS_CLI_PATH +
                                           " count 12 --engine gpu --devices 0");
  EXPECT_EQ(left_out.status, 2) << left_out.err;
  EXPECT_EQ(left_out.err,
            "nqueens: NQUEENS_GPU_TEST_FAULT='1' names an emulated GPU this count does not take (--devices)\n");
}

// Two SIGINTs back to back (a Ctrl-C pressed twice at once, a wrapper that
// forwards what it gets) are one stop: one line, the journal flushed,
// never the second signal's exit at once (signal_fault_test.cpp times a
// second signal a second later).
TEST_F(CliCheckpointTest, BackToBackSigintsAreOneStopLeavingAValidJournal) {
#ifdef NQUEENS_SANITIZED_THREAD
  GTEST_SKIP() << "TSan defers a signal until its thread enters a call it intercepts: two sent together may reach "
                  "their handlers seconds apart, as a repeat";
#endif
  const cli_run r = interrupt_count("--checkpoint-interval 0.02", "kill -INT $pid; kill -INT $pid");
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGINT after "), std::string::npos) << r.err;
  expect_resumes_exactly(long_n, long_total);
}

TEST_F(CliCheckpointTest, FullDiskIsReportedAndTheJournalStaysUsable) {
  // A file-size limit stands in for a full disk: the journal's writes fail
  // (EFBIG) after its first few dozen records. 3 of sh's 512-byte blocks,
  // 1 536 bytes: no whole number of 48-byte records after the 64-byte header.
  const cli_run r = run_script("ulimit -f 3; $NQ count 15 --checkpoint " + journal_ + " --checkpoint-interval 0.01");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("writing checkpoint"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  // Whole records only: a write the limit cut is cut back to the last whole one.
  const auto size = std::filesystem::file_size(journal_);
  EXPECT_GT(size, 64U);
  EXPECT_EQ((size - 64) % 48, 0U) << size;
  expect_resumes_exactly("15", "2279184", "");
}

// A resumed count's JSON says how many subproblems its journal gave, as
// its text does: a run stopped after its first subproblem resumes one.
TEST_F(CliCheckpointTest, JsonSaysWhatWasResumed) {
  journal_after_its_first_subproblem(16);
  const cli_run r = run_cli("count 16 --engine quadrant --threads 2 --json --checkpoint " + journal_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"resumed\":1,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
}

// A shard's line names its own subproblems among the plan's, the two
// numbers its JSON gives (every shard claiming the whole plan went unseen);
// its counts are its JSON's, a line each, every line within 80 columns
// (they once made one line of 151), and it says how to add the shards up.
TEST(CliTest, AShardsLineNamesItsShareOfThePlan) {
  const cli_run json = run_cli("count 10 --shard 1/3 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto number = [&](const std::string& key) {
    const std::size_t at = json.out.find("\"" + key + "\":");
    return at == std::string::npos ? std::string("?")
                                   : std::to_string(std::stoull(json.out.substr(at + key.size() + 3)));
  };
  const std::string share = number("shard_subproblems"), all = number("subproblems");
  EXPECT_NE(share, all) << json.out;
  const cli_run text = run_cli("count 10 --shard 1/3");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find(", " + share + " of " + all + " subproblems"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.rfind("shard 1/3 of Q(10): " + number("total") + " solutions\nunchanged by a half turn: " +
                               number("symmetric_180") + "\nunchanged by a quarter turn: " + number("symmetric_90") +
                               "\n  a part of the count: combine every shard's --json output with 'nqueens merge'\n",
                           0),
            0u)
      << text.out;
  EXPECT_LE(widest_line(text.out), 80U) << text.out;
}

TEST_F(CliCheckpointTest, JournalOfAnotherBoardIsRefusedWithExitTwo) {
  ASSERT_EQ(run_cli("count 12 --checkpoint " + journal_).status, 0);
  const cli_run r = run_cli("count 13 --checkpoint " + journal_);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("belongs to another run (n = 12"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
}

// A journal kept from before holds its engine and split depth: a memory
// bound that refuses its resumption names only the remedies that resume it.
TEST_F(CliCheckpointTest, AKeptJournalIsOfferedOnlyTheRemediesThatResumeIt) {
  journal_after_its_first_subproblem(16);
  const cli_run r = run_cli("count 16 --engine quadrant --threads 2 --max-memory 1M --checkpoint " + journal_);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err,
            "nqueens: the quadrant engine needs about 10 MiB for n = 16 and its lists (the plan's 4187 "
            "subproblems at split depth 1) about 35 KiB, together about 10 MiB, more than the 1 MiB allowed "
            "(--max-memory); raise --max-memory (the journal " +
                journal_ + " resumes on its own engine and split depth alone)\n");
  // Fewer threads resume it too, and are offered with the bound.
  const cli_run threads = run_cli("count 16 --engine quadrant --threads 8 --max-memory 12M --checkpoint " + journal_);
  EXPECT_EQ(threads.status, 2) << threads.err;
  EXPECT_NE(threads.err.find("; choose fewer --threads (at most 4), or raise --max-memory (the journal " + journal_ +
                             " resumes on its own engine and split depth alone)\n"),
            std::string::npos)
      << threads.err;
  // Another run's journal is named first, whether the run fits or not: the
  // remedies for memory would only lead to its refusal.
  const cli_run other = run_cli("count 17 --engine quadrant --threads 2 --max-memory 1M --checkpoint " + journal_);
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_NE(other.err.find("belongs to another run (n = 16, engine quadrant"), std::string::npos) << other.err;
  EXPECT_EQ(other.err.find("--max-memory"), std::string::npos) << other.err;
  EXPECT_EQ(lines_in(other.err), 1) << other.err;
  // Finished, it counts nothing and builds no tables: read within the bound.
  ASSERT_EQ(run_cli("count 16 --engine quadrant --threads 2 --checkpoint " + journal_).status, 0);
  const cli_run finished = run_cli("count 16 --engine quadrant --threads 2 --max-memory 1M --checkpoint " + journal_);
  EXPECT_EQ(finished.status, 0) << finished.err;
  EXPECT_NE(finished.out.find("Q(16) = 14772512  verified"), std::string::npos) << finished.out;
  EXPECT_NE(finished.out.find("resumed: 4,187 of 4,187 subproblems"), std::string::npos) << finished.out;
}

// A total the published table refutes says that the journal holds it and
// would give it again (a record forged here: 8 more solutions of one more
// class, which nothing but the table can catch).
TEST_F(CliCheckpointTest, AMismatchSaysTheJournalHoldsIt) {
  const plan p(10, {.kind = engine::symmetric});
  {
    checkpoint_journal j(journal_, p);
    subproblem_count forged = run_context(p).solve(0);
    forged.total += 8;
    forged.unique += 1;
    j.record(0, forged);
    j.flush();
  }
  const cli_run r = run_cli("count 10 --engine symmetric --checkpoint " + journal_);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("Q(10) = 732  MISMATCH"), std::string::npos) << r.out;
  const std::string said = "nqueens: the journal " + journal_ + " holds the " + std::to_string(p.size()) +
                           " subproblem counts this result adds up (1 of them from before this run) and would give "
                           "them again: count with another --checkpoint, or none, to count afresh and tell a damaged "
                           "record from a machine's fault\n";
  EXPECT_EQ(r.err, said);
  EXPECT_TRUE(checkpoint_journal(journal_, p).complete());  // finished, as any whole run
  const cli_run again = run_cli("count 10 --engine symmetric --checkpoint " + journal_);
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_NE(again.out.find("Q(10) = 732  MISMATCH"), std::string::npos) << again.out;
  EXPECT_NE(again.err.find("subproblem counts this result adds up (" + std::to_string(p.size()) +
                           " of them from before this run)"),
            std::string::npos)
      << again.err;
  // In JSON the verdict is false, never null (no published value), for the
  // count and for merge's sum of it as a shard: a script reads that alone.
  const cli_run json = run_script("$NQ count 10 --engine symmetric --json --checkpoint " + journal_ + " > whole.json");
  EXPECT_EQ(json.status, 1) << json.err;
  std::ifstream written("whole.json");
  const std::string line((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  EXPECT_NE(line.find("\"total\":732,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"verified\":false,"), std::string::npos) << line;
  const cli_run merged = run_cli("merge --json whole.json");
  EXPECT_EQ(merged.status, 1) << merged.err;
  EXPECT_NE(merged.out.find("\"total\":732,"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("\"verified\":false"), std::string::npos) << merged.out;
}

TEST_F(CliCheckpointTest, ProgressGoesToStderrOnly) {
  const cli_run r = run_cli("count 15 --progress --json --checkpoint " + journal_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1) << r.out;
  EXPECT_NE(r.err.find("progress: 100.0%"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("subproblems  "), std::string::npos) << r.err;
}

TEST(CliTest, QuadrantEngineCountsAndVerifies) {
  const cli_run r = run_cli("count 12 --engine quadrant --threads 2 --max-memory 64M");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine quadrant"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unique = 1787  verified"), std::string::npos) << r.out;  // from the rotation-symmetric counts
}

// Squeezed below its tables, the quadrant engine still counts exactly.
TEST(CliTest, QuadrantCountsExactlyInLittleMemory) {
  const cli_run r = run_cli("count 16 --engine quadrant --threads 2 --max-memory 11M");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(16) = 14772512  verified"), std::string::npos) << r.out;
}

// Where auto takes a slower engine than n's own because the faster's tables
// do not fit the bound, the count says so (text and JSON, as plan does);
// not where the engine is named, nor where n's own engine fits.
TEST(CliTest, AnEngineChosenToFitTheMemoryIsSaidToBe) {
  const cli_run fitted = run_cli("count 16 --threads 2 --max-memory 1M");
  ASSERT_EQ(fitted.status, 0) << fitted.err;
  EXPECT_NE(fitted.out.find("  engine symmetric, 2 threads, "), std::string::npos) << fitted.out;
  EXPECT_NE(fitted.out.find(" s\n  the engine chosen to fit --max-memory\n"), std::string::npos) << fitted.out;
  EXPECT_LE(widest_line(fitted.out), 80U) << fitted.out;
  const cli_run json = run_cli("count 16 --threads 2 --max-memory 1M --json");
  EXPECT_NE(json.out.find("\"engine\":\"symmetric\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"fitted_to_memory\":true"), std::string::npos) << json.out;
  for (const char* unfitted : {"count 16 --threads 2", "count 16 --threads 2 --max-memory 1M --engine symmetric",
                               "count 12 --threads 2 --max-memory 1M"}) {
    const cli_run r = run_cli(std::string(unfitted) + " --json");
    ASSERT_EQ(r.status, 0) << unfitted << ": " << r.err;
    EXPECT_NE(r.out.find("\"fitted_to_memory\":false"), std::string::npos) << unfitted << ": " << r.out;
    EXPECT_EQ(run_cli(unfitted).out.find("chosen to fit"), std::string::npos) << unfitted;
  }
}

// A run refused for its lists at one split says the shallower one that fits,
// and that depth counts within the bound while one deeper is refused; parts
// of one run are asked to take the same.
TEST(CliTest, ARefusalForTheListsNamesTheSplitDepthThatFits) {
  const std::pair<const char*, const char*> cases[] = {
      {"count 14 --max-memory 1M --checkpoint j.ckpt", ": give every part of the run the same)"},
      {"count 14 --max-memory 1M --split-depth 6", ")"},
      {"count 14 --max-memory 1M --split-depth 6 --shard 0/2", ": give every part of the run the same)"},
  };
  for (const auto& [command, ending] : cases) {
    const cli_run r = run_cli(command);
    ASSERT_EQ(r.status, 2) << command << ": " << r.err;
    const std::size_t hint = r.err.find("(--split-depth ");
    ASSERT_NE(hint, std::string::npos) << command << ": " << r.err;
    EXPECT_EQ(r.err.substr(r.err.size() - std::string(ending).size() - 1), std::string(ending) + "\n") << r.err;
    const int depth = std::stoi(r.err.substr(hint + 15));
    const cli_run fits = run_cli("count 14 --max-memory 1M --split-depth " + std::to_string(depth));
    EXPECT_EQ(fits.status, 0) << depth << ": " << fits.err;
    EXPECT_NE(fits.out.find("Q(14) = 365596  verified"), std::string::npos) << fits.out;
    EXPECT_EQ(run_cli("count 14 --max-memory 1M --split-depth " + std::to_string(depth + 1)).status, 2) << depth;
  }
  EXPECT_FALSE(std::filesystem::exists("j.ckpt"));
  // A journal kept from before holds its split: no other is advised.
  ASSERT_EQ(run_cli("count 14 --split-depth 3 --checkpoint kept.ckpt").status, 0);
  const cli_run kept = run_cli("count 14 --max-memory 1M --checkpoint kept.ckpt");
  EXPECT_EQ(kept.status, 2) << kept.err;
  EXPECT_EQ(kept.err.find("(--split-depth"), std::string::npos) << kept.err;
  // Where the automatic split fits, it is named.
  const cli_run automatic = run_cli("count 14 --max-memory 64M --split-depth 12 --shard 0/2");
  EXPECT_EQ(automatic.status, 2) << automatic.err;
  EXPECT_NE(automatic.err.find("(the automatic split fits: leave out --split-depth in every part of the run)\n"),
            std::string::npos)
      << automatic.err;
}

// A count of `n` with `engine` twice on one journal (the second resumes),
// then in two shards merged; `then` runs after, in the same script.
cli_run journal_and_shards(const std::string& engine, int n, const std::string& then = "") {
  const std::string count = "$NQ count " + std::to_string(n) + " --engine " + engine;
  return run_script("rm -f j.ckpt s0.json s1.json; " + count + " --checkpoint j.ckpt >/dev/null && " + count +
                    " --checkpoint j.ckpt && " + count + " --shard 0/2 --json > s0.json && " + count +
                    " --shard 1/2 --json > s1.json && $NQ merge s0.json s1.json" + then +
                    "; status=$?; rm -f j.ckpt s0.json s1.json; exit $status");
}

TEST(CliTest, QuadrantWorksWithJournalsAndShards) {
  const cli_run r = journal_and_shards("quadrant", 14);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merged 2 shards of engine quadrant"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), 'Q'), 2) << r.out;  // both totals printed, both verified
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
}

// The GPU engine through the tool, on the backend CTest names (NQUEENS_GPU:
// emulated here and in CI, the device under scripts/gpu.sh): journals,
// shards and progress as for any engine.
TEST(CliTest, GpuEngineWorksWithJournalsShardsAndProgress) {
  const cli_run r = journal_and_shards("gpu", 12, " && $NQ count 13 --engine gpu --progress");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merged 2 shards of engine gpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Q(13) = 73712  verified"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace nqueens::test

namespace nqueens::test {
namespace {

// Where no GPU is usable the engine is refused before anything is written
// (no journal is left behind), in one line, exit 2. On a GPU machine the
// same command counts.
TEST(CliTest, GpuEngineWithoutAGpuIsRefusedInOneLine) {
  const cli_run r = run_script(
      "rm -f nogpu.ckpt; env -u NQUEENS_GPU $NQ count 10 --engine gpu --checkpoint nogpu.ckpt; status=$?; "
      "if [ -e nogpu.ckpt ]; then echo journal left; fi; rm -f nogpu.ckpt; exit $status");
  if (r.status == 0) {  // only where an NVIDIA driver is: no silent fallback to the CPU
    EXPECT_TRUE(std::filesystem::exists("/dev/nvidiactl")) << "counted without a GPU: " << r.out;
    EXPECT_NE(r.out.find("Q(10) = 724  verified"), std::string::npos) << r.out;
    return;
  }
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--engine gpu needs an NVIDIA GPU: "), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("journal left"), std::string::npos) << r.out;
  const cli_run wrong = run_cli_command("NQUEENS_GPU=cpu " + std::string(NQUEENS_CLI_PATH) + " count 8 --engine gpu");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.err.find("NQUEENS_GPU='cpu' names no GPU backend"), std::string::npos) << wrong.err;
}

// Rounds as a module built with NQUEENS_GPU_ROUND_JOBS=192 holds them
// (NQUEENS_GPU_TEST_ROUND_JOBS on the emulator): the engine hands each
// stream calls of as many subproblems as its rounds hold, the same count
// in a third of the launches (each thread's last call may be short). A
// size past 1..256 is refused in one line, exit 2.
TEST(CliTest, GpuCallsHoldWhatTheModulesRoundsHold) {
  const std::string nq =
      "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " count 13 --engine gpu --threads 2 --json";
  const auto launches = [](const std::string& json) {
    const std::size_t at = json.find("\"device_launches\":");
    return at == std::string::npos ? 0ULL : std::stoull(json.substr(at + 18));
  };
  const cli_run usual = run_cli_command(nq);
  const cli_run larger = run_cli_command("NQUEENS_GPU_TEST_ROUND_JOBS=192 " + nq);
  for (const cli_run* r : {&usual, &larger}) {
    ASSERT_EQ(r->status, 0) << r->err;
    EXPECT_NE(r->out.find("\"total\":73712,"), std::string::npos) << r->out;
    EXPECT_NE(r->out.find("\"verified\":true"), std::string::npos) << r->out;
  }
  ASSERT_GT(launches(larger.out), 0U) << larger.out;
  EXPECT_LE(3 * launches(larger.out), launches(usual.out) + 2 * 3 * 12) << usual.out << "\n" << larger.out;
  const cli_run refused = run_cli_command("NQUEENS_GPU_TEST_ROUND_JOBS=257 " + nq);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(refused.err,
            "nqueens: NQUEENS_GPU_TEST_ROUND_JOBS=257 is out of range: expected an integer from 1 to 256\n");
}

// Calls sized on the host (group_bounds, where a call's bounds fit its
// stream's arena) and calls sized on the emulated device first
// (NQUEENS_GPU_TEST_HOST_SIZES=0, as a module built with
// NQUEENS_GPU_HOST_SIZES=0 sizes them) count the same; the host's take no
// round of sizes: fewer launches and stream operations. Another value is
// refused in one line, exit 2.
TEST(CliTest, GpuCallsSizedOnTheHostCountTheSameInFewerLaunches) {
  const std::string nq =
      "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " count 13 --engine gpu --threads 2 --json";
  const auto field = [](const std::string& json, const std::string& name) {
    const std::size_t at = json.find("\"" + name + "\":");
    return at == std::string::npos ? 0ULL : std::stoull(json.substr(at + name.size() + 3));
  };
  const cli_run host = run_cli_command(nq);
  const cli_run device = run_cli_command("NQUEENS_GPU_TEST_HOST_SIZES=0 " + nq);
  for (const cli_run* r : {&host, &device}) {
    ASSERT_EQ(r->status, 0) << r->err;
    EXPECT_NE(r->out.find("\"total\":73712,"), std::string::npos) << r->out;
    EXPECT_NE(r->out.find("\"verified\":true"), std::string::npos) << r->out;
  }
  ASSERT_GT(field(host.out, "device_launches"), 0U) << host.out;
  EXPECT_LT(field(host.out, "device_launches"), field(device.out, "device_launches")) << host.out << "\n" << device.out;
  EXPECT_LT(field(host.out, "device_operations"), field(device.out, "device_operations")) << host.out << "\n"
                                                                                          << device.out;
  const cli_run refused = run_cli_command("NQUEENS_GPU_TEST_HOST_SIZES=2 " + nq);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(refused.err, "nqueens: NQUEENS_GPU_TEST_HOST_SIZES=2 is out of range: expected an integer from 0 to 1\n");
}

// --gpu-memory bounds what a count takes of each GPU. At the least it lets
// start (two streams, each its fixed buffers and a MiB beside a
// subproblem's own lists) the tables stay on the host and each subproblem
// stages its own quarter lists (a dozen copies a job: more operations than
// twice the launches); with room for the tables and arenas of 1.125 MiB
// they go to the GPU. Either way the arenas are under the emulator's 4 MiB
// and a round of 64 jobs of n = 16 does not fit: more launches, the same
// count. A bound under the least, or one given an
// engine that counts on the CPU, is refused in one line, exit 2, before a
// journal is taken.
TEST(CliTest, GpuMemoryBoundsEachGpuOrIsRefused) {
  const std::string nq = "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " count 16 --engine gpu --json";
  const auto field = [](const std::string& json, const std::string& name) {
    const std::size_t at = json.find("\"" + name + "\":");
    return at == std::string::npos ? 0ULL : std::stoull(json.substr(at + name.size() + 3));
  };
  const auto launches = [&](const std::string& json) { return field(json, "device_launches"); };
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  const std::uint64_t least = detail::gpu::least_device_bytes(
      2, detail::quarter_lists_bytes(16, true) +
             sizeof(std::uint64_t) * detail::gpu::key_words_for(16, detail::gpu::job_digits_for(16), 0));
  const std::uint64_t with_tables =
      detail::quarter_tables_bytes(16) + 2 * (detail::gpu::least_stream_bytes(0) + mib / 8);
  ASSERT_LT(least, with_tables - mib / 4);  // the least leaves the tables on the host
  ASSERT_LT(mib / 8 + detail::gpu::least_arena_bytes, 8 * detail::gpu::emulator_options{}.arena_words);
  const cli_run free = run_cli_command(nq + " --threads 2");
  ASSERT_EQ(free.status, 0) << free.err;
  for (const auto& [bound, own_lists] : {std::pair<std::uint64_t, bool>{least, true}, {with_tables, false}}) {
    const cli_run bounded = run_cli_command(nq + " --threads 2 --gpu-memory " + std::to_string(bound));
    ASSERT_EQ(bounded.status, 0) << bound << ": " << bounded.err;
    EXPECT_NE(bounded.out.find("\"total\":14772512,"), std::string::npos) << bound << ": " << bounded.out;
    EXPECT_NE(bounded.out.find("\"verified\":true"), std::string::npos) << bound << ": " << bounded.out;
    EXPECT_GT(launches(bounded.out), launches(free.out)) << bound << ": " << bounded.out << "\n" << free.out;
    EXPECT_EQ(field(bounded.out, "device_operations") > 2 * launches(bounded.out), own_lists)
        << bound << ": " << bounded.out;
    // The host's time on those lists, and none with the whole tables.
    const std::size_t lists = bounded.out.find("\"host_list_seconds\":");
    ASSERT_NE(lists, std::string::npos) << bounded.out;
    EXPECT_EQ(std::stod(bounded.out.substr(lists + 20)) > 0, own_lists) << bound << ": " << bounded.out;
    // And the bytes of them staged on the device.
    ASSERT_NE(bounded.out.find("\"staged_list_bytes\":"), std::string::npos) << bounded.out;
    EXPECT_EQ(field(bounded.out, "staged_list_bytes") > 0, own_lists) << bound << ": " << bounded.out;
    // The text's host-time line says the same, where kernel times are asked.
    const cli_run text = run_cli_command("NQUEENS_GPU=emulate NQUEENS_GPU_TIMES=1 " + std::string(NQUEENS_CLI_PATH) +
                                         " count 16 --engine gpu --threads 2 --gpu-memory " + std::to_string(bound));
    ASSERT_EQ(text.status, 0) << bound << ": " << text.err;
    const std::size_t host = text.out.find("  host time: ");
    ASSERT_NE(host, std::string::npos) << text.out;
    const std::string host_line = text.out.substr(host, text.out.find('\n', host) - host);
    EXPECT_EQ(host_line.find("; own quarter lists ") != std::string::npos, own_lists) << bound << ": " << host_line;
    EXPECT_EQ(host_line.find("B staged") != std::string::npos, own_lists) << bound << ": " << host_line;
  }
  // The least a count needs follows the streams' buffers: the message is
  // checked piece by piece, its figures aside.
  const auto refusal = [](const std::string& options) {
    return run_script("rm -f m.ckpt; NQUEENS_GPU=emulate $NQ count 10 " + options +
                      " --checkpoint m.ckpt; status=$?; if [ -e m.ckpt ]; then echo journal left; fi; "
                      "rm -f m.ckpt; exit $status");
  };
  const cli_run small = refusal("--engine gpu --threads 2 --gpu-memory 2M");
  EXPECT_EQ(small.status, 2);
  EXPECT_EQ(small.err.rfind("nqueens: the gpu engine needs at least 3", 0), 0U) << small.err;
  for (const std::string piece :
       {" MiB of each GPU for n = 10 on 2 threads (2 streams a GPU, each with its buffers and a subproblem's quarter "
        "lists), more than the 2",
        " MiB allowed (--gpu-memory); raise --gpu-memory to 3M or more, or count with fewer --threads\n"}) {
    EXPECT_NE(small.err.find(piece), std::string::npos) << small.err;
  }
  EXPECT_EQ(std::count(small.err.begin(), small.err.end(), '\n'), 1) << small.err;
  EXPECT_EQ(small.out.find("journal left"), std::string::npos);
  // One thread is one stream a GPU, the least: fewer threads are no remedy.
  const cli_run one_stream = refusal("--engine gpu --threads 1 --gpu-memory 1M");
  EXPECT_EQ(one_stream.status, 2);
  EXPECT_TRUE(
      one_stream.err.ends_with("(1 stream a GPU, each with its buffers and a subproblem's quarter lists), "
                               "more than the 1 MiB allowed (--gpu-memory); raise --gpu-memory to 2M or more\n"))
      << one_stream.err;
  // The least it names is enough: the figure is rounded up, never down.
  const std::size_t named = small.err.find("needs at least ") + 15;
  const std::string least_named = small.err.substr(named, small.err.find(" MiB", named) - named);
  const cli_run named_bound = refusal("--engine gpu --threads 2 --gpu-memory " + least_named + "M");
  EXPECT_EQ(named_bound.status, 0) << least_named << ": " << named_bound.err;
  const std::pair<std::string, std::string> refused[] = {
      {"--engine quadrant --gpu-memory 1G",
       "nqueens: --gpu-memory bounds what a count takes of each GPU, and the quadrant engine counts on the CPU: it "
       "applies to --engine gpu only\n"},
      {"--engine gpu --gpu-memory 0",
       "nqueens: --gpu-memory 0 is out of range: expected a size from 1M to 16777215T (16 EiB less 1 TiB)\n"},
  };
  for (const auto& [options, message] : refused) {
    const cli_run r = refusal(options);
    EXPECT_EQ(r.status, 2) << options;
    EXPECT_EQ(r.err, message) << options;
    EXPECT_EQ(r.out.find("journal left"), std::string::npos) << options;
  }
}

// A bound past this machine's memory is taken, with a warning that a count
// needing it would be killed rather than refused; `plan`, which may price a
// larger node, says nothing of it.
TEST(CliTest, MaxMemoryPastThisMachineIsWarnedOf) {
  const std::string warning = "nqueens: warning: --max-memory 16.0 EiB is more than the ";
  // The GPU's options too, where the command takes them (validated for the
  // warning, they were refused with the automatic engine's rule).
  for (const char* command :
       {"count 10", "verify --to 6", "scale 8 --threads 1 --repeat 1", "verify --to 6 --engine gpu --gpu-memory 1G",
        "scale 8 --threads 1 --repeat 1 --engine gpu --gpu-memory 1G"}) {
    const cli_run r = run_cli(std::string(command) + " --max-memory 16777215T");
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_NE(r.err.find(warning), std::string::npos) << command << ": " << r.err;
    const cli_run fits = run_cli(std::string(command) + " --max-memory 64M");
    EXPECT_EQ(fits.err.find("warning: --max-memory"), std::string::npos) << command << ": " << fits.err;
  }
  const cli_run plan = run_cli("plan 10 --max-memory 16777215T");
  EXPECT_EQ(plan.status, 0) << plan.err;
  EXPECT_EQ(plan.err, "");
  // The machine's memory is twice the default bound: a byte past it is
  // warned of, naming it; the memory itself is not.
  const std::uint64_t here = 2 * default_memory_limit();
  const cli_run past = run_cli("count 10 --max-memory " + std::to_string(here + 1));
  EXPECT_EQ(past.status, 0) << past.err;
  EXPECT_NE(past.err.find(" is more than the " + format_bytes(here) + " this machine (or its container) has"),
            std::string::npos)
      << past.err;
  EXPECT_EQ(run_cli("count 10 --max-memory " + std::to_string(here)).err, "");
  // Given once the options are valid: a refusal of them is the one line on
  // stderr (the warning came first, a second line).
  for (const char* refused :
       {"verify --to 6 --progress --no-progress", "scale 8 -r 1 -t 1 --csv /nonexistent-folder/rows.csv",
        "count 30 --engine quadrant", "scale 30 -r 1 -t 1 --engine quadrant", "plan 8 --stats --estimate"}) {
    const cli_run r = run_cli(std::string(refused) + " --max-memory 16777215T");
    EXPECT_EQ(r.status, 2) << refused << ": " << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << refused << ": " << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << refused << ": " << r.err;
  }
#ifndef NQUEENS_SANITIZED  // a sanitizer's shadow memory takes no bound on the address space
  // And before the count, whose plan and tables are what a machine short of
  // memory fails on (here its lists at a split depth of 10, past a 150 MB
  // address space): the warning was lost when it waited for the count.
  const cli_run short_of_memory = run_script(
      "ulimit -v 150000; $NQ count 14 --engine symmetric --split-depth 10 --threads 1 --max-memory 16777215T");
  EXPECT_EQ(short_of_memory.status, 3) << short_of_memory.err;
  EXPECT_EQ(short_of_memory.err.rfind(warning, 0), 0u) << short_of_memory.err;
#endif
}

// --devices chooses among the GPUs this process sees (an emulated node of
// three here), by index or UUID; a list that names no visible GPU, names one
// twice or is no list, fewer threads than the GPUs taken, and a list for an
// engine that counts on the CPU, are each refused in one line, exit 2,
// before a journal is taken.
TEST(CliTest, DevicesChooseAmongTheVisibleGpusOrAreRefused) {
  // A process alone on its node, even where the suite itself runs under
  // mpirun or srun: the launchers' variables deal the GPUs.
  const std::string alone =
      "env -u OMPI_COMM_WORLD_LOCAL_RANK -u OMPI_COMM_WORLD_LOCAL_SIZE -u MPI_LOCALRANKID -u MPI_LOCALNRANKS "
      "-u SLURM_LOCALID -u SLURM_STEP_TASKS_PER_NODE -u SLURM_NODEID -u NQUEENS_GPU_SHARERS ";
  const std::string node = alone + "NQUEENS_GPU=emulate:3 " + std::string(NQUEENS_CLI_PATH);
  for (const std::string devices : {"all", "1", "2,0", "GPU-e0000000-0000-0000-0000-000000000002"}) {
    const cli_run r = run_cli_command(node + " count 12 --engine gpu --threads 3 --devices " + devices);
    EXPECT_EQ(r.status, 0) << devices << ": " << r.err;
    EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << devices << ": " << r.out;
  }
  const std::pair<std::string, std::string> refused[] = {
      {"--engine gpu --devices 3", "nqueens: --devices names GPU 3, but 3 GPUs are visible (0 to 2)\n"},
      {"--engine gpu --devices 0,0", "nqueens: --devices names GPU 0 twice\n"},
      {"--engine gpu --devices 0,",
       "nqueens: --devices item '' is no GPU: expected all, or GPU indices (0 to 1023) and "
       "UUIDs (GPU-...) separated by commas\n"},
      {"--engine gpu --devices ''", "nqueens: --devices needs all or a list of GPUs\n"},
      // A thread drives one GPU at a time: fewer would leave GPUs idle.
      {"--engine gpu --threads 2",
       "nqueens: --engine gpu drives each GPU from a thread of its own, and 2 threads cannot keep the 3 GPUs this "
       "process takes busy: give --threads 3 or more, or fewer --devices\n"},
      {"--engine gpu --threads 1 --devices 0,2",
       "nqueens: --engine gpu drives each GPU from a thread of its own, and 1 thread cannot keep the 2 GPUs this "
       "process takes busy: give --threads 2 or more, or fewer --devices\n"},
      {"--engine quadrant --devices 0",
       "nqueens: --devices chooses GPUs, and the quadrant engine counts on the CPU: it applies to --engine gpu only\n"},
  };
  for (const auto& [options, message] : refused) {
    const cli_run r = run_script("rm -f d.ckpt; " + node + " count 10 " + options +
                                 " --checkpoint d.ckpt; status=$?; if [ -e d.ckpt ]; then echo journal left; fi; "
                                 "rm -f d.ckpt; exit $status");
    EXPECT_EQ(r.status, 2) << options;
    EXPECT_EQ(r.err, message) << options;
    EXPECT_EQ(r.out.find("journal left"), std::string::npos) << options;
  }
  // A rank alone on its node is told why its threads may be few: mpirun
  // bound it to one core (a plain run is not told of mpirun).
  const cli_run rank_alone =
      run_cli_command(alone + "OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=1 " + "NQUEENS_GPU=emulate:3 " +
                      std::string(NQUEENS_CLI_PATH) + " count 10 --engine gpu --threads 2");
  EXPECT_EQ(rank_alone.status, 2) << rank_alone.err;
  EXPECT_EQ(rank_alone.err,
            "nqueens: --engine gpu drives each GPU from a thread of its own, and 2 threads cannot keep the 3 GPUs this "
            "process takes busy: give --threads 3 or more (mpirun binds a rank to one core unless given --bind-to "
            "none), or fewer --devices\n");
  // Where the node's ranks share the GPUs, each rank's thread takes one of
  // them (from its node-local rank's place on): the ranks' threads together
  // keep them all busy, none left idle while another is driven twice, and
  // none is refused.
  for (const char* rank : {"0", "1", "2"}) {
    const cli_run shared =
        run_cli_command(alone + "OMPI_COMM_WORLD_LOCAL_RANK=" + std::string(rank) +
                        " OMPI_COMM_WORLD_LOCAL_SIZE=3 NQUEENS_GPU=emulate:3 " + std::string(NQUEENS_CLI_PATH) +
                        " count 12 --engine gpu --threads 1 --devices all");
    EXPECT_EQ(shared.status, 0) << rank << ": " << shared.err;
    EXPECT_NE(shared.out.find("Q(12) = 14200  verified"), std::string::npos) << rank << ": " << shared.out;
    const std::string own = "\n  on GPU " + std::string(rank) + " (emulated GPU " + rank + ", shared by 3 processes)\n";
    EXPECT_NE(shared.out.find(own), std::string::npos) << rank << ": " << shared.out;
  }
  const cli_run wrong =
      run_cli_command("NQUEENS_GPU=emulate:0 " + std::string(NQUEENS_CLI_PATH) + " count 8 --engine gpu");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_EQ(wrong.err,
            "nqueens: NQUEENS_GPU='emulate:0' names no GPU backend: expected device, emulate, or emulate:N (N from 1 "
            "to 64)\n");
  // A list's form is judged first, with a GPU or without one (none here, or
  // one unseen: the device backend), as --gpu-memory's is: not later on a GPU node.
  for (const auto& [devices, message] : {std::pair<std::string, std::string>{"0,0", "--devices names GPU 0 twice"},
                                         {"garbage", "--devices item 'garbage' is no GPU"}}) {
    const cli_run r = run_cli_command(alone + "NQUEENS_GPU=device " + std::string(NQUEENS_CLI_PATH) +
                                      " count 10 --engine gpu --devices " + devices);
    EXPECT_EQ(r.status, 2) << devices;
    EXPECT_EQ(r.err.rfind("nqueens: " + message, 0), 0U) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// A GPU count names the GPUs it counted on, and how many processes share
// each, in text and JSON; a CPU count names none.
TEST(CliTest, AGpuCountNamesTheGpusItCountedOn) {
  const std::string alone =
      "env -u OMPI_COMM_WORLD_LOCAL_RANK -u OMPI_COMM_WORLD_LOCAL_SIZE -u MPI_LOCALRANKID -u MPI_LOCALNRANKS "
      "-u SLURM_LOCALID -u SLURM_STEP_TASKS_PER_NODE -u SLURM_NODEID -u NQUEENS_GPU_SHARERS -u CUDA_VISIBLE_DEVICES ";
  const std::string node = alone + "NQUEENS_GPU=emulate:3 ";
  const cli_run all = run_cli_command(node + NQUEENS_CLI_PATH + " count 12 --engine gpu --threads 3");
  EXPECT_EQ(all.status, 0) << all.err;
  EXPECT_NE(all.out.find("\n  on GPU 0 (emulated GPU 0), GPU 1 (emulated GPU 1), GPU 2 (emulated GPU 2)\n"),
            std::string::npos)
      << all.out;
  // The second of six ranks on the three GPUs: GPU 1, shared with another.
  const cli_run shared = run_cli_command(node + "OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_LOCAL_SIZE=6 " +
                                         NQUEENS_CLI_PATH + " count 12 --engine gpu --threads 1");
  EXPECT_EQ(shared.status, 0) << shared.err;
  EXPECT_NE(shared.out.find("\n  on GPU 1 (emulated GPU 1, shared by 2 processes)\n"), std::string::npos) << shared.out;
  const cli_run json = run_cli_command(node + "CUDA_VISIBLE_DEVICES=2 " + NQUEENS_CLI_PATH +
                                       " count 12 --engine gpu --threads 1 --json");
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"gpus\":[{\"index\":0,\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000002\","
                          "\"name\":\"emulated GPU 2\",\"sharers\":1}]"),
            std::string::npos)
      << json.out;
  const cli_run cpu = run_cli("count 12 --engine quadrant --json");
  EXPECT_EQ(cpu.out.find("\"gpus\""), std::string::npos) << cpu.out;
}

// NQUEENS_GPU_MODULE names the user's file, and the refusal says what is
// wrong with that file: one that is not nqueens' module is called that, one
// that does not exist is called that (not "not installed", nor "names
// another place"). Run in a directory of its own, so that a bare name
// names no file there.
TEST(CliTest, TheFileNqueensGpuModuleNamesIsJudgedAsGiven) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("nqueens-gpu-module-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Dl_info libc{};
  ASSERT_NE(::dladdr(reinterpret_cast<void*>(&::getpid), &libc), 0);
  const auto refusal = [&](const std::string& module) {
    return run_cli_command("cd " + dir.string() + " && NQUEENS_GPU=device NQUEENS_GPU_MODULE=" + module + " " +
                           NQUEENS_CLI_PATH + " count 8 --engine gpu");
  };
  const std::string prefix = "nqueens: --engine gpu needs an NVIDIA GPU: the file NQUEENS_GPU_MODULE names, ";
  const cli_run other = refusal(libc.dli_fname);
  if (other.err.find("built without CUDA") != std::string::npos) {
    std::filesystem::remove_all(dir);
    GTEST_SKIP() << "no GPU module in this build";
  }
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_EQ(other.err, prefix + libc.dli_fname + ", is not nqueens' GPU module (libnqueens-gpu.so)\n");
  for (const std::string& missing : {std::string("libm.so.6"), (dir / "missing.so").string()}) {
    const cli_run r = refusal(missing);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err,
              prefix + missing + ", does not exist (it takes the path of nqueens' GPU module, libnqueens-gpu.so)\n");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace nqueens::test
