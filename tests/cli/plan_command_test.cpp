// `nqueens plan`: the plan, its memory, --stats and --estimate.

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <string>

#include "cli/io/json_reader.hpp"
#include "nqueens/threads.hpp"
#include "support/cli_run.hpp"
#include "support/one_cpu.hpp"

namespace nqueens::test {
namespace {

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

// --stats runs a whole count: its progress is shown as count's, its last
// line every subproblem finished, and never on stdout, whose JSON stays
// whole; --no-progress shows none.
TEST(CliTest, PlanStatsShowsTheProgressOfItsRun) {
  const cli_run r = run_cli("plan 12 --stats --json --threads 2 --progress");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("progress: 100.0%"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1,342/1,342 subproblems"), std::string::npos) << r.err;
  EXPECT_NO_THROW(static_cast<void>(cli::json_members::parse(r.out))) << r.out;
  const cli_run quiet = run_cli("plan 12 --stats --threads 2 --no-progress");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_NE(run_cli("plan 12 --progress --no-progress").err.find("contradict"), std::string::npos);
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

// A split fitted to the bound is said to be one, with the engine and depth
// the parts of one run must be given; the automatic split or one given is not.
TEST(CliTest, PlanSaysWhenItsSplitIsFittedToTheBound) {
  const cli_run fitted = run_cli("plan 14 --engine symmetric --max-memory 1M");
  ASSERT_EQ(fitted.status, 0) << fitted.err;
  const std::size_t depth_at = fitted.out.find("split depth ") + 12;
  const std::string depth = fitted.out.substr(depth_at, fitted.out.find(',', depth_at) - depth_at);
  EXPECT_NE(
      fitted.out.find("split depth fitted to --max-memory; shards, journals and MPI count this plan\n  given --engine "
                      "symmetric --split-depth " +
                      depth + "\n"),
      std::string::npos)
      << fitted.out;
  // --stats and --estimate run the fitted plan: their text says so too.
  for (const char* form : {" --stats", " --estimate --estimate-seconds 0.1"}) {
    const cli_run timed = run_cli(std::string("plan 14 --engine symmetric --max-memory 1M") + form);
    ASSERT_EQ(timed.status, 0) << form << ": " << timed.err;
    EXPECT_NE(timed.out.find("\n  given --engine symmetric --split-depth " + depth + "\n"), std::string::npos)
        << form << ": " << timed.out;
  }
  for (const char* command :
       {"plan 14 --engine symmetric", "plan 14 --engine symmetric --max-memory 1M --split-depth 3"}) {
    const cli_run r = run_cli(command);
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out.find("fitted"), std::string::npos) << command << ": " << r.out;
    const cli_run json = run_cli(std::string(command) + " --json");
    EXPECT_NE(json.out.find("\"fitted_to_memory\":false"), std::string::npos) << command << ": " << json.out;
  }
  const cli_run json = run_cli("plan 14 --engine symmetric --max-memory 1M --json");
  EXPECT_NE(json.out.find("\"fitted_to_memory\":true"), std::string::npos) << json.out;
}

// A plan refused for the bound names the split that fits, as count's
// refusal of the same run does, in the same words.
TEST(CliTest, PlanRefusedForTheBoundNamesTheSplitThatFits) {
  const std::string options = " 17 --engine symmetric --split-depth 4 --max-memory 1M --threads 1";
  const cli_run planned = run_cli("plan" + options);
  EXPECT_EQ(planned.status, 2) << planned.err;
  EXPECT_EQ(lines_in(planned.err), 1) << planned.err;
  EXPECT_NE(planned.err.find("(--split-depth 3 fits"), std::string::npos) << planned.err;
  const cli_run counted = run_cli("count" + options);
  EXPECT_EQ(counted.status, 2) << counted.err;
  EXPECT_EQ(planned.err, counted.err);
}

// At n = 28 the quadrant engine's automatic split does not fit in 3000 MiB
// but a shallower one does: auto picks it there (not the symmetric engine,
// a count of years), fitted, as a count alone would.
TEST(CliTest, AutoPicksTheQuadrantEngineAtAShallowerSplitWhereOnlyThatFits) {
  const cli_run picked = run_cli("plan 28 --max-memory 3000M");
  ASSERT_EQ(picked.status, 0) << picked.err;
  EXPECT_NE(picked.out.find("engine quadrant, split depth "), std::string::npos) << picked.out;
  EXPECT_NE(picked.out.find("given --engine quadrant --split-depth "), std::string::npos) << picked.out;
}

// Auto weighs the plan's lists too: at n = 23 the quadrant engine's tables
// fit in 80 MiB but not beside its 4 * 10^6 subproblems' lists (33 MiB), so
// auto picks the symmetric engine, which fits, rather than a refusal.
TEST(CliTest, AutoPicksAnEngineWhoseListsFitToo) {
  const cli_run quadrant = run_cli("plan 23 --engine quadrant --threads 2 --max-memory 80M");
  EXPECT_EQ(quadrant.status, 2);
  EXPECT_NE(quadrant.err.find("its lists (the plan's"), std::string::npos) << quadrant.err;
  const cli_run picked = run_cli("plan 23 --threads 2 --max-memory 80M");
  EXPECT_EQ(picked.status, 0) << picked.err;
  EXPECT_NE(picked.out.find("engine symmetric"), std::string::npos) << picked.out;
  // Shards and MPI take n's fastest engine whatever the bound: they count
  // this plan only where told the engine.
  EXPECT_NE(picked.out.find("engine chosen to fit --max-memory; shards, journals and MPI count this plan\n"
                            "  given --engine symmetric\n"),
            std::string::npos)
      << picked.out;
  const cli_run picked_json = run_cli("plan 23 --threads 2 --max-memory 80M --json");
  EXPECT_NE(picked_json.out.find("\"fitted_to_memory\":true"), std::string::npos) << picked_json.out;
  const cli_run roomy = run_cli("plan 23 --threads 2 --max-memory 128M");
  EXPECT_EQ(roomy.status, 0) << roomy.err;
  EXPECT_NE(roomy.out.find("engine quadrant"), std::string::npos) << roomy.out;
  EXPECT_EQ(roomy.out.find("to fit"), std::string::npos) << roomy.out;
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

// The draws follow a seed, 1 unless --seed gives another: a second run with
// the default draws the same subproblems (it checks the machine, not the
// draw), another seed draws others, and says which in text and JSON.
TEST(CliTest, PlanEstimateDrawsAnotherSampleFromAnotherSeed) {
  const std::string sample = "plan 18 --engine symmetric --estimate --estimate-seconds 0.2 --threads 2 --json";
  const cli_run first = run_cli(sample), other = run_cli(sample + " --seed 2");
  ASSERT_EQ(first.status, 0) << first.err;
  ASSERT_EQ(other.status, 0) << other.err;
  const std::regex total("\"projected_total\":([0-9.e+]+),");
  std::smatch a, b;
  ASSERT_TRUE(std::regex_search(first.out, a, total)) << first.out;
  ASSERT_TRUE(std::regex_search(other.out, b, total)) << other.out;
  EXPECT_NE(first.out.find("\"seed\":1,"), std::string::npos) << first.out;
  EXPECT_NE(other.out.find("\"seed\":2,"), std::string::npos) << other.out;
  EXPECT_EQ(first.out.find("\"ended\":\"exhausted\""), std::string::npos) << first.out;  // a sample, not the plan
  EXPECT_NE(a[1].str(), b[1].str()) << "the same Q(18) from both seeds: " << a[1] << ", " << b[1];
  const cli_run text = run_cli("plan 16 --estimate --estimate-seconds 0.2 --threads 2 --seed 7");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find(" of sampling on 2 threads, seed 7: "), std::string::npos) << text.out;
}

// `plan N --estimate` samples for about the time asked and projects the
// count's thread-hours and wall time, here and on --cores, in text and JSON;
// it goes with no --stats, and --cores or --estimate-seconds with it alone;
// --progress goes with --stats alone (the only run it could show), not
// ignored elsewhere; --no-progress is taken anywhere (a wrapper's).
TEST(CliTest, PlanEstimateProjectsTheCost) {
  cli_run r = run_cli("plan 16 --estimate --estimate-seconds 0.5 --cores 64 --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  // However long the sampling took (a loaded machine stretches it past its 0.5 s).
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nestimate from [0-9]+\\.[0-9] s of sampling on 2 threads: ")))
      << r.out;
  EXPECT_NE(r.out.find("thread-hours (one standard error)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("here,  2 threads      about "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("on 64 cores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Q(16) from the sample "), std::string::npos) << r.out;
  // Standard errors off, or the same where the draws happened to cover every stratum.
  EXPECT_NE(r.out.find("published 14772512, "), std::string::npos) << r.out;
  // A small board's sample is exact, and says so beside the published count.
  const cli_run exact = run_cli("plan 8 --estimate --threads 2");
  EXPECT_EQ(exact.status, 0) << exact.err;
  EXPECT_NE(exact.out.find("  Q(8) from the sample 92 +- 0.0%; published 92, the same\n"), std::string::npos)
      << exact.out;
  const cli_run exact_json = run_cli("plan 8 --estimate --threads 2 --json");
  EXPECT_EQ(exact_json.status, 0) << exact_json.err;
  EXPECT_NE(exact_json.out.find("\"ended\":\"exhausted\",\"verified\":true"), std::string::npos) << exact_json.out;
  // Past the plan's subproblems, more cores are said to leave some idle;
  // the figures stay in their column at 100 threads and more.
  r = run_cli("plan 9 --estimate --estimate-seconds 0.2 --cores 100000 --threads 100");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  on 100000 cores       about "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" subproblems keeping at most as many busy\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  here, 100 threads     about "), std::string::npos) << r.out;
  r = run_cli("plan 16 --estimate --estimate-seconds 0.5 --cores 64 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* key : {"\"thread_hours\":", "\"thread_hours_error\":", "\"wall_seconds\":", "\"cores\":64,",
                          "\"wall_seconds_on_cores\":", "\"projected_total\":", "\"sample_runs\":", "\"draws_cut\":0,",
                          "\"rotation_runs\":", "\"rotation_sampled\":"}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
  }
  EXPECT_EQ(lines_in(r.out), 1);
  for (const char* bad :
       {"plan 16 --estimate --stats", "plan 16 --cores 4", "plan 16 --estimate-seconds 2", "plan 16 --seed 2",
        "plan 16 --estimate --seed -1", "plan 16 --estimate --seed x", "plan 16 --estimate --estimate-seconds 0",
        "plan 16 --estimate --cores 0", "plan 16 --progress", "plan 16 --estimate --estimate-seconds 0.5 --progress"}) {
    r = run_cli(bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(lines_in(r.err), 1) << bad << ": " << r.err;
  }
  r = run_cli("plan 16 --progress");
  EXPECT_EQ(r.err, "nqueens: --progress goes with --stats, whose run it shows (--estimate shows none)\n");
  for (const char* quiet : {"plan 12 --stats --no-progress --threads 1", "plan 12 --no-progress",
                            "plan 12 --estimate --estimate-seconds 0.2 --no-progress"}) {
    r = run_cli(quiet);
    EXPECT_EQ(r.status, 0) << quiet << ": " << r.err;
  }
}

// A plan whose subproblems take minutes (Q(20) in ten): the sampling stops
// the draws at twice its time and, none of the engine's ended, says so in
// one line, exit 3, rather than run for minutes or project the rotation
// search's light tasks alone.
TEST(CliTest, PlanEstimateOfSubproblemsLongerThanItsTimeIsRefusedAtTwiceIt) {
  const cli_run r = run_cli("plan 20 --engine symmetric --split-depth 1 --estimate --estimate-seconds 0.1 --threads 1");
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(r.err.rfind("nqueens: error: no draw of the engine's subproblems ended within 0.2 s (twice the sampling "
                        "time): ",
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("; sample longer, or split the plan finer\n"), std::string::npos) << r.err;
  EXPECT_EQ(lines_in(r.err), 1) << r.err;
  EXPECT_EQ(r.out, "");
}

// The GPU engine's estimate says what its draws asked of the device, as a
// count does: where the host's bound leaves the tables out (9 MiB: the
// layouts' margin and n = 12's lists), the lists a subproblem takes to
// build and to stage, in text and JSON.
// A thin sample's warnings, said on stderr, are in --json's "warnings"
// too, word for word, for a script that reads only that; a sample of the
// whole plan has none.
TEST(CliTest, PlanEstimateWarningsAreInItsJson) {
  // A draw here takes tens of ms; under TSan or on a loaded machine none may
  // end within twice 0.1 s (exit 3, said so): a longer sample is then as thin.
  cli_run thin;
  for (const char* seconds : {"0.1", "1", "10"}) {
    thin = run_cli("plan 17 --engine symmetric --split-depth 1 --estimate --estimate-seconds " + std::string(seconds) +
                   " --threads 1 --json");
    if (thin.status != 3 || thin.err.find("no draw of the engine's subproblems ended within") == std::string::npos) {
      break;
    }
  }
  EXPECT_EQ(thin.status, 0) << thin.err;
  EXPECT_NE(thin.err.find("nqueens: warning: the estimate rests on "), std::string::npos) << thin.err;
  const std::string prefix = "nqueens: warning: ";
  std::size_t said = 0;
  for (std::size_t at = thin.err.find(prefix); at != std::string::npos; at = thin.err.find(prefix, at + 1)) {
    const std::size_t end = thin.err.find('\n', at);
    const std::string warning = thin.err.substr(at + prefix.size(), end - at - prefix.size());
    EXPECT_NE(thin.out.find('"' + warning + '"'), std::string::npos) << warning << "\n" << thin.out;
    ++said;
  }
  EXPECT_EQ(static_cast<std::size_t>(std::count(thin.out.begin(), thin.out.end(), '"')) % 2, 0U);
  const std::size_t list = thin.out.find("\"warnings\":[\"");
  ASSERT_NE(list, std::string::npos) << thin.out;
  EXPECT_EQ(
      static_cast<std::size_t>(std::count(thin.out.begin() + static_cast<std::ptrdiff_t>(list), thin.out.end(), '"')) -
          2,
      2 * said)
      << thin.out;
  const cli_run whole = run_cli("plan 8 --estimate --threads 2 --json");
  EXPECT_EQ(whole.status, 0) << whole.err;
  EXPECT_NE(whole.out.find(",\"warnings\":[]}"), std::string::npos) << whole.out;
  EXPECT_EQ(whole.err, "");
}

// A sample whose one CPU a busy loop shares keeps about half of it busy
// (the scheduler's fair share), says so in "busy_threads" and warns that a
// count beside that load takes longer than its wall time here: the thread
// time is the draws' own, the wall time assumes the CPU whole. Q(20)'s plan
// takes hundreds of draws of 10 ms or more to bring its error within 2%: its
// one thread draws for the 2 s asked, over the second the warning asks of a
// stretch to judge, on a CPU many times this one's.
TEST(CliTest, PlanEstimateWarnsOfASampleThatSharedItsCpus) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "Q(20)'s tables and draws take many times as long when sanitized";
#endif
  const cli_run r = run_script(busy_loop_on_one_cpu() + on_one_cpu() +
                               "$NQ plan 20 --engine quadrant --estimate --estimate-seconds 2 --threads 1 --json");
  if (r.status == 77) GTEST_SKIP() << "no taskset here, or it may not set the CPUs";
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t busy = r.out.find("\"busy_threads\":");
  ASSERT_NE(busy, std::string::npos) << r.out;
  EXPECT_LT(std::stod(r.out.substr(busy + 15)), 0.75) << r.out;
  EXPECT_NE(r.err.find("nqueens: warning: the sampling kept 0."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" of the 1 CPU it ran on busy: another process was using the cores"), std::string::npos)
      << r.err;
}

// Threads past this machine's cores share them: the wall time here is no
// less than the thread time spread over the cores (with 64 threads on two it
// once read as spread over 64).
TEST(CliTest, PlanEstimateHereCountsNoMoreThreadsThanCores) {
  const cli_run r = run_cli("plan 13 --engine symmetric --estimate -t 64 --estimate-seconds 0.5 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto number = [&](const std::string& key) {
    const std::size_t at = r.out.find("\"" + key + "\":");
    return at == std::string::npos ? -1.0 : std::stod(r.out.substr(at + key.size() + 3));
  };
  const double cores = std::min(64, nqueens::hardware_threads());
  EXPECT_GE(number("wall_seconds"), number("thread_hours") * 3600 / cores * 0.999) << r.out;
}

TEST(CliTest, PlanEstimateOfTheGpuEngineSaysWhatItsListsCost) {
  // Seconds enough for an emulated draw to end on a loaded machine (at 0.3
  // a draw past twice that failed the run): the sample ends anyway once it
  // has drawn the whole small plan, in a fifth of a second.
  const std::string seconds = "3";
  const std::string plan = "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) +
                           " plan 12 --engine gpu --estimate " + "--estimate-seconds " + seconds +
                           " --threads 1 --max-memory 9M";
  cli_run r = run_cli_command(plan);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  own quarter lists a subproblem: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms of host thread time, "), std::string::npos) << r.out;
  r = run_cli_command(plan + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const cli::json_members m = cli::json_members::parse(r.out);
  for (const char* key : {"device_launches", "host_list_seconds", "staged_list_bytes"}) {
    const cli::json_value* v = m.find(key);
    ASSERT_NE(v, nullptr) << key << " in " << r.out;
    EXPECT_GT(std::strtod(v->text.c_str(), nullptr), 0.0) << key << " in " << r.out;
  }
  EXPECT_NE(r.out.find("\"round_phase_seconds\":{\"between\":"), std::string::npos) << r.out;
}

// --devices and --gpu-memory reach the GPU engine's plan, --stats and
// --estimate as they reach a count: a bound under the least it needs is
// refused, one over it is used; with an engine that counts on the CPU,
// refused. Without them a plain plan needs no GPU.
TEST(CliTest, PlanRunsTheGpuEngineWithinGpuMemory) {
  const std::string plan = "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " plan 14 --engine gpu --threads 2";
  // Seconds enough for an emulated draw to end on a loaded machine (0.3 did not).
  for (const char* timing : {"", " --stats", " --estimate --estimate-seconds 3"}) {
    const cli_run small = run_cli_command(plan + timing + " --gpu-memory 1M");
    EXPECT_EQ(small.status, 2) << timing << ": " << small.err;
    EXPECT_EQ(small.err.rfind("nqueens: the gpu engine needs at least ", 0), 0u) << small.err;
    const cli_run enough = run_cli_command(plan + timing + " --gpu-memory 64M");
    EXPECT_EQ(enough.status, 0) << timing << ": " << enough.err;
    const cli_run absent = run_cli_command(plan + timing + " --devices 7");
    EXPECT_EQ(absent.status, 2) << timing << ": " << absent.err;
  }
  // Past a GiB the need is named in GiB, which --gpu-memory takes only
  // whole: the refusal gives the figure to pass back, and it is enough.
  const std::string plan28 =
      "NQUEENS_GPU=emulate " + std::string(NQUEENS_CLI_PATH) + " plan 28 --engine gpu --threads 2";
  const cli_run large = run_cli_command(plan28 + " --gpu-memory 1M");
  EXPECT_EQ(large.status, 2) << large.err;
  EXPECT_NE(large.err.find(" GiB of each GPU for n = 28"), std::string::npos) << large.err;
  const std::size_t to = large.err.find("raise --gpu-memory to ");
  ASSERT_NE(to, std::string::npos) << large.err;
  const std::string figure = large.err.substr(to + 22, large.err.find(' ', to + 22) - (to + 22));
  EXPECT_EQ(run_cli_command(plan28 + " --gpu-memory " + figure).status, 0) << figure;
  const std::string less = std::to_string(std::stoull(figure) - 1) + figure.substr(figure.size() - 1);
  EXPECT_EQ(run_cli_command(plan28 + " --gpu-memory " + less).status, 2) << less;
  const cli_run no_gpu =
      run_cli_command("NQUEENS_GPU=device " + std::string(NQUEENS_CLI_PATH) + " plan 14 --engine gpu --threads 1");
  EXPECT_EQ(no_gpu.status, 0) << no_gpu.err;
  // Where the GPUs are there, --threads too few to drive them, which count
  // refuses, is refused by a plain plan too.
  const std::string on_two = "NQUEENS_GPU=emulate:2 " + std::string(NQUEENS_CLI_PATH) + " plan 14 --engine gpu";
  const cli_run too_few = run_cli_command(on_two + " --threads 1");
  EXPECT_EQ(too_few.status, 2) << too_few.err;
  EXPECT_NE(too_few.err.find("1 thread cannot keep the 2 GPUs"), std::string::npos) << too_few.err;
  EXPECT_EQ(run_cli_command(on_two + " --threads 2").status, 0);
  // And the default threads, the hardware's, as count takes them: a plain
  // plan and a count agree (64 GPUs: more than this machine's threads, but
  // on a machine of 64 or more, both are taken).
  const std::string on_many = "NQUEENS_GPU=emulate:64 " + std::string(NQUEENS_CLI_PATH);
  const cli_run plan_default = run_cli_command(on_many + " plan 14 --engine gpu");
  const cli_run count_default = run_cli_command(on_many + " count 1 --engine gpu");
  EXPECT_EQ(plan_default.status, count_default.status) << plan_default.err << count_default.err;
  EXPECT_EQ(plan_default.err, count_default.err);
  const cli_run cpu = run_cli("plan 12 --engine quadrant --gpu-memory 1G");
  EXPECT_EQ(cpu.status, 2) << cpu.err;
  EXPECT_NE(cpu.err.find("the quadrant engine counts on the CPU: it applies to --engine gpu only"), std::string::npos)
      << cpu.err;
}

// A sample that counted every subproblem, and a --stats run, are counts: a
// miscount fails them (exit 1) as it fails `count`. Emulated GPUs whose
// rounds of counts each add 8 times a job's weight
// (NQUEENS_GPU_TEST_FAULT=miscount): n = 9's 333 subproblems make 6 draws
// of 64, fewer than min_estimate_runs, so the sample never stops as
// precise and counts them all.
TEST(CliTest, PlanCountsThatMiscountFail) {
  const std::string plan = "NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=miscount " + std::string(NQUEENS_CLI_PATH) +
                           " plan 9 --engine gpu --threads 2";
  const cli_run estimate = run_cli_command(plan + " --estimate");
  EXPECT_EQ(estimate.status, 1) << estimate.err;
  EXPECT_NE(estimate.out.find("every subproblem counted: exact"), std::string::npos) << estimate.out;
  EXPECT_NE(estimate.out.find("; published 352, NOT the same: a miscount\n"), std::string::npos) << estimate.out;
  EXPECT_NE(estimate.err.find("the sample counted every subproblem and its Q(9) differs from the published value\n"),
            std::string::npos)
      << estimate.err;
  const cli_run estimate_json = run_cli_command(plan + " --estimate --json");
  EXPECT_EQ(estimate_json.status, 1) << estimate_json.err;
  EXPECT_NE(estimate_json.out.find("\"verified\":false"), std::string::npos) << estimate_json.out;
  const cli_run stats = run_cli_command(plan + " --stats");
  EXPECT_EQ(stats.status, 1) << stats.err;
  EXPECT_NE(stats.out.find(" MISMATCH: published value is 352\n"), std::string::npos) << stats.out;
  const cli_run stats_json = run_cli_command(plan + " --stats --json");
  EXPECT_EQ(stats_json.status, 1) << stats_json.err;
  EXPECT_NE(stats_json.out.find("\"verified\":false"), std::string::npos) << stats_json.out;
}

// The JSON carries the figures the text shows, however small: n = 8's
// thread-hours (about 1e-8) were written as 0.000000.
TEST(CliTest, PlanEstimateJsonKeepsTinyFigures) {
  const cli_run r = run_cli("plan 8 --estimate --estimate-seconds 0.5 --threads 1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const cli::json_members m = cli::json_members::parse(r.out);
  for (const char* key : {"thread_hours", "wall_seconds"}) {
    const cli::json_value* v = m.find(key);
    ASSERT_NE(v, nullptr) << key << " in " << r.out;
    ASSERT_EQ(v->type, cli::json_type::number) << key << " in " << r.out;
    EXPECT_GT(std::strtod(v->text.c_str(), nullptr), 0.0) << key << " in " << r.out;
  }
}

}  // namespace
}  // namespace nqueens::test
