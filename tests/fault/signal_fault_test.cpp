// The fault-injection suite, signals: every stop signal, at any moment (a
// frozen run, a table build, planning, subproblems of seconds), ends the
// run within its bound, saves what finished and is never swallowed; SIGHUP
// ignored by nohup stays ignored. The journals' and files' faults are in
// fault_test.cpp.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/fault_fixture.hpp"
#include "support/process.hpp"
#include "support/shard_json.hpp"

namespace nqueens::test {
namespace {

TEST_F(FaultTest, SignalsAreNeverSwallowed) {
  // The run is frozen (SIGSTOP) at a moment in its first milliseconds, the
  // SIGTERM queued, and the run resumed: whatever it was doing, it must
  // answer 143, never finish as if nothing had come.
  // Q(12) lives about 6 ms, its end included; the symmetric engine's Q(16) on
  // one thread lives seconds, so that some stops land however fast the machine.
  int tested = 0;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const bool long_run = attempt >= 10;
    std::vector<std::string> argv = {nq, "count", long_run ? "16" : "12", "--checkpoint",
                                     path("s" + std::to_string(attempt) + ".ckpt")};
    if (long_run) argv.insert(argv.end(), {"--engine", "symmetric", "--threads", "1"});
    child c(argv);
    std::this_thread::sleep_for(std::chrono::microseconds(attempt % 10 * 700));
    c.signal(SIGSTOP);
    char state = c.state();
    for (int k = 0; k < 1000 && state != 'T' && state != 'Z'; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      state = c.state();
    }
    if (state != 'T') continue;  // it had finished already: nothing to tell
    ++tested;
    c.signal(SIGTERM);
    c.signal(SIGCONT);
    const finished r = c.wait();
    // Killed before its handler was installed, or told: 143 either way.
    EXPECT_EQ(r.status, 143) << "attempt " << attempt << ": " << r.out << r.err;
  }
  EXPECT_GE(tested, 3) << "the runs finished before they could be stopped";
}

// A count stopped (Ctrl-Z, SIGSTOP) and continued: the time it stood still
// is no counting. Its last progress line's rate is the solutions over the
// time it counted, not over the time elapsed: held 3 s in a count of
// seconds, the rate times the elapsed time less those 3 s still gives every
// solution (less 10% for the line's rounding).
TEST_F(FaultTest, TheTimeAStoppedCountStoodStillIsNoCounting) {
#ifdef NQUEENS_SANITIZED
  const std::string n = "16";  // seconds when sanitized
#else
  const std::string n = "17";
#endif
  child c({nq, "count", n, "--engine", "symmetric", "--threads", "1", "--progress"});
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 0.3 * sanitizer_cpu_factor)) << "the count ended too soon";
  c.signal(SIGSTOP);
  for (int k = 0; k < 1000 && c.state() != 'T'; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(c.state(), 'T') << "the count was not stopped";
  constexpr double held = 3.0;
  std::this_thread::sleep_for(std::chrono::duration<double>(held));
  c.signal(SIGCONT);
  const finished r = c.wait(600);
  ASSERT_EQ(r.status, 0) << r.err;
  // "Q(17) = 95815104  verified", and "... 7.1s elapsed  95.8 M solutions  31.9 M/s ...".
  const std::size_t q = r.out.find(" = ");
  ASSERT_NE(q, std::string::npos) << r.out;
  const double total = std::stod(r.out.substr(q + 3));
  const std::size_t line = r.err.rfind("progress: 100.0%");
  ASSERT_NE(line, std::string::npos) << r.err;
  std::istringstream words(r.err.substr(line));
  std::vector<std::string> w;
  for (std::string word; words >> word;) w.push_back(word);
  const auto at = [&](const std::string& word) { return std::ranges::find(w, word) - w.begin(); };
  const std::size_t elapsed_at = static_cast<std::size_t>(at("elapsed"));
  ASSERT_TRUE(elapsed_at >= 1 && elapsed_at < w.size()) << r.err;
  const std::string& time = w[elapsed_at - 1];  // "7.1s", or "1m02s"
  const std::size_t m = time.find('m');
  const double elapsed =
      m == std::string::npos ? std::stod(time) : 60 * std::stod(time) + std::stod(time.substr(m + 1));
  // "31.9 M/s", or "812/s" below a thousand.
  const auto per_second = std::ranges::find_if(w, [](const std::string& word) { return word.ends_with("/s"); });
  ASSERT_NE(per_second, w.end()) << r.err;
  const std::size_t rate_at = static_cast<std::size_t>(per_second - w.begin());
  const std::string prefix = per_second->substr(0, per_second->size() - 2);
  const double scale = prefix == "k" ? 1e3 : prefix == "M" ? 1e6 : prefix == "G" ? 1e9 : 1;
  const double rate = scale == 1 ? std::stod(prefix) : std::stod(w[rate_at - 1]) * scale;
  EXPECT_GE(elapsed, held) << r.err;
  EXPECT_GE(rate * (elapsed - held + 0.5), 0.9 * total) << "the time stopped was taken for counting: " << r.err;
}

// Every signal that ends a run as users meet it (a closed terminal, Ctrl-\\,
// a scheduler's warning before its time limit, a CPU limit) flushes the
// journal however long its interval, names itself and exits 128 + signal
// (a journal a stop flushed resumes exactly: ASoftCpuTimeLimitFlushesTheJournal).
TEST_F(FaultTest, EveryStopSignalFlushesTheJournal) {
  for (const int sig : {SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU}) {
    const std::string name = sig == SIGHUP    ? "SIGHUP"
                             : sig == SIGQUIT ? "SIGQUIT"
                             : sig == SIGUSR1 ? "SIGUSR1"
                             : sig == SIGUSR2 ? "SIGUSR2"
                                              : "SIGXCPU";
    SCOPED_TRACE(name);
    const std::string j = path(name + ".ckpt");
    // A count of minutes on any machine, in any build: still running after
    // the wait, however fast the machine.
    child c(endless_count({"--checkpoint", j, "--checkpoint-interval", "600"}));
    ASSERT_TRUE(wait_for_size(j, 63, c));
    // CPU time, not wall time: subproblems have finished (none flushed, the
    // interval is 600 s) however loaded the machine.
    ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 2.0));
    c.signal(sig);
    const finished r = c.wait();
    EXPECT_EQ(r.status, 128 + sig) << r.err;
    EXPECT_NE(r.err.find("interrupted by " + name + " after "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("resume from '" + j + "'"), std::string::npos) << r.err;
    EXPECT_GT(fs::file_size(j), 64u) << "nothing was flushed";
  }
}

// A real CPU-time limit, not a SIGXCPU sent by hand: a soft limit under the
// hard one (`ulimit -S -t`; bash's `ulimit -t` sets both, and the kernel's
// SIGKILL at the hard limit then comes with the SIGXCPU) stops the count
// with its journal flushed, exit 152, and the journal resumes exactly.
TEST_F(FaultTest, ASoftCpuTimeLimitFlushesTheJournal) {
#ifdef NQUEENS_SANITIZED
  const int n = 17;
  const std::string total = "95815104";
  const std::string engine = " --engine symmetric";  // 7 CPU-seconds under ASan
#else
  const int n = long_n;
  const std::string total = long_total;
  const std::string engine;
#endif
  const std::string j = path("cpu-limit.ckpt");
  const finished r = run({"/bin/sh", "-c",
                          "ulimit -S -t 1 && exec " + nq + " count " + std::to_string(n) + engine +
                              " --threads 2 --checkpoint " + j + " --checkpoint-interval 600"},
                         {}, 120);
  EXPECT_EQ(r.status, 128 + SIGXCPU) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGXCPU after "), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(j), 64u) << "nothing was flushed";
  expect_resumes_to(j, n, total,
                    engine.empty() ? std::vector<std::string>{} : std::vector<std::string>{"--engine", "symmetric"});
}

// Two signals sent together (a scheduler, a process-group kill, a wrapper
// that forwards what it gets) are one request: the second, within a second
// of the first, must not end the run before the first's stop has flushed the
// journal. Two different signals, since a second SIGTERM sent while the first
// is still pending merges with it; sent back to back, the second came before
// the flush and the run left with the journal's header alone.
TEST_F(FaultTest, TwoSignalsSentTogetherStillFlushTheJournal) {
#ifdef NQUEENS_SANITIZED_THREAD
  GTEST_SKIP() << "TSan defers a signal until its thread enters a call it intercepts: two sent together may reach "
                  "their handlers seconds apart, as a repeat";
#endif
  const std::string j = path("twice.ckpt");
  child c(endless_count({"--checkpoint", j, "--checkpoint-interval", "600"}));  // minutes on any machine
  ASSERT_TRUE(wait_for_size(j, 63, c));
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 2.0));  // finished, none flushed (600 s)
  c.signal(SIGINT);
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  // Either may be handled first: each may go to another of the run's threads.
  ASSERT_TRUE(r.status == 128 + SIGINT || r.status == 128 + SIGTERM) << r.status << ": " << r.err;
  const std::string first = r.status == 128 + SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_NE(r.err.find("interrupted by " + first + " after "), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(j), 64u) << "nothing was flushed";
}

// `rotational` on the largest boards stops within a second too: its
// subproblems are looked at between, and at n = 32 each took seconds.
TEST_F(FaultTest, RotationalStopsAtOnceOnTheLargestBoard) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "sanitized, each of its subproblems takes 10-50 times longer";
#endif
  child c({nq, "rotational", "32", "--threads", "2", "--no-progress"});
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 2.0));  // past its plan, both threads inside subproblems
  const double cpu_before = cpu_seconds_of(c.pid());
  c.signal(SIGINT);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_NE(r.err.find("nqueens: interrupted by SIGINT after "), std::string::npos) << r.err;
  // CPU time, which a loaded machine does not stretch: two threads.
  EXPECT_LT(r.cpu_seconds - cpu_before, 2.0 * sanitizer_cpu_factor) << "the subproblems under way ran on";
}

// A shard's stop counts the shard's subproblems, not the plan's: "after 1936
// of 11023" for a shard of 5 512 read as most of the work still to do. The
// signal comes once the shard has counted for a while (CPU time), not while
// its run starts up.
TEST_F(FaultTest, AShardsStopCountsTheShardsSubproblems) {
  // The symmetric engine's Q(20): a shard of minutes in any build, on any
  // machine (Q(17)'s shard, 2.3 CPU-seconds under ASan, was near the wait).
  const std::string n = "20";
  const double cpu_before_signal = 0.5;
  const finished planned = run({nq, "plan", n, "--engine", "symmetric", "--json"});
  ASSERT_EQ(planned.status, 0) << planned.err;
  const std::size_t at = planned.out.find("\"subproblems\":");
  ASSERT_NE(at, std::string::npos) << planned.out;
  const unsigned long long in_plan = std::stoull(planned.out.substr(at + 14));
  const std::string j = path("shard.ckpt");
  child c({nq, "count", n, "--engine", "symmetric", "--shard", "1/3", "--threads", "2", "--checkpoint", j});
  ASSERT_TRUE(wait_for_size(j, 63, c));
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), cpu_before_signal));
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  ASSERT_EQ(r.status, 128 + SIGTERM) << r.err;
  const std::string of = " of shard 1/3's ";
  const std::size_t shard_at = r.err.find(of);
  ASSERT_NE(shard_at, std::string::npos) << r.err;
  const unsigned long long in_shard = std::stoull(r.err.substr(shard_at + of.size()));
  EXPECT_GT(in_shard, 0U) << r.err;
  EXPECT_LT(in_shard, in_plan) << r.err;
  EXPECT_NE(r.err.find(std::to_string(in_shard) + " subproblems; run the same command again"), std::string::npos)
      << r.err;
}

// The stop's line names the journal as every message names what the user
// typed: a line break or an escape in its path is shown escaped, on one line.
// The stop comes once a record is written: counting has begun, and the
// journal is kept (one made by a run stopped before it counted is not).
TEST_F(FaultTest, AStopNamesItsJournalOnOneLine) {
  const std::string j = path("q\n\x1b[2Jx.ckpt");
  child c(endless_count({"--checkpoint", j, "--checkpoint-interval", "0.05"}));
  ASSERT_TRUE(wait_for_size(j, 64, c));
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("q\\x0a\\x1b[2Jx.ckpt"), std::string::npos) << r.err;
}

// The commands that keep no journal answer a stop too, in one line on
// stderr that says how far they got, and exit 128 + signal: verify (its rows
// so far kept, no partial JSON object), list, plan --stats and --estimate.
TEST_F(FaultTest, CommandsWithoutAJournalSayWhereAStopFoundThem) {
  struct stopped_command {
    std::vector<std::string> args;
    std::string says;
  };
  // Work of minutes on two threads in any build, so that a machine of many
  // or fast cores is still at it when the stop comes.
  const std::vector<stopped_command> commands = {
      {{"verify", "--from", "20", "--to", "21", "--engine", "symmetric", "--threads", "2", "--json"},
       "while counting Q(20), the first; none was checked"},
      {{"list", "18", "--threads", "2"}, " solutions were written"},
      {{"list", "19", "--unique", "--threads", "2"}, " classes were written"},
      {{"plan", "20", "--engine", "symmetric", "--stats", "--threads", "2"},
       "while --stats timed the subproblems; nothing is reported"},
      {{"plan", "24", "--engine", "symmetric", "--estimate", "--estimate-seconds", "60"},
       "while --estimate sampled the subproblems; no estimate is printed"},
  };
  for (const stopped_command& command : commands) {
    std::vector<std::string> argv = {nq};
    argv.insert(argv.end(), command.args.begin(), command.args.end());
    SCOPED_TRACE(argv[1] + " " + argv[2]);
    child c(argv, {.stdout_path = "/dev/null"});
    // Past start-up (--stats past its plan, verify past its plans' checks,
    // which took 0.3 CPU-seconds and more under TSan): each takes seconds more.
    ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), argv[1] == "list" ? 0.3 : 2.0));
    c.signal(SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
    EXPECT_EQ(r.err.rfind("nqueens: interrupted by SIGTERM ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(command.says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// A stop ends the subproblems under way too, within a second whatever they
// cost: subproblems of up to 15 s (n = 19, split depth 1) and a 600 s flush
// interval, then a SIGTERM. The finished ones are in the journal, the
// cancelled ones are not (the report's count is the journal's).
TEST_F(FaultTest, StopEndsTheRunningSubproblemsAndSavesTheFinishedOnes) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "minutes when sanitized";
#endif
  const std::string j = path("term.ckpt");
  child c({nq, "count", "19", "--engine", "symmetric", "--split-depth", "1", "--threads", "2", "--checkpoint", j,
           "--checkpoint-interval", "600"});
  ASSERT_TRUE(wait_for_size(j, 63, c));
  // Some subproblems finished, none flushed yet (the interval is 600 s), and
  // both threads are inside subproblems of seconds.
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 4));
  EXPECT_EQ(fs::file_size(j), 64u);
  const double cpu_before = cpu_seconds_of(c.pid());
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  // CPU time, not wall time, so that a loaded machine does not stretch it:
  // the two threads had seconds of their subproblems left.
  EXPECT_LT(r.cpu_seconds - cpu_before, 2.0 * sanitizer_cpu_factor) << "the running subproblems were not stopped";
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM after "), std::string::npos) << r.err;
  const std::uintmax_t records = (fs::file_size(j) - 64) / 48;
  EXPECT_GT(records, 0u) << "nothing was saved";
  EXPECT_NE(r.err.find("after " + std::to_string(records) + " of "), std::string::npos)
      << records << " records: " << r.err;
}

// SIGHUP ignored when the tool started (nohup) stays ignored: the count
// goes on; SIGTERM still stops it.
TEST_F(FaultTest, SignalIgnoredAtStartStaysIgnored) {
  const std::string j = path("nohup.ckpt");
  std::string command = "trap '' HUP; exec";
  for (const std::string& word : endless_count({"--checkpoint", j, "--checkpoint-interval", "0.05"})) {
    command += " '" + word + "'";
  }
  child c({"/bin/sh", "-c", command});
  ASSERT_TRUE(wait_for_size(j, 64, c));  // a record: counting has begun
  c.signal(SIGHUP);
  // Still counting: the journal grows twice after the signal, flush after
  // flush (a stop flushes once and ends; a slow one must not pass for
  // going on).
  const std::uintmax_t at_signal = fs::file_size(j);
  ASSERT_TRUE(wait_for_size(j, at_signal, c)) << "SIGHUP, ignored by the caller, stopped the count";
  ASSERT_TRUE(wait_for_size(j, fs::file_size(j), c)) << "SIGHUP, ignored by the caller, stopped the count";
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM after "), std::string::npos) << r.err;
}

// A shell without job control starts its background jobs with SIGINT
// and SIGQUIT ignored, yet a script's `kill -INT $pid` means stop: the count
// stops, its journal flushed, and says so (exit 130). Only SIGHUP, as nohup
// leaves it, stays ignored.
TEST_F(FaultTest, SigintIgnoredAtStartStillStops) {
  const std::string j = path("background.ckpt");
  std::string command = "trap '' INT QUIT; exec";
  for (const std::string& word : endless_count({"--checkpoint", j, "--checkpoint-interval", "0.05"})) {
    command += " '" + word + "'";
  }
  child c({"/bin/sh", "-c", command});
  ASSERT_TRUE(wait_for_size(j, 64, c));  // a record: counting has begun
  c.signal(SIGINT);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 128 + SIGINT) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGINT after "), std::string::npos) << r.err;
}

// Started with the stop signals blocked (a job runner's or a process
// manager's mask, kept through exec), the tool still hears them: SIGTERM
// did nothing, and the count ran on to its end.
TEST_F(FaultTest, StopSignalsBlockedAtStartAreHeard) {
  const std::string j = path("blocked.ckpt");
  sigset_t stops, before;
  sigemptyset(&stops);
  for (const int sig : {SIGINT, SIGTERM}) sigaddset(&stops, sig);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &stops, &before), 0);
  std::optional<child> c;
  c.emplace(endless_count({"--checkpoint", j, "--checkpoint-interval", "0.05"}));  // inherits the mask
  ASSERT_EQ(::pthread_sigmask(SIG_SETMASK, &before, nullptr), 0);
  ASSERT_TRUE(wait_for_size(j, 64, *c));  // a record: counting has begun
  c->signal(SIGTERM);
  const finished r = c->wait(60);
  EXPECT_EQ(r.status, 128 + SIGTERM) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGTERM after "), std::string::npos) << r.err;
}

// A stop while the tables are built ends the run at once, said as one
// before counting began, the journal as it was: the one this run made,
// which holds no work, is taken away again.
TEST_F(FaultTest, TableBuildStopsOnSignal) {
  const std::string j = path("tables.ckpt");
  // n = 22: the quarter tables (1.9 GiB) take 6 CPU-seconds to build, the
  // plan well under one; on two threads whatever the machine's cores. The
  // bound lets the whole tables be built on a machine whose default (half
  // its memory) would not, where the count builds none and never grows.
  child c({nq, "count", "22", "--engine", "quadrant", "--threads", "2", "--max-memory", "4G", "--checkpoint", j});
  ASSERT_TRUE(wait_for_size(j, 63, c));  // the journal exists: planning is over
  // Tables under way: 256 MiB of them resident, most still to come; given
  // up on after far more CPU time than the whole build takes.
  constexpr std::uint64_t under_way = std::uint64_t{256} << 20;
  while (c.running() && resident_bytes_of(c.pid()) < under_way && cpu_seconds_of(c.pid()) < 60) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(c.running()) << "the count ended before its tables were built";
  ASSERT_GE(resident_bytes_of(c.pid()), under_way) << "no tables built in 60 CPU-seconds";
  const double cpu_before = cpu_seconds_of(c.pid());
  c.signal(SIGINT);
  const finished r = c.wait();
  EXPECT_EQ(r.status, 130) << r.err;
  // Said as for a stop while the plan is built: no subproblem had begun,
  // and there is no journal to resume from.
  EXPECT_NE(r.err.find("interrupted by SIGINT before counting began; nothing was counted\n"), std::string::npos)
      << r.err;
  // CPU time from the signal on, which a loaded machine does not stretch:
  // the build had many CPU-seconds left.
  EXPECT_LT(r.cpu_seconds - cpu_before, 2.0 * sanitizer_cpu_factor) << "the table build did not stop";
  EXPECT_FALSE(fs::exists(j)) << "the journal made for the run, its header alone, was left";
}

// A run that opened a journal and waited for its lock while the run holding
// it removed it (it made it, and was stopped before it counted) does not
// take the removed file, where it would count what no resume finds: it
// makes the journal anew. The flock gate holds the second run between its
// open and its lock while the first is stopped.
TEST_F(FaultTest, AJournalRemovedWhileAnotherRunWaitedToLockItIsMadeAnew) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "two table builds of n = 22, minutes when sanitized";
#endif
  const std::string j = path("taken.ckpt"), gate = path("gate"), waiting = path("waiting");
  const std::vector<std::string> args = {nq,  "count",        "22", "--engine",     "quadrant", "--threads",
                                         "1", "--max-memory", "4G", "--checkpoint", j};
  child first(args);
  ASSERT_TRUE(wait_for_size(j, 63, first));  // planned: the tables are being built, for seconds
  child second(args, {.env = {std::string("LD_PRELOAD=") + NQUEENS_FLOCK_GATE_PATH, "NQUEENS_FLOCK_GATE=" + gate,
                              "NQUEENS_FLOCK_WAITING=" + waiting}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(waiting) && second.running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(fs::exists(waiting)) << "the second run never came to lock its journal";
  first.signal(SIGINT);
  const finished a = first.wait(60);
  EXPECT_EQ(a.status, 130) << a.err;
  if (a.err.find("before counting began") == std::string::npos) {
    second.signal(SIGKILL);
    GTEST_SKIP() << "the first run began counting before its stop, and kept its journal: " << a.err;
  }
  ASSERT_FALSE(fs::exists(j)) << "the first run kept the journal it made";
  std::ofstream(gate).close();  // the second run locks what it opened: the removed file
  EXPECT_TRUE(wait_for_size(j, 63, second)) << "the second run took the removed journal and made none";
  second.signal(SIGINT);
  const finished b = second.wait(60);
  EXPECT_EQ(b.status, 130) << b.err;
  EXPECT_EQ(b.err.find("in use"), std::string::npos) << b.err;
}

// `plan`, `count` and `scale` choose the engine and build the plan (n = 28:
// about 0.85 CPU-seconds in all on a Zen 5 core) before anything else: a
// stop signal in either is answered with the usual line and 128 + the
// signal, never the default action's silent end (for `plan`, --estimate and
// the plain form alike).
TEST_F(FaultTest, SignalWhileTheEngineIsChosenOrThePlanBuiltIsAnswered) {
  // scale's CSV, a new file: the stop says it was not written (not "left as it was"), and none is.
  const std::string csv = path("new.csv");
  const std::vector<std::vector<std::string>> commands = {
      {"plan", "28", "--estimate"}, {"plan", "28"}, {"count", "28"}, {"scale", "28", "--threads", "1", "--csv", csv}};
  for (const std::vector<std::string>& command : commands) {
    std::vector<std::string> argv = {nq};
    argv.insert(argv.end(), command.begin(), command.end());
    SCOPED_TRACE(command[0] + " " + (command.size() > 2 ? command[2] : ""));
    child c(argv);
    ASSERT_TRUE(wait_for_cpu_seconds(
        c, c.pid(), 0.05 * sanitizer_cpu_factor));  // choosing or planning: past start-up, far from done
    c.signal(SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << r.err;
    const std::string said = command[0] == "scale" ? "nqueens: interrupted by SIGTERM before any row was printed"
                                                   : "nqueens: interrupted by SIGTERM before counting began";
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    if (command[0] == "scale") {
      EXPECT_NE(r.err.find(csv + " not written"), std::string::npos) << r.err;
      EXPECT_FALSE(std::filesystem::exists(csv));
    }
  }
}

// A row engine's plan split deep (n = 14 at depth 12: 2.3 million
// prefixes, most of a second of splitting) hears a stop signal between
// blocks of prefixes, not only once the plan is whole: the engine's own,
// and the one --engine auto builds to price it (a row engine's at n = 14).
TEST_F(FaultTest, SignalWhileARowPlanIsSplitIsAnsweredAtOnce) {
  for (const char* engine : {"mirror", "auto"}) {
    SCOPED_TRACE(engine);
    child c({nq, "count", "14", "--engine", engine, "--split-depth", "12", "--threads", "1"});
    ASSERT_TRUE(
        wait_for_cpu_seconds(c, c.pid(), 0.05 * sanitizer_cpu_factor));  // splitting: past start-up, far from done
    const double cpu_before = cpu_seconds_of(c.pid());
    c.signal(SIGTERM);
    const finished r = c.wait(60);
    EXPECT_LT(r.cpu_seconds - cpu_before, 0.3 * sanitizer_cpu_factor);  // CPU time: no load stretches it
    EXPECT_EQ(r.status, 143) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGTERM before counting began"), std::string::npos) << r.err;
  }
}

// merge rebuilds the plan each shard file names (n = 28 at split depth 12:
// 1.4 CPU-seconds on a Zen 5 core): a stop signal then is answered as every command
// answers it, one line and 128 + the signal, not left to end the process
// without a word (nor ignored, as SIGINT is in a script's background job
// where no handler is installed).
TEST_F(FaultTest, SignalWhileMergeRebuildsThePlanIsAnswered) {
  const std::string small = path("small.json"), large = path("large.json");
  ASSERT_EQ(run({nq, "count", "8", "--shard", "0/2", "--json"}, {.stdout_path = small}).status, 0);
  std::string text = bytes_of(small);
  const auto set = [&text](const std::string& key, const std::string& value) { set_json_field(text, key, value); };
  set("n", "28");
  set("engine", "\"quadrant\"");
  set("split_depth", "12");
  write(large, resigned(text));
  for (const int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    child c({nq, "merge", large});
    ASSERT_TRUE(
        wait_for_cpu_seconds(c, c.pid(), 0.05 * sanitizer_cpu_factor));  // planning: past start-up, far from done
    c.signal(sig);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 128 + sig) << r.err;
    EXPECT_NE(r.err.find("nqueens: interrupted by"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was merged"), std::string::npos) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// A pipe whose write end is full: a process that writes to it waits for a
// reader that never comes (a paused pager, `| sleep`), as long as the read
// end, kept here, is open. Both ends close-on-exec: the child's stdout is
// its own copy.
struct full_pipe {
  int read_end = -1, write_end = -1;
  full_pipe() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    read_end = ends[0];
    write_end = ends[1];
    const int flags = ::fcntl(write_end, F_GETFL);
    ::fcntl(write_end, F_SETFL, flags | O_NONBLOCK);  // filled until it would wait
    const std::string block(4096, 'x');
    while (::write(write_end, block.data(), block.size()) > 0) {
    }
    ::fcntl(write_end, F_SETFL, flags);  // the child's stdout waits, as a real one does
  }
  ~full_pipe() {
    ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  full_pipe(const full_pipe&) = delete;
  full_pipe& operator=(const full_pipe&) = delete;
};

// A stop ends the process though stderr is a full pipe that nobody reads:
// the journal is flushed, and the report, which that stderr does not take
// within its grace, is dropped. Its plain write held the process until a
// second signal or SIGKILL (a scheduler's, after its grace: exit 137).
TEST_F(FaultTest, AStopEndsTheProcessThoughStderrIsFull) {
  const std::string j = path("full-stderr.ckpt");
  full_pipe err;
  child c(
      {nq, "count", "19", "--engine", "symmetric", "--threads", "1", "--checkpoint", j, "--checkpoint-interval", "600"},
      {.stderr_fd = err.write_end});
  ASSERT_TRUE(wait_for_size(j, 63, c));
  ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 0.5));  // counting, none flushed (600 s)
  c.signal(SIGINT);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 130) << "-1: the stop waited on stderr";
  EXPECT_GT(fs::file_size(j), 64u) << "nothing was flushed";
  ::fcntl(err.read_end, F_SETFL, ::fcntl(err.read_end, F_GETFL) | O_NONBLOCK);
  std::string held;
  char buffer[4096];
  for (ssize_t got; (got = ::read(err.read_end, buffer, sizeof buffer)) > 0;) held.append(buffer, buffer + got);
  EXPECT_EQ(held.find_first_not_of('x'), std::string::npos) << held;
}

// The progress line never holds up the count: on a stderr that takes
// nothing, it is dropped after a short wait, and the result comes (the
// count's end waited on it for good).
TEST_F(FaultTest, AProgressLineThatStderrDoesNotTakeHoldsNothingUp) {
  const std::vector<std::vector<std::string>> commands = {{"count", "12", "--progress"},
                                                          {"verify", "--to", "8", "--progress"},
                                                          {"rotational", "12", "--progress"},
                                                          {"plan", "12", "--stats", "--progress"}};
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command[0]);
    std::vector<std::string> argv = {nq};
    argv.insert(argv.end(), command.begin(), command.end());
    full_pipe err;
    const finished r = child(argv, {.stderr_fd = err.write_end}).wait(60);
    EXPECT_EQ(r.status, 0) << "-1: it waited on stderr";
    EXPECT_NE(r.out.find(command[0] == "verify" ? "counts match the published values" : "verified"), std::string::npos)
        << r.out;
  }
}

// A stop signal while the output waits on a reader that takes nothing ends
// the wait at once: the line, 128 + the signal, for output through stdio
// (count, plan, rotational, verify's rows as they come), through the
// commands' own buffer (list, first) and in every phase (first, whose
// board takes a while to build, answers too). With the handlers' restarted
// write it waited for the reader (until the deadline here).
TEST_F(FaultTest, AStopEndsAWaitForAReaderThatTakesNothing) {
  const std::vector<std::vector<std::string>> commands = {
      {"count", "8", "--no-progress"}, {"plan", "12"}, {"rotational", "10", "--no-progress"},
      {"verify", "--to", "6"},         {"list", "12"}, {"first", "100000000"}};
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command[0]);
    std::vector<std::string> argv = {nq};
    argv.insert(argv.end(), command.begin(), command.end());
#ifdef NQUEENS_SANITIZED_THREAD
    // TSan defers a signal the main thread takes inside oneTBB's wait (a
    // futex, not a call it intercepts) until it leaves the wait: never, while
    // a worker waits on the pipe. One thread writes from the main thread.
    if (command[0] == "list") argv.insert(argv.end(), {"--threads", "1"});
#endif
    full_pipe out;
    child c(argv, {.stdout_fd = out.write_end});
    ASSERT_TRUE(wait_until_it_waits(c)) << c.wait(1).err;
    c.signal(SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << r.err;
    EXPECT_NE(r.err.find("nqueens: interrupted by SIGTERM"), std::string::npos) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cut short"), std::string::npos) << r.err;
    // Verify waits with its table's head, before its first count, and says so.
    if (command[0] == "verify") EXPECT_NE(r.err.find("none was checked"), std::string::npos) << r.err;
  }
}

// A stop while list waits on a reader that is slow to take its output (a
// pipe it filled, read later) leaves the reader whole lines: each write
// ends at a line's end, so what was written checks as placements.
TEST_F(FaultTest, AStopLeavesASlowReaderWholeLines) {
  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  child c({nq, "list", "12", "--threads", "1"}, {.stdout_fd = ends[1]});
  ::close(ends[1]);
  ASSERT_TRUE(wait_until_it_waits(c)) << c.wait(1).err;  // the pipe full, the rest waiting
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("found, the output cut short after the last whole line its reader had room for"),
            std::string::npos)
      << r.err;
  std::string taken;
  char buffer[4096];
  for (ssize_t got; (got = ::read(ends[0], buffer, sizeof buffer)) > 0;) taken.append(buffer, buffer + got);
  ::close(ends[0]);
  ASSERT_FALSE(taken.empty());
  EXPECT_EQ(taken.back(), '\n') << taken.substr(taken.size() - std::min<std::size_t>(taken.size(), 80));
  const std::string kept = path("taken.txt");
  write(kept, taken);
  const finished checked = run({"sh", "-c", "\"$0\" check < \"$1\"", nq, kept});
  EXPECT_EQ(checked.status, 0) << checked.out.substr(0, 300) << checked.err;
}

// A slow listing (large n: seconds between solutions) reaches its reader
// as it comes, not once a megabyte of it is buffered: the first solutions
// of n = 32 arrive while the search goes on (it is then stopped).
TEST_F(FaultTest, ASlowListingReachesItsReaderAsItComes) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "sanitized, the first solutions of n = 32 take minutes";
#endif
  const std::string out = path("slow.txt");
  child c({nq, "list", "32", "--threads", "1"}, {.stdout_path = out});
  const auto written = [&out] {
    std::error_code absent;  // not yet made: nothing written
    const std::uintmax_t size = fs::file_size(out, absent);
    return absent ? std::uintmax_t{0} : size;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (c.running() && written() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(c.running()) << "list 32 ended";
  EXPECT_GT(written(), 0u) << "nothing written within 300 s";
  c.signal(SIGTERM);
  EXPECT_EQ(c.wait(60).status, 143);
  const std::string first = bytes_of(out).substr(0, bytes_of(out).find('\n'));
  const finished checked = run({nq, "check", first});
  EXPECT_EQ(checked.status, 0) << first << checked.out << checked.err;
}

// Into a file a write never waits, yet a stop ends a long output at its next
// block all the same: `first` of 5 * 10^7 queens (490 MB) stopped once it
// has begun writing leaves the file short, "cut short", not whole seconds
// later.
TEST_F(FaultTest, AStopEndsALongOutputIntoAFile) {
  const std::string file = path("first.out");
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  child c({nq, "first", "50000000"}, {.stdout_fd = fd});
  ::close(fd);
  const bool writing = wait_for_size(file, 1 << 20, c);
  if (writing) c.signal(SIGTERM);
  const finished r = c.wait(60);
  ASSERT_TRUE(writing) << r.err;
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("while writing the output, which is cut short"), std::string::npos) << r.err;
  EXPECT_LT(fs::file_size(file), 488888891u);  // the whole line: 50000000 numbers, their spaces, a newline
}

// Runs `argv` with standard input a pipe that holds `sent` and never ends
// (its write end kept open until the process is gone), sends `sig` once
// every thread of it waits, and says whether it did wait, and how it ended.
std::pair<bool, finished> signalled_reading_a_pipe(const std::vector<std::string>& argv, const std::string& sent,
                                                   int sig) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return {false, {.err = "no pipe"}};
  if (::write(ends[1], sent.data(), sent.size()) != static_cast<ssize_t>(sent.size())) {
    ::close(ends[0]);
    ::close(ends[1]);
    return {false, {.err = "the pipe took less than it was given"}};
  }
  child c(argv, {.stdin_fd = ends[0]});
  ::close(ends[0]);
  const bool waits = wait_until_it_waits(c);
  if (waits) c.signal(sig);
  finished r = c.wait(60);
  ::close(ends[1]);
  return {waits, std::move(r)};
}

// `check` reading standard input from a writer that stops writing (`sleep
// 30 | nqueens check`) is stopped the same way, having checked the whole
// lines it had; the start of a line the stop cut ("1 3" of "1 3 0 2") is
// no placement, never checked (as one it would be refused: exit 2).
TEST_F(FaultTest, AStopEndsCheckWaitingOnItsInput) {
  const auto [waits, r] = signalled_reading_a_pipe({nq, "check"}, "1 3 0 2\n1 3", SIGTERM);
  ASSERT_TRUE(waits) << r.err;
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("nqueens: interrupted by SIGTERM after 1 placement was checked"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
}

// `check` reading a file, whose input never makes it wait, still stops at
// a signal: each read looks at the stop first, not only a read that would
// wait (one that did read the whole 64 MB before it noticed). Frozen
// (SIGSTOP) with input left unread, told, and resumed, it must read no
// further.
TEST_F(FaultTest, AStopEndsCheckReadingAFile) {
  const std::string input = path("many.txt");
  constexpr std::size_t lines = 8'000'000;
  {
    std::string block;
    for (int i = 0; i < 1000; ++i) block += "1 3 0 2\n";
    std::ofstream many(input);
    for (std::size_t i = 0; i < lines / 1000; ++i) many << block;
    ASSERT_TRUE(many.flush()) << input;
  }
  const int in = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(in, 0) << input;
  child c({nq, "check"}, {.stdin_fd = in});
  ::close(in);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (c.running() && !catches(c.pid(), SIGTERM) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  c.signal(SIGSTOP);
  char state = c.state();
  while (state != 'T' && state != 'Z' && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    state = c.state();
  }
  // Where it is: the offset of its standard input.
  std::ifstream fdinfo("/proc/" + std::to_string(c.pid()) + "/fdinfo/0");
  std::string key;
  std::uint64_t read_to = 0;
  while (fdinfo >> key && key != "pos:") {
  }
  fdinfo >> read_to;
  // Half the file left: its handler may run on a thread other than the
  // reader's, which has 32 MB to read before a late flag could go unheard.
  const bool unread = state == 'T' && fdinfo && read_to < fs::file_size(input) / 2;
  c.signal(SIGTERM);
  c.signal(SIGCONT);
  const finished r = c.wait(60);
  if (!unread) GTEST_SKIP() << "check had read half the file before it was frozen";
  EXPECT_EQ(r.status, 143) << r.err;
  const std::string said = "nqueens: interrupted by SIGTERM after ";
  ASSERT_EQ(r.err.rfind(said, 0), 0U) << r.err;
  EXPECT_LT(std::stoull(r.err.substr(said.size())), lines) << r.err;
}

// `check` whose verdicts wait on a reader that takes nothing (`nqueens
// check < bad | less`, Ctrl-C, which less ignores) is stopped too: the
// message of the stop flushed std::cout first, through stdio's plain
// write, which waited on the reader for good.
TEST_F(FaultTest, AStopEndsCheckWaitingOnItsReader) {
  const std::string input = path("attacks.txt");
  {
    std::ofstream attacks(input);
    for (int i = 0; i < 200000; ++i) attacks << "0 1\n";  // each a verdict of two lines
    ASSERT_TRUE(attacks.flush()) << input;
  }
  const int in = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(in, 0) << input;
  full_pipe out;
  child c({nq, "check"}, {.stdin_fd = in, .stdout_fd = out.write_end});
  ::close(in);
  ASSERT_TRUE(wait_until_it_waits(c)) << c.wait(1).err;
  c.signal(SIGTERM);
  const finished r = c.wait(60);
  EXPECT_EQ(r.status, 143) << "-1: the stop waited on the reader";
  EXPECT_NE(r.err.find("nqueens: interrupted by SIGTERM after "), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
}

// `merge` given a FIFO no one writes to yet (once a wait in open()), or a
// pipe that never ends (`sleep 60 | nqueens merge part.json /dev/stdin`),
// is stopped by the first signal, as `check` is: the handlers restart a
// plain open() or read(), and only a second signal used to end it.
TEST_F(FaultTest, AStopEndsMergeWaitingForAShardsWriter) {
  const std::string part = path("part0.json");
  ASSERT_EQ(run({nq, "count", "10", "--shard", "0/2", "--json"}, {.stdout_path = part}).status, 0);
  const std::string fifo = path("part1.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    child c({nq, "merge", part, fifo});
    const bool waits = wait_until_it_waits(c);
    if (waits) c.signal(SIGINT);
    const finished r = c.wait(60);
    ASSERT_TRUE(waits) << r.err;
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_NE(r.err.find("nqueens: interrupted by SIGINT before the shards were added up"), std::string::npos) << r.err;
    EXPECT_EQ(lines_in(r.err), 1) << r.err;
  }
  const auto [waits, r] = signalled_reading_a_pipe({nq, "merge", part, "/dev/stdin"}, "", SIGTERM);
  ASSERT_TRUE(waits) << r.err;
  EXPECT_EQ(r.status, 143) << r.err;
  EXPECT_NE(r.err.find("nqueens: interrupted by SIGTERM before the shards were added up"), std::string::npos) << r.err;
}

// A signal while a large plan is built (n = 25 with 12
// slices: 2 * 10^8 subproblems, seconds of fingerprinting), or while the run
// lists what it has to count, is answered within a second: exit 130, nothing
// counted, no more memory taken, and no journal: the one the run made
// while it listed holds no work, and is taken away again.
TEST_F(FaultTest, SignalWhilePlanningOrListingIsAnsweredAtOnce) {
  const std::string j = path("plan.ckpt");
  const std::vector<std::string> argv = {nq,   "count",        "25", "--engine", "quadrant", "--split-depth",
                                         "12", "--checkpoint", j};
  const auto interrupt = [](child& c) {
    const double cpu_before = cpu_seconds_of(c.pid());
    c.signal(SIGINT);
    finished r = c.wait(120);                                           // returned: not const, so that it moves
    EXPECT_LT(r.cpu_seconds - cpu_before, 1.0 * sanitizer_cpu_factor);  // CPU time: no load stretches it
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_NE(r.err.find("interrupted by SIGINT before counting began"), std::string::npos) << r.err;
    return r;
  };
  {
    child c(argv);
    // Planning: past start-up (the handlers in place), far from done (the
    // fingerprint takes seconds of CPU).
    ASSERT_TRUE(wait_for_cpu_seconds(c, c.pid(), 0.3));
    const finished r = interrupt(c);
#ifndef NQUEENS_SANITIZED  // the sanitizers' shadow memory is not the tool's
    EXPECT_LT(r.max_rss_kib, 256L * 1024) << "planning took memory it did not need";
#endif
    EXPECT_FALSE(fs::exists(j));
  }
#ifndef NQUEENS_SANITIZED  // the same polls, minutes of planning when sanitized
  child c(argv);
  ASSERT_TRUE(wait_for_size(j, 63, c, 600));  // planned (seconds of CPU): the journal exists, the list is being built
  interrupt(c);
  EXPECT_FALSE(fs::exists(j)) << "the journal made for the run, its header alone, was left";
#endif
}

}  // namespace
}  // namespace nqueens::test
