// The fault-injection suite of nqueens-mpi (src/mpi): jobs of 1, 2 and 3
// ranks under mpirun, each under a deadline, whose ranks disagree, refuse,
// die, are signalled or lose their launcher; each must end with the exact
// count or the documented exit status, rank 0's journal valid.

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/stack_limit.hpp"
#include "support/fault_fixture.hpp"
#include "support/process.hpp"

namespace nqueens::test {
namespace {

// Running a finished MPI job again reports the journal, never appends.
// With workers too: with nothing to do, rank 0 must still release
// them, or the job hangs in MPI_Finalize.
TEST_F(FaultTest, FinishedMpiJournalIsNotAppendedTo) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("m" + std::to_string(ranks) + ".ckpt");
    ASSERT_EQ(run(mpi_job(ranks, {"8", "--checkpoint", j}), {mpi_env}, 60).status, 0);
    const std::string first = bytes_of(j);
    for (int again = 0; again < 2; ++again) {
      const finished r = run(mpi_job(ranks, {"8", "--checkpoint", j}), {mpi_env}, 60);
      ASSERT_EQ(r.status, 0) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.out.find("Q(8) = 92  verified"), std::string::npos) << r.out;
      EXPECT_EQ(bytes_of(j), first);
    }
    const finished r = run({nq, "count", "8", "--checkpoint", j});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("resumed: 16 of 16"), std::string::npos) << r.out;
  }
  // A finished job's journal is read by nqueens count under a bound its
  // tables would pass (quadrant, 64 threads: far more than 1 MiB).
  const std::string j = path("mq.ckpt");
  ASSERT_EQ(run(mpi_job(2, {"14", "--engine", "quadrant", "--checkpoint", j}), {mpi_env}, 60).status, 0);
  const finished r =
      run({nq, "count", "14", "--engine", "quadrant", "--threads", "64", "--max-memory", "1M", "--checkpoint", j});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Q(14) = 365596  verified"), std::string::npos) << r.out;
}

// Open MPI binds each rank of a job of 1 or 2 ranks to one core, so that one
// rank on a node counts on one of its cores: rank 0 says so before the
// count, on stderr, and says nothing where the launcher left it its CPUs.
TEST_F(FaultTest, ARankBoundToFewerCpusThanItsShareIsWarned) {
  SKIP_WITHOUT_MPI();
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2) {
    GTEST_SKIP() << "one CPU: a rank bound to it has its whole share";
  }
  const std::string warning = "nqueens-mpi: warning: this rank may run on 1 of the ";
  const finished bound = run({mpirun, "-x", test_tag(), "--bind-to", "core", "-np", "1", mpi, "12"}, {mpi_env}, 60);
  if (bound.out.find("MPI: 1 rank x 1 thread") == std::string::npos) {
    GTEST_SKIP() << "mpirun did not bind the rank to one CPU here: " << bound.out << bound.err;
  }
  EXPECT_EQ(bound.status, 0) << bound.err;
  EXPECT_NE(bound.err.find(warning), std::string::npos) << bound.err;
  EXPECT_NE(bound.err.find("give mpirun --bind-to none to count on them all"), std::string::npos) << bound.err;
  const finished free = run({mpirun, "-x", test_tag(), "--bind-to", "none", "-np", "1", mpi, "12"}, {mpi_env}, 60);
  EXPECT_EQ(free.status, 0) << free.err;
  EXPECT_EQ(free.err.find("warning"), std::string::npos) << free.err;
  // One thread asked for: the binding costs it nothing, and a batch log
  // should not say otherwise on every run.
  const finished one =
      run({mpirun, "-x", test_tag(), "--bind-to", "core", "-np", "1", mpi, "12", "--threads", "1"}, {mpi_env}, 60);
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.err.find("warning"), std::string::npos) << one.err;
}

// The progress of a job counts its ranks, not rank 0's threads alone.
TEST_F(FaultTest, MpiProgressNamesEveryRank) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const finished r = run(mpi_job(ranks, {"12", "--threads", "1", "--progress"}), {mpi_env}, 60);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string label = std::to_string(ranks) + " ranks x 1 thread";
    EXPECT_NE(r.err.find("progress: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("subproblems  " + label + "\n"), std::string::npos) << r.err;
  }
}

// A --max-memory past a rank's machine is warned of by that rank, named:
// the nodes of a job may differ.
TEST_F(FaultTest, EveryRankWarnsOfMemoryPastItsMachine) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    const finished r = run(mpi_job(ranks, {"8", "--max-memory", "16777215T"}), {mpi_env}, 60);
    ASSERT_EQ(r.status, 0) << r.err;
    for (int rank = 0; rank < ranks; ++rank) {
      EXPECT_NE(r.err.find("nqueens-mpi: rank " + std::to_string(rank) +
                           ": warning: --max-memory 16.0 EiB is more than the "),
                std::string::npos)
          << ranks << " ranks: " << r.err;
    }
  }
}

// A journal rank 0 refuses once the ranks agreed (another run's, or a path
// it cannot create) ends the job as a refusal, with 2 and 3 ranks: exit 2,
// the reason in one line, no MPI_Abort, the journal untouched.
TEST_F(FaultTest, JournalRankZeroRefusesEndsTheJobWithoutAnAbort) {
  SKIP_WITHOUT_MPI();
  const std::string j = path("other.ckpt");
  ASSERT_EQ(run({nq, "count", "12", "--engine", "symmetric", "--checkpoint", j}).status, 0);
  const std::string journal = bytes_of(j);
  // A shard's: nqueens-mpi refuses --shard, so it names the count that resumes it.
  const std::string shard_journal = path("shard.ckpt");
  ASSERT_EQ(run({nq, "count", "12", "--engine", "mirror", "--split-depth", "3", "--shard", "1/2", "--checkpoint",
                 shard_journal})
                .status,
            0);
  const std::string shard_bytes = bytes_of(shard_journal);
  struct refusal {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<refusal> refusals = {
      {{"12", "--engine", "mirror", "--checkpoint", j}, "nqueens-mpi: checkpoint '" + j + "' belongs to another run"},
      {{"12", "--checkpoint", path("none") + "/x.ckpt"}, "nqueens-mpi: cannot create checkpoint"},
      {{"12", "--checkpoint", shard_journal},
       "nqueens-mpi: checkpoint '" + shard_journal +
           "' is the journal of shard 1/2 of n = 12: resume it with 'nqueens count 12 --engine mirror --split-depth 3 "
           "--shard 1/2 --checkpoint FILE', not with nqueens-mpi"},
  };
  for (const int ranks : {2, 3}) {
    for (const refusal& case_ : refusals) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, " + case_.says);
      const finished r = run(mpi_job(ranks, case_.args), {mpi_env}, 60);
      EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.err.find(case_.says), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find("MPI_ABORT"), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
  EXPECT_EQ(bytes_of(j), journal);
  EXPECT_EQ(bytes_of(shard_journal), shard_bytes);
  EXPECT_FALSE(fs::exists(path("none")));
}

// Ranks that built different plans end the job before counting: exit 2,
// one line naming both plans, the journal untouched (here: never created,
// then left byte for byte).
TEST_F(FaultTest, RanksWithDifferentPlansRefuse) {
  SKIP_WITHOUT_MPI();
  const std::string symmetric = plan_field({"12", "--engine", "symmetric"}, "plan_fingerprint");
  const std::string quadrant = plan_field({"12", "--engine", "quadrant"}, "plan_fingerprint");
  for (const int agreeing : {1, 2}) {  // 2 and 3 ranks: the last one's plan differs
    SCOPED_TRACE(std::to_string(agreeing + 1) + " ranks");
    const std::string j = path("mx" + std::to_string(agreeing) + ".ckpt");
    std::vector<std::string> argv = mpi_job(agreeing, {"12", "--engine", "quadrant", "--checkpoint", j});
    for (const char* a : {":", "-np", "1"}) argv.push_back(a);
    argv.push_back(mpi);
    for (const char* a : {"12", "--engine", "symmetric"}) argv.push_back(a);
    finished r = run(argv, {mpi_env}, 60);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: rank " + std::to_string(agreeing) + " built plan " + symmetric +
                         " (n = 12, engine symmetric"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("rank 0 plan " + quadrant + " (n = 12, engine quadrant"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(j));
    ASSERT_EQ(run({nq, "count", "12", "--engine", "quadrant", "--checkpoint", j}).status, 0);
    const std::string journal = bytes_of(j);
    r = run(argv, {mpi_env}, 60);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(bytes_of(j), journal);
  }
}

// Every option that shapes the run or what it leaves behind must be the same
// on every rank, or the job is refused naming the rank and the option: a
// worker's own --checkpoint, --threads or --json would otherwise be ignored
// in silence. The JSON says how many ranks ran, with how many threads each.
TEST_F(FaultTest, RanksMustAgreeOnEveryOption) {
  SKIP_WITHOUT_MPI();
  const std::string j = path("mx.ckpt");
  const auto mpmd = [&](int first_ranks, std::vector<std::string> first, std::vector<std::string> last) {
    std::vector<std::string> argv = mpi_job(first_ranks, std::move(first));
    for (const char* a : {":", "-np", "1"}) argv.push_back(a);
    argv.push_back(mpi);
    argv.insert(argv.end(), last.begin(), last.end());
    return argv;
  };
  struct disagreement {
    std::vector<std::string> first, last;
    int first_ranks;
    std::string line;
  };
  const std::vector<disagreement> cases = {
      {{"15"}, {"15", "--checkpoint", j}, 1, "rank 1 was given --checkpoint " + j + ", rank 0 no --checkpoint"},
      {{"12", "--threads", "1"}, {"12", "--threads", "2"}, 1, "rank 1 was given --threads 2, rank 0 --threads 1"},
      {{"12", "--json"}, {"12"}, 2, "rank 2 was given no --json, rank 0 --json"},
      // The last option compared.
      {{"12"}, {"12", "--no-progress"}, 1, "rank 1 was given --no-progress, rank 0 no --no-progress"},
      {{"12", "--checkpoint", j, "--checkpoint-interval", "5"},
       {"12", "--checkpoint", j},
       2,
       "rank 2 was given --checkpoint-interval 2, rank 0 "},
      // A newline in a value is part of the value, and is shown escaped.
      {{"12", "--checkpoint", path("mx") + "\n.ckpt"},
       {"12", "--checkpoint", path("mx")},
       1,
       "rank 1 was given --checkpoint " + path("mx") + ", rank 0 --checkpoint " + path("mx") + "\\x0a.ckpt:"},
  };
  for (const disagreement& d : cases) {
    SCOPED_TRACE(d.line);
    const finished r = run(mpmd(d.first_ranks, d.first, d.last), {mpi_env}, 60);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: " + d.line), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("every rank must be given the same options; nothing was counted"), std::string::npos);
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(j));
  }
  // Two ranks that differ alike from rank 0 are one line, not one each.
  std::vector<std::string> argv = mpi_job(1, {"12", "--threads", "1"});
  for (const char* a : {":", "-np", "2"}) argv.push_back(a);
  for (const char* a : {mpi.c_str(), "12", "--threads", "2"}) argv.push_back(a);
  const finished alike = run(argv, {mpi_env}, 60);
  EXPECT_EQ(alike.status, 2) << alike.err;
  EXPECT_NE(alike.err.find("nqueens-mpi: ranks 1-2 were given --threads 2, rank 0 --threads 1: every rank must be "
                           "given the same options"),
            std::string::npos)
      << alike.err;
  EXPECT_EQ(alike.err.find("rank 1 was given"), std::string::npos) << alike.err;
  EXPECT_EQ(alike.err.find("rank 2 was given"), std::string::npos) << alike.err;
  for (const int ranks : {2, 3}) {
    const finished r = run(mpi_job(ranks, {"count", "12", "--threads", "1", "--json"}), {mpi_env}, 60);
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string threads = ranks == 2 ? "[1,1]" : "[1,1,1]";
    EXPECT_NE(r.out.find("\"ranks\":" + std::to_string(ranks) + ",\"rank_threads\":" + threads + ",\"isas\":["),
              std::string::npos)
        << r.out;
  }
  const finished one = run(mpi_job(1, {"12", "--threads", "1"}), {mpi_env}, 60);
  EXPECT_NE(one.out.find("  MPI: 1 rank x 1 thread\n"), std::string::npos) << one.out;
  // Without --threads each rank's default, the threads it counted on, is
  // what the JSON and the text give: at least one each, never the option's
  // unset 0. The ranks' CPU time is their own: the JSON has none of rank 0's
  // alone.
  const finished unset = run(mpi_job(2, {"12", "--json"}), {mpi_env}, 60);
  ASSERT_EQ(unset.status, 0) << unset.err;
  const std::size_t list = unset.out.find("\"rank_threads\":[");
  ASSERT_NE(list, std::string::npos) << unset.out;
  std::istringstream threads(unset.out.substr(list + 16, unset.out.find(']', list) - list - 16));
  int ranks = 0;
  for (std::string each; std::getline(threads, each, ',');) {
    ++ranks;
    EXPECT_GE(std::stoi(each), 1) << unset.out;
  }
  EXPECT_EQ(ranks, 2) << unset.out;
  EXPECT_EQ(unset.out.find("\"cpu_seconds\""), std::string::npos) << unset.out;
  const finished text = run(mpi_job(2, {"12"}), {mpi_env}, 60);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("  MPI: 2 ranks"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find(" 0 threads"), std::string::npos) << text.out;
}

// Nodes differ: each rank's kernels are reported, not rank 0's alone. The
// last rank runs the portable kernels (NQUEENS_ISA), the others this
// machine's own; the text names each set with its ranks, the JSON's "isa"
// is null and "isas" lists each set once, in rank order, as merge's.
TEST_F(FaultTest, EachRanksKernelsAreReported) {
  SKIP_WITHOUT_MPI();
  const finished version = run({nq, "--version"});
  if (version.out.find("isa: portable\n") != std::string::npos) GTEST_SKIP() << "this machine runs portable kernels";
  const std::string own = version.out.substr(
      version.out.find("isa: ") + 5, version.out.find('\n', version.out.find("isa: ")) - version.out.find("isa: ") - 5);
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const auto job = [&](std::vector<std::string> args) {
      std::vector<std::string> argv = mpi_job(ranks - 1, args);
      for (const char* a : {":", "-np", "1", "env", "NQUEENS_ISA=portable"}) argv.push_back(a);
      argv.push_back(mpi);
      argv.insert(argv.end(), args.begin(), args.end());
      return argv;
    };
    const finished text = run(job({"12", "--threads", "1"}), {mpi_env}, 60);
    EXPECT_EQ(text.status, 0) << text.err;
    const std::string others = ranks == 2 ? "rank 0" : "ranks 0-1";
    EXPECT_NE(
        text.out.find("  kernels: " + own + " on " + others + "; portable on rank " + std::to_string(ranks - 1) + "\n"),
        std::string::npos)
        << text.out;
    const finished json = run(job({"12", "--threads", "1", "--json"}), {mpi_env}, 60);
    EXPECT_EQ(json.status, 0) << json.err;
    EXPECT_NE(json.out.find("\"isa\":null,"), std::string::npos) << json.out;
    EXPECT_NE(json.out.find("\"isas\":[\"" + own + "\",\"portable\"]"), std::string::npos) << json.out;
  }
  // Alike: no line, the one name.
  const finished alike = run(mpi_job(2, {"12", "--threads", "1", "--json"}), {mpi_env}, 60);
  EXPECT_NE(alike.out.find("\"isa\":\"" + own + "\","), std::string::npos) << alike.out;
  EXPECT_NE(alike.out.find("\"isas\":[\"" + own + "\"]"), std::string::npos) << alike.out;
  EXPECT_EQ(run(mpi_job(2, {"12", "--threads", "1"}), {mpi_env}, 60).out.find("kernels:"), std::string::npos);
}

// Rank 0's host phases, as count's: its checks, then the journal, plan and
// agreement in planning, its tables' build in start and their release, none
// left at 0. Q(16)'s 4 000 subproblems give rank 0's own thread chunks
// (tables) however the threads are scheduled.
TEST_F(FaultTest, TheJsonOfAJobTimesRankZerosPhases) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const finished r =
        run(mpi_job(ranks, {"count", "16", "--engine", "quadrant", "--threads", "1", "--json"}), {mpi_env}, 60);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::size_t phases = r.out.find("\"host_phase_seconds\":{");
    ASSERT_NE(phases, std::string::npos) << r.out;
    for (const std::string phase : {"checks", "planning", "start", "counting", "release"}) {
      const std::size_t at = r.out.find("\"" + phase + "\":", phases);
      ASSERT_NE(at, std::string::npos) << phase << ": " << r.out;
      EXPECT_GT(std::stod(r.out.substr(at + phase.size() + 3)), 0.0) << phase << ": " << r.out;
    }
  }
}

// A rank that refuses (memory, here) ends the job at once with its message.
TEST_F(FaultTest, RankThatRefusesEndsTheJob) {
  SKIP_WITHOUT_MPI();
  for (const int others : {1, 2}) {  // 2 and 3 ranks: the last one refuses
    std::vector<std::string> argv = mpi_job(others, {"12"});
    for (const char* a : {":", "-np", "1"}) argv.push_back(a);
    argv.push_back(mpi);
    for (const char* a : {"12", "--engine", "quadrant", "--max-memory", "1M"}) argv.push_back(a);
    const finished r = run(argv, {mpi_env}, 60);
    EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: rank " + std::to_string(others) + ": the quadrant engine needs about"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("choose another --engine"), std::string::npos) << r.err;
  }
  // Ranks that refuse alike are named on one line.
  std::vector<std::string> argv = mpi_job(1, {"12"});
  for (const char* a : {":", "-np", "2"}) argv.push_back(a);
  argv.push_back(mpi);
  for (const char* a : {"12", "--engine", "quadrant", "--max-memory", "1M"}) argv.push_back(a);
  const finished r = run(argv, {mpi_env}, 60);
  EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: ranks 1-2: the quadrant engine needs about"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("rank 1:"), std::string::npos) << r.err;
}

// Every rank short of memory: rank 0's line, which names the engine's need
// and the lists', is the only one (a worker's would say the engine's again).
// The same for a plan too large for the bound: rank 0's line, with the
// split that fits or the kept journal's advice, is the only one (the
// workers' said "choose a smaller --split-depth" beside it, which a kept
// journal would refuse).
TEST_F(FaultTest, EveryRankShortOfMemoryIsOneLine) {
  SKIP_WITHOUT_MPI();
  const std::string kept = path("split7.ckpt");
  ASSERT_EQ(run({nq, "count", "14", "--engine", "mirror", "--split-depth", "7", "--checkpoint", kept}).status, 0);
  const std::vector<std::vector<std::string>> jobs = {
      {"12", "--engine", "quadrant", "--max-memory", "1M"},
      {"14", "--engine", "mirror", "--split-depth", "7", "--max-memory", "1M"},
      {"14", "--engine", "mirror", "--split-depth", "7", "--max-memory", "1M", "--checkpoint", kept},
      {"14", "--engine", "mirror", "--split-depth", "8", "--max-memory", "1M", "--checkpoint", kept}};
  // The last: a kept journal of another split is named before the memory
  // (more memory would only lead to its refusal).
  const std::vector<std::string> said = {"nqueens-mpi: the quadrant engine needs about",
                                         "leave out --split-depth in every part of the run",
                                         "resumes on its own engine and split depth alone",
                                         "belongs to another run (n = 14, engine mirror, split depth 7, plan "};
  for (const int ranks : {2, 3}) {
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, job " + std::to_string(k));
      const finished r = run(mpi_job(ranks, jobs[k]), {mpi_env}, 60);
      EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.err.find(said[k]), std::string::npos) << r.err;
      if (k == 0) EXPECT_NE(r.err.find(" and its lists (the plan's "), std::string::npos) << r.err;
      std::size_t lines = 0;
      for (std::size_t at = r.err.find("nqueens-mpi: "); at != std::string::npos;
           at = r.err.find("nqueens-mpi: ", at + 1)) {
        ++lines;
      }
      EXPECT_EQ(lines, 1U) << r.err;
      EXPECT_EQ(r.err.find("rank 1"), std::string::npos) << r.err;
    }
  }
}

// A rank whose hard stack limit is too small ends with one line and 3,
// before MPI_Init; the job ends (mpirun's box may follow). A soft limit is
// raised; a hard one of 256 KiB was a SIGSEGV in rank 0's thread of its
// own, whose stack glibc sized by it. (The ranks keep mpirun's environment,
// which a limit much under 64 KiB may not hold: the loader fails first.)
TEST_F(FaultTest, ARankWithTooSmallAStackEndsTheJob) {
  SKIP_WITHOUT_MPI();
  rlimit limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_STACK, &limit), 0);
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < cli::least_stack_bytes) {
    GTEST_SKIP() << "the hard stack limit here is " << limit.rlim_max / 1024 << " KiB";
  }
  const std::string least = std::to_string(cli::least_stack_bytes / 1024);
  const std::string under = std::to_string(cli::least_stack_bytes / 1024 / 4);
  for (const int ranks : {2, 3}) {
    std::vector<std::string> argv = mpi_job(ranks, {"12"});
    argv.insert(std::ranges::find(argv, mpi),
                {"sh", "-c", "[ $OMPI_COMM_WORLD_RANK = 1 ] && ulimit -s " + under + "; exec \"$0\" \"$@\""});
    const finished r = run(argv, {mpi_env}, 60);
    EXPECT_NE(r.status, 0) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.status, -1) << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: the stack's hard limit (ulimit -Hs) is " + under + " KiB, less than the " +
                         least + " KiB this program needs; run it where the limit is higher"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("Q(12)"), std::string::npos) << r.out;
    for (const std::string& stack : {std::string("-S -s 64"), "-s " + least}) {
      std::vector<std::string> small = mpi_job(ranks, {"14", "--engine", "symmetric"});
      small.insert(std::ranges::find(small, mpi), {"sh", "-c", "ulimit " + stack + " && exec \"$0\" \"$@\""});
      const finished counted = run(small, {mpi_env}, 60);
      EXPECT_EQ(counted.status, 0) << stack << ": status -1 means it hung\n" << counted.err;
      EXPECT_NE(counted.out.find("Q(14) = 365596  verified"), std::string::npos) << stack << ": " << counted.out;
    }
  }
}

// A rank whose node lacks the GPUs the job names is named, rank 0 too: here
// rank 0 sees one GPU and rank 1 two, and both are given --devices 0,1.
TEST_F(FaultTest, ARankThatCannotSeeItsGpusIsNamed) {
  SKIP_WITHOUT_MPI();
  std::vector<std::string> argv = mpi_job(2, {"12", "--engine", "gpu", "--threads", "2", "--devices", "0,1"});
  argv.insert(std::ranges::find(argv, mpi),
              {"sh", "-c",
               "r=$OMPI_COMM_WORLD_LOCAL_RANK; CUDA_VISIBLE_DEVICES=0$( [ $r = 1 ] && echo ,1 ) exec \"$0\" \"$@\""});
  const finished r = run(argv, {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate:3"}}, 120);
  EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: rank 0: --devices names GPU 1, but 1 GPU is visible (0 to 0)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("rank 1:"), std::string::npos) << r.err;
}

// Rank 0, refused for the plan's lists, names the split depth that fits,
// which every rank must then be given.
TEST_F(FaultTest, ListsRefusalNamesTheSplitDepthThatFits) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    const finished r = run(mpi_job(ranks, {"14", "--max-memory", "1M"}), {mpi_env}, 60);
    EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
    const std::size_t hint = r.err.find("raise --max-memory (--split-depth ");
    ASSERT_NE(hint, std::string::npos) << r.err;
    const std::string depth = std::to_string(std::stoi(r.err.substr(hint + 34)));
    const std::string rest = depth + " fits: give every part of the run the same)\n";
    EXPECT_EQ(r.err.substr(hint + 34, rest.size()), rest) << r.err;  // mpirun's box may follow
  }
}

// nqueens-mpi only counts, and says so in its own words: another command
// of nqueens is named as one ("merge x" read as two board sizes, "'x' is
// extra"), an unknown option gets the nearest one, not cxxopts' text.
TEST_F(FaultTest, MpiRefusesWhatItDoesNotTakeInItsOwnWords) {
  SKIP_WITHOUT_MPI();
  // A bad board size, on 2 and 3 ranks: exit 2 and one line of nqueens-mpi's
  // (mpirun adds its own box about the status).
  struct bad_board {
    std::vector<std::string> args;
    std::string says;
  };
  for (const bad_board& b : std::vector<bad_board>{
           {{}, "nqueens-mpi: missing board size N (1 to 32)\n"},
           {{"0"}, "nqueens-mpi: board size 0 is out of range: expected an integer from 1 to 32\n"},
           {{"33"}, "nqueens-mpi: board size 33 is out of range: expected an integer from 1 to 32\n"},
           {{"x"}, "nqueens-mpi: invalid board size 'x': expected an integer from 1 to 32"},
       }) {
    for (const int ranks : {2, 3}) {
      const finished r = run(mpi_job(ranks, b.args), {mpi_env}, 60);
      SCOPED_TRACE(std::to_string(ranks) + " ranks, '" + (b.args.empty() ? "" : b.args[0]) + "'");
      EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
      std::size_t lines = 0;
      for (std::size_t at = r.err.find("nqueens-mpi:"); at != std::string::npos;
           at = r.err.find("nqueens-mpi:", at + 1)) {
        ++lines;
      }
      EXPECT_EQ(lines, 1u) << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
  const finished merge = run(mpi_job(2, {"merge", "x"}), {mpi_env}, 60);
  EXPECT_EQ(merge.status, 2) << "status -1 means it hung\n" << merge.err;
  EXPECT_NE(merge.err.find("nqueens-mpi: 'merge' is a command of nqueens, not of nqueens-mpi, which only counts: "
                           "mpirun -np R nqueens-mpi N [count options]"),
            std::string::npos)
      << merge.err;
  const finished option = run(mpi_job(2, {"12", "--thread", "1"}), {mpi_env}, 60);
  EXPECT_EQ(option.status, 2) << "status -1 means it hung\n" << option.err;
  EXPECT_NE(option.err.find("nqueens-mpi: unknown option '--thread': did you mean '--threads'?\n"), std::string::npos)
      << option.err;
  // --shard, count's, is refused with its reason, and its help lists it not.
  const finished shard = run(mpi_job(2, {"12", "--shard", "0/2"}), {mpi_env}, 60);
  EXPECT_EQ(shard.status, 2) << "status -1 means it hung\n" << shard.err;
  EXPECT_NE(shard.err.find("--shard is for separate jobs, not nqueens-mpi"), std::string::npos) << shard.err;
  const finished help = run(mpi_job(1, {"--help"}), {mpi_env}, 60);
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_NE(help.out.find("--checkpoint"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("--shard"), std::string::npos) << help.out;  // nor its engine line
  EXPECT_NE(help.out.find("so that every rank agrees"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("\nExit status: 0 ok, 1 a count differs"), std::string::npos) << help.out;  // its own too
  EXPECT_NE(help.out.find(", 3 runtime failure ("), std::string::npos) << help.out;
  // Beside --version, either side, help wins, as it does for nqueens.
  for (const char* version : {"--version", "-V"}) {
    const finished both = run(mpi_job(1, {version, "--help"}), {mpi_env}, 60);
    EXPECT_EQ(both.status, 0) << version << ": " << both.err;
    EXPECT_EQ(both.out, help.out) << version;
  }
  // `help` and `help count`, as nqueens takes them: the same help, not a
  // board size named 'help'; the help of another command is refused as
  // that command is.
  for (const std::vector<std::string>& asked :
       {std::vector<std::string>{"help"}, {"help", "count"}, {"help", "--help"}, {"help", "--version"}}) {
    const finished again = run(mpi_job(1, asked), {mpi_env}, 60);
    EXPECT_EQ(again.status, 0) << asked.back() << ": " << again.err;
    EXPECT_EQ(again.out, help.out) << asked.back();
  }
  const finished other = run(mpi_job(1, {"help", "merge"}), {mpi_env}, 60);
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_NE(other.err.find("nqueens-mpi: 'merge' is a command of nqueens, not of nqueens-mpi"), std::string::npos)
      << other.err;
  const finished unknown = run(mpi_job(1, {"help", "bogus"}), {mpi_env}, 60);
  EXPECT_EQ(unknown.status, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("nqueens-mpi: unknown command 'bogus': nqueens-mpi only counts\n"), std::string::npos)
      << unknown.err;
}

// Ranks given different commands (--help on one) disagree like different plans.
TEST_F(FaultTest, RankGivenHelpAloneEndsTheJob) {
  SKIP_WITHOUT_MPI();
  for (const char* others : {"1", "2"}) {  // 2 and 3 ranks: rank 0 alone given --help
    std::vector<std::string> argv = mpi_job(1, {"--help"});
    for (const char* a : {":", "-np", others}) argv.push_back(a);
    argv.push_back(mpi);
    argv.push_back("12");
    const finished r = run(argv, {mpi_env}, 60);
    EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.err.find("rank 0 no plan (it was given --help or --version)"), std::string::npos) << r.err;
  }
}

// SIGTERM to one worker rank alone stops the whole job as if rank 0 had
// it: 143, naming the rank, the journal resumable; the other workers leave.
TEST_F(FaultTest, SignalToOneWorkerStopsTheJob) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("worker" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"17", "--engine", "symmetric", "--threads", "1", "--checkpoint", j, "--checkpoint-interval",
                            "0.05"}),
            {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 64 + 10 * 48, c));
    // Rank 1: the process of this job whose environment says so.
    pid_t worker = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string cmdline = read_file(entry.path() / "cmdline"), environ = read_file(entry.path() / "environ");
      for (char& ch : environ) ch = ch == '\0' ? '\n' : ch;
      if (cmdline.find(j) != std::string::npos && cmdline.find("mpirun") == std::string::npos &&
          environ.find("\nOMPI_COMM_WORLD_RANK=1\n") != std::string::npos) {
        worker = static_cast<pid_t>(std::stol(name));
      }
    }
    ASSERT_NE(worker, 0) << "rank 1 not found";
    ::kill(worker, SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: rank 1: interrupted by SIGTERM"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("Q(17)"), std::string::npos) << r.out;
    expect_resumes_to(j, 17, "95815104", {"--engine", "symmetric"});
  }
}

// A worker given no more work, while rank 0 still counts (its first chunk,
// held by the test hook until the job stops), waits for the job's end, not
// in MPI_Finalize: a SIGTERM there still stops the job, 143, naming the
// rank, the journal resumable. It used to go unheard: the job ran on, 0.
TEST_F(FaultTest, SignalToAWorkerWithNoMoreWorkStopsTheJob) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string dir = path("parked" + std::to_string(ranks)), j = dir + "/j.ckpt";
    fs::create_directories(dir);
    child c(mpi_job(ranks, {"14", "--engine", "symmetric", "--threads", "1", "--checkpoint", j}),
            {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_MPI_TEST_PARK=" + dir}});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    const auto parked = [&] {
      for (int rank = 1; rank < ranks; ++rank) {
        if (read_file(dir + "/parked." + std::to_string(rank)).find('\n') == std::string::npos) return false;
      }
      return true;
    };
    while (!parked() && c.running() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(parked()) << "the workers never ran out of work";
    ::kill(static_cast<pid_t>(std::stol(read_file(dir + "/parked.1"))), SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.err.find("nqueens-mpi: rank 1: interrupted by SIGTERM"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("Q(14)"), std::string::npos) << r.out;
    expect_resumes_to(j, 14, "365596", {"--engine", "symmetric"});
  }
}

// The ranks of the job whose command line holds `needle` (mpirun's
// excluded), by rank: each process whose environment names its rank.
std::map<int, pid_t> ranks_of(const std::string& needle) {
  std::map<int, pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = read_file(entry.path() / "cmdline"), environ = read_file(entry.path() / "environ");
    for (char& ch : environ) ch = ch == '\0' ? '\n' : ch;
    const std::string key = "\nOMPI_COMM_WORLD_RANK=";
    const std::size_t at = environ.find(key);
    if (cmdline.find(needle) == std::string::npos || cmdline.find("mpirun") != std::string::npos ||
        at == std::string::npos) {
      continue;
    }
    found[std::atoi(environ.c_str() + at + key.size())] = static_cast<pid_t>(std::stol(name));
  }
  return found;
}

// ranks_of(needle) once all `ranks` have started (waited for under a 120 s
// deadline: fewer means one never did).
std::map<int, pid_t> started_ranks(const std::string& needle, int ranks) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::map<int, pid_t> pids = ranks_of(needle);
  while (static_cast<int>(pids.size()) < ranks && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    pids = ranks_of(needle);
  }
  return pids;
}

// SIGINT or SIGTERM to mpirun, as at a terminal or from a batch script.
// Open MPI's mpirun (4.1) answers either by sending the ranks SIGTERM
// (odls_base_sigkill_timeout seconds later, 1 by default), kills every rank
// left as soon as one ends, and exits 1 whatever they do. So each rank must
// end by itself on that SIGTERM, never in MPI_Finalize (which, mpirun
// tearing the job down, waits for the SIGKILL), and rank 0 must flush its
// journal and write its report, naming the signal it received, before any
// worker leaves: a worker that left first took rank 0's report with it.
// SIGUSR1, which mpirun forwards as is, ends the job with 128 + it.
// One signal and rank count a test: each job is a test of its own, under
// its own deadline, rather than six in a row under one.
class SignalToMpirunTest : public FaultTest, public ::testing::WithParamInterface<std::pair<int, int>> {};

TEST_P(SignalToMpirunTest, FlushesReportsAndEndsEveryRank) {
  SKIP_WITHOUT_MPI();
#ifdef NQUEENS_SANITIZED
  const int n = long_n;
  const std::string total = long_total;
#else  // Q(20): a rank of three works about 7 CPU-seconds on a Zen 5 core; Q(19)'s share (about 2) ended before a wait
       // of 2
  const int n = 20;
  const std::string total = "39029188884";
#endif
  const auto [sig, ranks] = GetParam();
  const std::string received = sig == SIGUSR1 ? "SIGUSR1" : "SIGTERM";
  const std::string j = path("to-launcher.ckpt"), counted = path("counted");
  child c(mpi_job(ranks, {std::to_string(n), "--threads", "1", "--checkpoint", j, "--checkpoint-interval", "600"}),
          {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_MPI_TEST_COUNTED=" + counted}});
  ASSERT_TRUE(wait_for_size(j, 63, c));
  const std::map<int, pid_t> pids = started_ranks(j, ranks);
  ASSERT_EQ(static_cast<int>(pids.size()), ranks);
  // A subproblem's count has reached rank 0, none is flushed (the interval
  // is 600 s), most of the work is still ahead. Told by rank 0's hook, not
  // by its CPU time: a second of it once passed under load before the first
  // count, and the job ended "before any subproblem was finished".
  ASSERT_TRUE(wait_for_file(counted, c)) << "no count reached rank 0";
  c.signal(sig);  // mpirun alone
  const finished r = c.wait(60);
  EXPECT_NE(r.status, -1) << "it hung\n" << r.err;
  EXPECT_NE(r.status, 0) << r.err;
  if (sig == SIGUSR1) EXPECT_EQ(r.status, 128 + SIGUSR1) << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: interrupted by " + received + " after "), std::string::npos) << r.err;
  EXPECT_TRUE(none_left(j, 60)) << "a rank outlived mpirun";
  EXPECT_GT(fs::file_size(j), 64u) << "rank 0 flushed nothing";
  EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);  // whole records only
  EXPECT_EQ(r.out.find("Q("), std::string::npos) << r.out;
  if (ranks == 3 && sig == SIGTERM) expect_resumes_to(j, n, total);
}

INSTANTIATE_TEST_SUITE_P(SignalsAndRanks, SignalToMpirunTest,
                         ::testing::Values(std::pair{SIGINT, 2}, std::pair{SIGINT, 3}, std::pair{SIGTERM, 2},
                                           std::pair{SIGTERM, 3}, std::pair{SIGUSR1, 2}, std::pair{SIGUSR1, 3}),
                         [](const ::testing::TestParamInfo<std::pair<int, int>>& info) {
                           const int sig = info.param.first;
                           return std::string(sig == SIGINT    ? "Sigint"
                                              : sig == SIGTERM ? "Sigterm"
                                                               : "Sigusr1") +
                                  std::to_string(info.param.second) + "Ranks";
                         });

// Sends `sig` to rank `to` of the job, then follows the CPU seconds each
// rank of `followed` uses from then until it is gone, or until a deadline:
// what it worked after the job was told to stop.
std::map<int, double> cpu_seconds_after_signal(const std::map<int, pid_t>& pids, int to,
                                               const std::vector<int>& followed, int sig) {
  std::map<int, double> at_signal, last;
  for (const int rank : followed) at_signal[rank] = last[rank] = cpu_seconds_of(pids.at(rank));
  ::kill(pids.at(to), sig);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (bool any = true; any && std::chrono::steady_clock::now() < deadline;) {
    any = false;
    for (auto& [rank, seconds] : last) {
      if (::kill(pids.at(rank), 0) != 0) continue;
      any = true;
      seconds = std::max(seconds, cpu_seconds_of(pids.at(rank)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (auto& [rank, seconds] : last) seconds -= at_signal[rank];
  return last;
}

// The workers of a job of `ranks`: 1 .. ranks - 1.
std::vector<int> workers_of(int ranks) {
  std::vector<int> workers;
  for (int r = 1; r < ranks; ++r) workers.push_back(r);
  return workers;
}

// Waits (300 s at most) until process `pid` of job `c` holds a sixth of
// n = 22's quarter tables (256 MiB resident): it is building them. False
// when it never did, or the job ended.
bool building_tables(child& c, pid_t pid) {
  constexpr std::uint64_t building = std::uint64_t{256} << 20;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (c.running() && resident_bytes_of(pid) < building && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return c.running() && resident_bytes_of(pid) >= building;
}

// SIGTERM (2 ranks) or SIGINT (3) to rank 0 alone while every worker is
// inside a subproblem of seconds (n = 19, split depth 1: a chunk is one of
// them): rank 0 tells the busy workers to cut their chunks, and each stops
// within a CPU second instead of finishing its subproblem; every rank ends
// with 128 + the signal rank 0 was sent (the workers, sent none, take it
// from rank 0's word: a scheduler reads the job's status).
TEST_F(FaultTest, SignalToRankZeroAloneCutsTheWorkersChunks) {
  SKIP_WITHOUT_MPI();
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "minutes of subproblems when sanitized";
#endif
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("cut" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"19", "--engine", "symmetric", "--split-depth", "1", "--threads", "1", "--checkpoint", j,
                            "--checkpoint-interval", "600"}),
            {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 63, c));
    const std::map<int, pid_t> pids = started_ranks(j, ranks);
    ASSERT_EQ(static_cast<int>(pids.size()), ranks);
    for (int r = 1; r < ranks; ++r) ASSERT_TRUE(wait_for_more_cpu_seconds(c, pids.at(r), 1.0));  // inside a chunk
    const int sig = ranks == 2 ? SIGTERM : SIGINT;
    const std::map<int, double> after = cpu_seconds_after_signal(pids, 0, workers_of(ranks), sig);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 128 + sig) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(
        r.err.find(std::string("nqueens-mpi: interrupted by ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT") + " after "),
        std::string::npos)
        << r.err;
    for (const auto& [rank, seconds] : after) EXPECT_LT(seconds, 1.0) << "rank " << rank << " finished its chunk first";
    EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);  // whole records only
  }
}

// A job stopped while its ranks built their tables ends as one stopped
// before any subproblem was finished, its journal (made for it, holding
// nothing) removed, unless a subproblem's count reached rank 0 first (a worker
// quicker than the signal): then as one stopped after it, the journal kept
// with that count. `who` begins the line either way.
void expect_stopped_before_or_after_counting(const finished& r, const std::string& j, const std::string& who) {
  if (r.err.find(who + " before any subproblem was finished; nothing was kept\n") != std::string::npos) {
    EXPECT_FALSE(fs::exists(j)) << "the journal made for the job, its header alone, was left";
  } else {
    EXPECT_NE(r.err.find(who + " after "), std::string::npos) << r.err;
    EXPECT_GT(fs::file_size(j), 64u) << "a journal holding nothing was kept";
  }
}

// The same while every worker builds its quarter tables for n = 22 (1.4 GB,
// seconds on one thread, minutes at n = 24, before its first subproblem):
// the build is cut too, not finished first.
TEST_F(FaultTest, SignalToRankZeroAloneCutsTheWorkersTables) {
  SKIP_WITHOUT_MPI();
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "gigabytes of tables when sanitized";
#endif
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("tables" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"22", "--engine", "quadrant", "--threads", "1", "--checkpoint", j}), {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 63, c));
    const std::map<int, pid_t> pids = started_ranks(j, ranks);
    ASSERT_EQ(static_cast<int>(pids.size()), ranks);
    for (int r = 1; r < ranks; ++r) ASSERT_TRUE(building_tables(c, pids.at(r))) << "rank " << r << " built no tables";
    const std::map<int, double> after = cpu_seconds_after_signal(pids, 0, workers_of(ranks), SIGTERM);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << "status -1 means it hung\n" << r.err;
    for (const auto& [rank, seconds] : after) EXPECT_LT(seconds, 1.0) << "rank " << rank << " built its tables first";
    expect_stopped_before_or_after_counting(r, j, "nqueens-mpi: interrupted by SIGTERM");
  }
}

// SIGTERM to one worker alone while rank 0 builds its quarter tables for
// n = 22 (seconds on one thread; minutes at n = 24): rank 0 has handed out
// the first chunks meanwhile, so the worker hears its signal and tells rank
// 0, whose build is cut too; the job ends with 143 without rank 0
// finishing its tables. (Rank 0 once built them before it answered anyone:
// the worker waited for them, and every worker built its own after.)
TEST_F(FaultTest, SignalToAWorkerWhileRankZeroBuildsItsTablesCutsTheBuild) {
  SKIP_WITHOUT_MPI();
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "gigabytes of tables when sanitized";
#endif
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("rank0-tables" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"22", "--engine", "quadrant", "--threads", "1", "--checkpoint", j}), {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 63, c));
    const std::map<int, pid_t> pids = started_ranks(j, ranks);
    ASSERT_EQ(static_cast<int>(pids.size()), ranks);
    ASSERT_TRUE(building_tables(c, pids.at(0))) << "rank 0 built no tables";
    const double rank0_after = cpu_seconds_after_signal(pids, 1, {0}, SIGTERM).at(0);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 143) << "status -1 means it hung\n" << r.err;
    EXPECT_LT(rank0_after, 1.0) << "rank 0 built its tables first";
    expect_stopped_before_or_after_counting(r, j, "nqueens-mpi: rank 1: interrupted by SIGTERM");
    EXPECT_TRUE(none_left(j, 60)) << "a rank outlived mpirun";
  }
}

// SIGINT or SIGTERM to every rank, as srun and Slurm's scancel --signal
// deliver it: every rank ends with 128 + the signal, so mpirun does too, and
// rank 0 names the signal; the journal resumes to the exact count.
TEST_F(FaultTest, SignalToEveryRankEndsTheJobWithItsStatus) {
  SKIP_WITHOUT_MPI();
  for (const int sig : {SIGINT, SIGTERM}) {
    for (const int ranks : {2, 3}) {
      const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
      SCOPED_TRACE(std::to_string(ranks) + " ranks, " + name);
      const std::string j = path("to-ranks-" + std::to_string(sig) + "-" + std::to_string(ranks) + ".ckpt");
      child c(mpi_job(ranks,
                      {std::to_string(long_n), "--threads", "1", "--checkpoint", j, "--checkpoint-interval", "0.05"}),
              {mpi_env});
      ASSERT_TRUE(wait_for_size(j, 64 + 10 * 48, c));
      std::map<int, pid_t> pids = ranks_of(j);
      ASSERT_EQ(static_cast<int>(pids.size()), ranks);
      for (const auto& [rank, pid] : pids) ::kill(pid, sig);
      const finished r = c.wait(60);
      EXPECT_EQ(r.status, 128 + sig) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.err.find("interrupted by " + name + " after "), std::string::npos) << r.err;
      EXPECT_TRUE(none_left(j, 60)) << "a rank outlived mpirun";
      EXPECT_EQ(r.out.find("Q("), std::string::npos) << r.out;
      if (ranks == 3 && sig == SIGINT) expect_resumes_to(j, long_n, long_total);
    }
  }
}

// A signal as soon as rank 0 holds its journal, while it builds its tables
// (seconds at n = 21): the job ends as in any other phase, every rank with
// 128 + the signal and rank 0 naming it, never through MPI_Abort.
TEST_F(FaultTest, SignalWhileRankZeroBuildsItsTablesEndsTheJobWithItsStatus) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("tables-" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"21", "--engine", "quadrant", "--threads", "1", "--checkpoint", j}), {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 63, c));
    const std::map<int, pid_t> pids = started_ranks(j, ranks);
    ASSERT_EQ(static_cast<int>(pids.size()), ranks);
    for (const auto& [rank, pid] : pids) ::kill(pid, SIGINT);
    const finished r = c.wait(60);
    EXPECT_EQ(r.status, 128 + SIGINT) << "status -1 means it hung\n" << r.err;
    expect_stopped_before_or_after_counting(r, j, "nqueens-mpi: interrupted by SIGINT");
    EXPECT_EQ(r.err.find("MPI_ABORT"), std::string::npos) << r.err;
    EXPECT_TRUE(none_left(j, 60)) << "a rank outlived mpirun";
    EXPECT_EQ(r.out.find("Q("), std::string::npos) << r.out;
  }
}

// Rank 0's disk full: a journal write failure on rank 0 is exit 3
// with the reason, not SIGABRT or SIGXFSZ; the journal keeps its whole
// records and resumes.
TEST_F(FaultTest, MpiJournalWriteFailureExitsThree) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("full" + std::to_string(ranks) + ".ckpt");
    const std::vector<std::string> args = {"15", "--threads", "1", "--checkpoint", j, "--checkpoint-interval", "0.01"};
    // The limit on rank 0 alone: mpirun's own files need more. Workers, if
    // any, are a second part of the same job.
    std::vector<std::string> argv = {
        mpirun, "-x", test_tag(), "-np", "1", "sh", "-c", "ulimit -f 8; exec \"$0\" \"$@\"", mpi};
    argv.insert(argv.end(), args.begin(), args.end());
    if (ranks > 1) {
      for (const std::string& a : {std::string(":"), std::string("-np"), std::to_string(ranks - 1), mpi}) {
        argv.push_back(a);
      }
      argv.insert(argv.end(), args.begin(), args.end());
    }
    const finished r = run(argv, {mpi_env}, 60);
    EXPECT_EQ(r.status, 3) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.err.find("writing checkpoint '" + j + "' failed: File too large"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
    // A write that failed mid-run leaves no result; one that failed once
    // every subproblem was counted (the last flush: a short count) prints
    // it, and says how the journal is finished.
    if (r.out.find("Q(15)") != std::string::npos) {
      EXPECT_NE(r.out.find("Q(15) = 2279184  verified"), std::string::npos) << r.out;
      EXPECT_NE(r.err.find("nqueens-mpi: every subproblem was counted, and the result above stands, but writing "
                           "checkpoint"),
                std::string::npos)
          << r.err;
    } else {
      EXPECT_NE(r.err.find("nqueens-mpi: writing checkpoint '" + j + "' failed: File too large; the journal keeps"),
                std::string::npos)
          << r.err;
    }
    EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);  // whole records only
    expect_resumes_to(j, 15, "2279184");
  }
}

// One rank alone flushes its journal during the run, and so does rank 0
// with workers: a kill -9 keeps it.
TEST_F(FaultTest, SingleRankFlushesItsJournal) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("one" + std::to_string(ranks) + ".ckpt");
    child c(mpi_job(ranks, {"17", "--engine", "symmetric", "--threads", "1", "--checkpoint", j, "--checkpoint-interval",
                            "0.05"}),
            {mpi_env});
    ASSERT_TRUE(wait_for_size(j, 64 + 10 * 48, c)) << "no records were flushed while the job ran";
    EXPECT_GE(signal_matching(j, SIGKILL), ranks + 1);  // mpirun and its ranks, which are no children of this process
    c.wait();
    const finished r = run({nq, "count", "17", "--engine", "symmetric", "--checkpoint", j});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Q(17) = 95815104  verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("resumed: "), std::string::npos) << r.out;
  }
}

// A GPU job's JSON counts what every rank asked of its device, not rank
// 0's alone (nor nothing): the workers' work, kernel times included, comes
// with their records.
// Emulated (no GPU here), n = 14 on 2 and 3 ranks, each rank within
// --gpu-memory.
TEST_F(FaultTest, GpuJobReportsEveryRanksDeviceWork) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const finished r =
        run(mpi_job(ranks, {"14", "--engine", "gpu", "--threads", "1", "--gpu-memory", "64M", "--json"}),
            {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate", "NQUEENS_GPU_TIMES=1"}}, 120);
    ASSERT_EQ(r.status, 0) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.out.find("\"total\":365596,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"device_kernel_seconds\":{\"clear\":"), std::string::npos) << r.out;
    const std::size_t at = r.out.find("\"device_launches\":");
    ASSERT_NE(at, std::string::npos) << r.out;
    const unsigned long long launches = std::stoull(r.out.substr(at + 18));
    const std::size_t ops_at = r.out.find("\"device_operations\":");
    ASSERT_NE(ops_at, std::string::npos) << r.out;
    const unsigned long long operations = std::stoull(r.out.substr(ops_at + 20));
    // A rank that counts launches a count round at least, and a size round
    // where its call's bounds do not fit (which ranks get chunks depends on
    // the machine's load: rank 0 counts too).
    EXPECT_GE(launches, 2ULL) << r.out;
    EXPECT_GT(operations, launches) << r.out;
  }
}

// A job whose ranks miscount fails (exit 1), the published value named, in
// text and JSON, with 2 and 3 ranks: emulated GPUs whose rounds of counts
// each add 8 times a job's weight (NQUEENS_GPU_TEST_FAULT=miscount).
TEST_F(FaultTest, AJobThatMiscountsFails) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::vector<std::string> env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate",
                                          "NQUEENS_GPU_TEST_FAULT=miscount"};
    const finished text = run(mpi_job(ranks, {"12", "--engine", "gpu", "--threads", "1"}), {.env = env}, 120);
    EXPECT_EQ(text.status, 1) << "status -1 means it hung\n" << text.err;
    EXPECT_NE(text.out.find(" MISMATCH: published value is 14200\n"), std::string::npos) << text.out;
    const finished json = run(mpi_job(ranks, {"12", "--engine", "gpu", "--threads", "1", "--json"}), {.env = env}, 120);
    EXPECT_EQ(json.status, 1) << "status -1 means it hung\n" << json.err;
    EXPECT_NE(json.out.find("\"verified\":false"), std::string::npos) << json.out;
  }
}

// Ranks on a node of several GPUs (an emulated node of three): by default
// each rank counts on its share of them (mpirun says the node's ranks), and
// every rank given the same list counts on those; the job's count is exact
// either way, with 2 and 3 ranks, and its report says each rank's GPUs.
TEST_F(FaultTest, GpuJobDealsTheNodesGpusToItsRanks) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    for (const char* devices : {"", "all"}) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, --devices '" + devices + "'");
      std::vector<std::string> args = {"14", "--engine", "gpu", "--threads", "2"};
      if (*devices != '\0') args.insert(args.end(), {"--devices", devices});
      const finished r =
          run(mpi_job(ranks, args), {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate:3"}}, 120);
      ASSERT_EQ(r.status, 0) << "status -1 means it hung\n" << r.err;
      EXPECT_NE(r.out.find("Q(14) = 365596  verified"), std::string::npos) << r.out;
      // The report names every rank's GPUs, not rank 0's alone; with all of
      // them listed, each rank shares each GPU with every other.
      for (int rank = 0; rank < ranks; ++rank) {
        const std::string line = "\n  rank " + std::to_string(rank) + " on GPU ";
        EXPECT_NE(r.out.find(line), std::string::npos) << line << '\n' << r.out;
      }
      const std::string shared = "shared by " + std::to_string(ranks) + " processes";
      EXPECT_EQ(r.out.find(shared) != std::string::npos, *devices != '\0') << r.out;
    }
  }
}

// Ranks each bound to GPUs of their own (a per-rank CUDA_VISIBLE_DEVICES,
// two emulated GPUs each) share none: each takes both of its GPUs alone, so
// one thread a rank is refused as for a process alone on two GPUs, and two
// count exactly. Taken as ranks sharing the node's GPUs, each took one of
// its two and left the other idle.
TEST_F(FaultTest, GpuJobRanksBoundToGpusOfTheirOwnTakeThemAlone) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    for (const char* threads : {"1", "2"}) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, " + threads + " threads");
      std::vector<std::string> argv = mpi_job(ranks, {"12", "--engine", "gpu", "--threads", threads, "--json"});
      const auto program = std::ranges::find(argv, mpi);
      argv.insert(program, {"sh", "-c",
                            "r=$OMPI_COMM_WORLD_LOCAL_RANK; CUDA_VISIBLE_DEVICES=$((2 * r)),$((2 * r + 1)) "
                            "exec \"$0\" \"$@\""});
      const finished r = run(argv, {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate:6"}}, 120);
      ASSERT_NE(r.status, -1) << "it hung\n" << r.err;
      if (std::string(threads) == "1") {
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("1 thread cannot keep the 2 GPUs this process takes busy"), std::string::npos) << r.err;
      } else {
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find("\"total\":14200,"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
        // Each rank counted on both of its GPUs alone: rank 0 on 0 and 1
        // of the six, rank 1 on 2 and 3 (each sees its two as 0 and 1).
        EXPECT_NE(r.out.find("\"gpus\":[{\"rank\":0,\"index\":0,\"uuid\":\"GPU-e0000000-0000-0000-0000-"
                             "000000000000\",\"name\":\"emulated GPU 0\",\"sharers\":1},{\"rank\":0,\"index\":1,"
                             "\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000001\",\"name\":\"emulated GPU 1\","
                             "\"sharers\":1},{\"rank\":1,\"index\":0,\"uuid\":\"GPU-e0000000-0000-0000-0000-"
                             "000000000002\",\"name\":\"emulated GPU 2\",\"sharers\":1},{\"rank\":1,"
                             "\"index\":1,\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000003\",\"name\":"
                             "\"emulated GPU 3\",\"sharers\":1}"),
                  std::string::npos)
            << r.out;
      }
    }
  }
}

// Ranks that see GPUs that overlap (rank 0 GPUs 1 and 2, rank 1 GPUs 0 and
// 1): each GPU is dealt to one of them, so rank 0 counts on GPUs 1 and 2
// alone and rank 1 on GPU 0; dealt by each one's own list, both took GPU 1
// as their own.
TEST_F(FaultTest, GpuJobRanksThatSeeOverlappingGpusNeverTakeOneTwice) {
  SKIP_WITHOUT_MPI();
  std::vector<std::string> argv = mpi_job(2, {"12", "--engine", "gpu", "--threads", "2", "--json"});
  argv.insert(
      std::ranges::find(argv, mpi),
      {"sh", "-c", "r=$OMPI_COMM_WORLD_LOCAL_RANK; CUDA_VISIBLE_DEVICES=$((1 - r)),$((2 - r)) exec \"$0\" \"$@\""});
  const finished r = run(argv, {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_GPU=emulate:3"}}, 120);
  ASSERT_EQ(r.status, 0) << "status -1 means it hung\n" << r.err;
  EXPECT_NE(r.out.find("\"total\":14200,"), std::string::npos) << r.out;
  const std::size_t gpus = r.out.find("\"gpus\":[");
  ASSERT_NE(gpus, std::string::npos) << r.out;
  const std::string listed = r.out.substr(gpus, r.out.find(']', gpus) - gpus);
  // Every GPU once, each with the rank that counted on it: rank 0 sees GPU
  // 2 as its second, rank 1 GPU 0 as its first.
  EXPECT_NE(listed.find("{\"rank\":0,\"index\":0,\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000001\","
                        "\"name\":\"emulated GPU 1\",\"sharers\":1}"),
            std::string::npos)
      << listed;
  EXPECT_NE(listed.find("{\"rank\":0,\"index\":1,\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000002\","
                        "\"name\":\"emulated GPU 2\",\"sharers\":1}"),
            std::string::npos)
      << listed;
  EXPECT_NE(listed.find("{\"rank\":1,\"index\":0,\"uuid\":\"GPU-e0000000-0000-0000-0000-000000000000\","
                        "\"name\":\"emulated GPU 0\",\"sharers\":1}"),
            std::string::npos)
      << listed;
  std::size_t entries = 0;
  for (std::size_t at = listed.find("{\"rank\":"); at != std::string::npos; at = listed.find("{\"rank\":", at + 1)) {
    ++entries;
  }
  EXPECT_EQ(entries, 3U) << listed;
}

// The same under MPI, where every rank plans: SIGINT to the job while it
// plans ends it within seconds, with 2 and 3 ranks, nothing counted and no
// rank left.
TEST_F(FaultTest, SignalWhileMpiRanksPlanEndsTheJob) {
  SKIP_WITHOUT_MPI();
  const std::string j = path("mpiplan.ckpt");
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    child c(mpi_job(ranks, {"25", "--engine", "quadrant", "--split-depth", "12", "--checkpoint", j}), {mpi_env});
    // Every rank started, rank 0 planning: past start-up, far from done (the
    // plan's fingerprint takes seconds of CPU).
    const std::map<int, pid_t> pids = started_ranks(j, ranks);
    ASSERT_EQ(static_cast<int>(pids.size()), ranks);
    ASSERT_TRUE(wait_for_cpu_seconds(c, pids.at(0), 0.3));
    c.signal(SIGINT, true);  // as Ctrl-C does: mpirun and its ranks
    // The deadline is the bound: a job that went on would plan, list and
    // then count Q(25) for days.
    const finished r = c.wait(120);
    EXPECT_NE(r.status, 0) << r.err;
    EXPECT_NE(r.status, -1) << "it hung: " << r.err;
    EXPECT_EQ(r.out.find("Q(25)"), std::string::npos) << r.out;
    EXPECT_TRUE(none_left(j, 60)) << "a rank outlived the job";
    signal_matching(j, SIGKILL);
    EXPECT_FALSE(fs::exists(j));
  }
}

// A job stopped while its ranks plan, resuming a journal kept from before,
// says how to resume it, as count does, and leaves it as it was. The plan:
// the mirror engine at n = 14 split 12 rows deep, 2.3 million prefixes, a
// couple of CPU-seconds on every rank, whose first twentieth is waited for.
TEST_F(FaultTest, AJobStoppedWhileItPlansSaysHowToResumeItsJournal) {
  SKIP_WITHOUT_MPI();
  const std::string j = path("kept.ckpt");
  const std::vector<std::string> job = {"14", "--engine",     "mirror", "--split-depth", "12", "--threads",
                                        "1",  "--checkpoint", j};
  std::vector<std::string> count = {nq, "count"};
  count.insert(count.end(), job.begin(), job.end());
  ASSERT_EQ(run(count, {}, 300).status, 0);
  fs::resize_file(j, 64 + 48 * 10);  // its header and ten records: a journal of a run stopped early
  const std::string kept = bytes_of(j);
  child c(mpi_job(2, job), {mpi_env});
  const std::map<int, pid_t> pids = started_ranks(j, 2);
  ASSERT_EQ(pids.size(), 2U);
  ASSERT_TRUE(wait_for_cpu_seconds(c, pids.at(0), 0.1 * sanitizer_cpu_factor));
  c.signal(SIGINT, true);  // as Ctrl-C does: mpirun and its ranks
  const finished r = c.wait(120);
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_NE(r.status, -1) << "it hung: " << r.err;
  // By SIGINT, or by the SIGTERM mpirun forwards in its place.
  EXPECT_NE(r.err.find("nqueens-mpi: interrupted by SIG"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" before counting began; nothing was counted this time: run the same command again to resume "
                       "from '" +
                       j + "'\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(none_left(j, 60)) << "a rank outlived the job";
  signal_matching(j, SIGKILL);
  EXPECT_EQ(bytes_of(j), kept) << "the kept journal was changed";
}

// A usage error decides the job's status over another rank's end, whatever
// the ranks' order: rank 0 stopped by a signal while it plans (the mirror
// plan of 2.3 million prefixes), rank 1 given --threads 0, the job exits 2,
// each line said.
TEST_F(FaultTest, AUsageErrorOfOneRankDecidesTheStatusOverAStopOfAnother) {
  SKIP_WITHOUT_MPI();
  const std::string needle = path("usage");  // a checkpoint no rank reaches: its name finds the ranks
  std::vector<std::string> argv =
      mpi_job(1, {"14", "--engine", "mirror", "--split-depth", "12", "--threads", "1", "--checkpoint", needle});
  for (const char* a : {":", "-np", "1"}) argv.push_back(a);
  for (const std::string& a :
       {mpi, std::string("14"), std::string("--threads"), std::string("0"), std::string("--checkpoint"), needle}) {
    argv.push_back(a);
  }
  child c(argv, {mpi_env});
  const std::map<int, pid_t> pids = started_ranks(needle, 2);
  ASSERT_EQ(pids.size(), 2U);
  ASSERT_TRUE(wait_for_cpu_seconds(c, pids.at(0), 0.1 * sanitizer_cpu_factor));
  ASSERT_EQ(::kill(pids.at(0), SIGTERM), 0);
  const finished r = c.wait(120);
  EXPECT_EQ(r.status, 2) << "status -1 means it hung\n" << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: interrupted by SIGTERM before counting began"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nqueens-mpi: rank 1: --threads"), std::string::npos) << r.err;
  EXPECT_TRUE(none_left(needle, 60)) << "a rank outlived the job";
  signal_matching(needle, SIGKILL);
  EXPECT_FALSE(fs::exists(needle));
}

// kill -9 of one MPI rank mid-run ends the job loudly; rank 0's journal then
// resumes with a plain count to the exact total. Rank 1 dies on its first
// chunk, asked for as it starts: on its second (tried first), a rank starved
// of the CPU by a loaded machine could see rank 0's own thread count the
// rest before it asked again, and the job then ended well.
TEST_F(FaultTest, KilledMpiRankThenResumeWithCount) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("rank" + std::to_string(ranks) + ".ckpt");
    const finished r = run(mpi_job(ranks, {"17", "--engine", "symmetric", "--threads", "1", "--checkpoint", j,
                                           "--checkpoint-interval", "0.02"}),
                           {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "NQUEENS_MPI_TEST_DIE_RANK=1:1"}}, 60);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.status, -1) << "it hung\n" << r.err;
    EXPECT_EQ(r.out.find("Q(17)"), std::string::npos) << r.out;
    ASSERT_TRUE(fs::exists(j));
    const finished resumed = run({nq, "count", "17", "--engine", "symmetric", "--checkpoint", j});
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_NE(resumed.out.find("Q(17) = 95815104  verified"), std::string::npos) << resumed.out;
    EXPECT_NE(resumed.out.find("resumed: "), std::string::npos) << resumed.out;
  }
}

// A journal that holds every record but not the completion mark (a
// run killed between the two) is finished by a job with workers: exit 0, the
// result, and the mark, with nothing counted again. The workers, given no
// work, must be released (status -1: the job hung in MPI_Finalize).
TEST_F(FaultTest, UnmarkedFinishedMpiJournalGetsItsMark) {
  SKIP_WITHOUT_MPI();
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const std::string j = path("unmarked" + std::to_string(ranks) + ".ckpt");
    ASSERT_EQ(run(mpi_job(ranks, {"12", "--checkpoint", j}), {mpi_env}, 60).status, 0);
    const std::string marked = bytes_of(j);
    write(j, marked.substr(0, marked.size() - 48));  // the mark is the last record
    const finished r = run(mpi_job(ranks, {"12", "--checkpoint", j}), {mpi_env}, 60);
    ASSERT_EQ(r.status, 0) << "status -1 means it hung\n" << r.err;
    EXPECT_NE(r.out.find("Q(12) = 14200  verified"), std::string::npos) << r.out;
    const std::string all = grouped(plan_field({"12"}, "subproblems"));
    EXPECT_NE(r.out.find("resumed: " + all + " of " + all), std::string::npos) << r.out;
    EXPECT_EQ(bytes_of(j), marked) << "the completion mark was not written";
    const finished count = run({nq, "count", "12", "--checkpoint", j});
    EXPECT_EQ(count.status, 0) << count.err;
    EXPECT_NE(count.out.find("resumed: " + all + " of " + all), std::string::npos) << count.out;
  }
}

// A job whose mpirun dies (kill -9, or the SIGTERM of `timeout`)
// leaves no rank running. The signal goes to mpirun alone: a process-group
// kill would hide a rank that stays. Each run takes the journal its
// predecessor left (a rank left holding it would have it refused), and a
// plain count finishes it to the exact total.
TEST_F(FaultTest, KilledMpirunLeavesNoRankRunning) {
  SKIP_WITHOUT_MPI();
#ifdef NQUEENS_SANITIZED
  const std::string n = "16", total = "14772512";
#else
  const std::string n = "18", total = "666090624";  // longer than the 10 s a rank is given to go
#endif
  const std::string j = path("mpirun.ckpt");
  for (const int sig : {SIGKILL, SIGTERM}) {
    for (const int ranks : {2, 3}) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, " + (sig == SIGKILL ? "SIGKILL" : "SIGTERM"));
      const std::uintmax_t before = fs::exists(j) ? fs::file_size(j) : 64;
      child c(mpi_job(ranks, {n, "--engine", "symmetric", "--threads", "1", "--checkpoint", j, "--checkpoint-interval",
                              "0.05"}),
              {mpi_env});
      ASSERT_TRUE(wait_for_size(j, before + std::uintmax_t{10} * 48, c)) << "no records were flushed while the job ran";
      c.signal(sig);
      EXPECT_TRUE(none_left(j, 60)) << "a rank outlived mpirun";
      signal_matching(j, SIGKILL);  // whatever happened, nothing is left for the next run
      const finished r = c.wait(60);
      if (sig == SIGTERM) EXPECT_NE(r.err.find("interrupted by SIGTERM"), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("Q(" + n + ")"), std::string::npos) << r.out;
      EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);  // whole records only
    }
  }
  expect_resumes_to(j, std::stoi(n), total, {"--engine", "symmetric"});
}

// The same without Open MPI's help (it usually notices a dead mpirun within a
// second, another launcher may not): a rank watches its launcher itself. A
// shell stands in for one here (PMI_RANK in the environment, as MPICH's
// launcher sets it; MPI itself starts a singleton) and is killed alone: the
// rank, counting for minutes otherwise, must go within seconds, its finished
// subproblems saved though the next flush was an hour away.
TEST_F(FaultTest, RankWhoseLauncherDiesExits) {
  SKIP_WITHOUT_MPI();
  const std::string j = path("orphan.ckpt");
  child c({"sh", "-c", "\"$0\" \"$@\" & wait", mpi, std::to_string(long_n), "--engine", "symmetric", "--threads", "1",
           "--checkpoint", j, "--checkpoint-interval", "3600"},
          {.env = {mpi_env[0], mpi_env[1], mpi_env[2], "PMI_RANK=0"}});
  ASSERT_TRUE(wait_for_size(j, 63, c)) << "the rank took no journal";
  // The rank itself (the shell's command line names the journal too).
  pid_t rank = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (rank == 0 && std::chrono::steady_clock::now() < deadline) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string cmdline = read_file(entry.path() / "cmdline");
      if (cmdline.rfind(mpi + '\0', 0) == 0 && cmdline.find(j) != std::string::npos) rank = std::stoi(name);
    }
    if (rank == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(rank, 0) << "no rank started";
  ASSERT_TRUE(wait_for_cpu_seconds(c, rank, 2.0)) << "the rank ended before it had counted for 2 CPU-seconds";
  EXPECT_EQ(fs::file_size(j), 64u);  // nothing flushed yet
  c.signal(SIGKILL);                 // the shell alone
  EXPECT_TRUE(none_left(j, 60)) << "the rank outlived its launcher";
  signal_matching(j, SIGKILL);
  const finished r = c.wait();
  // The stop's SIGTERM is its own: it says why, before the stop's line.
  const std::size_t why = r.err.find("nqueens-mpi: its launcher (parent process ");
  ASSERT_NE(why, std::string::npos) << r.err;
  EXPECT_LT(why, r.err.find("interrupted by SIGTERM")) << r.err;
  EXPECT_GT(fs::file_size(j), 64u) << "the rank saved nothing when its launcher died";
  EXPECT_EQ((fs::file_size(j) - 64) % 48, 0u);  // whole records only
}

}  // namespace
}  // namespace nqueens::test
