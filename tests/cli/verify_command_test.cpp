// `nqueens verify`: every board of a range against the published tables.

#include <algorithm>
#include <sstream>
#include <string>

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

TEST(CliTest, VerifyChecksAllFourColumnsWithTheAutoEngine) {
  const cli_run r = run_cli("verify --from 12 --to 17 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"engine\":\"auto\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"n\":16,\"total\":14772512,\"unique\":1846955,\"symmetric_180\":3000,\"symmetric_90\":64,"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"engine\":\"quadrant\""), std::string::npos) << r.out;  // auto picks it at 16 and 17
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  // Each row names its plan, as count's JSON does: the same for n = 12.
  const cli_run twelve = run_cli("count 12 --json");
  const auto plan_of = [](const std::string& json) {
    const std::size_t at = json.find("\"subproblems\":");
    return at == std::string::npos ? std::string()
                                   : json.substr(at, json.find(',', json.find("plan_fingerprint")) - at);
  };
  const std::string keys = plan_of(twelve.out);
  ASSERT_NE(keys.find("\"split_depth\":"), std::string::npos) << twelve.out;
  EXPECT_NE(r.out.find(keys), std::string::npos) << keys << "\n" << r.out;
}

// The table's heading has a word for each column, as a row has, so that
// awk and CI logs read it: "half turn" was two.
TEST(CliTest, VerifyHeadsEachColumnWithOneWord) {
  const cli_run r = run_cli("verify --to 9");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string heading;
  std::string row;
  ASSERT_TRUE(std::getline(lines, heading) && std::getline(lines, row)) << r.out;
  const auto words = [](const std::string& line) {
    std::istringstream in(line);
    std::size_t count = 0;
    for (std::string word; in >> word;) ++count;
    return count;
  };
  EXPECT_EQ(words(heading), words(row)) << heading << "\n" << row;
}

// An engine this machine cannot run is refused before a line is printed:
// exit 2, stdout empty, as count does.
TEST(CliTest, VerifyRefusesAnEngineItCannotRunBeforePrinting) {
  const cli_run r =
      run_cli_command(std::string("NQUEENS_GPU=device ") + NQUEENS_CLI_PATH + " verify --to 5 --engine gpu");
  if (r.status == 0) GTEST_SKIP() << "this machine has a usable GPU";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("nqueens: --engine gpu needs an NVIDIA GPU: ", 0), 0u) << r.err;
}

// A GPU that fails mid-range ends it with its error (exit 3, one line),
// naming the count it ended: the rows before it are on stdout.
TEST(CliTest, VerifyNamesTheCountAGpuFailureEnded) {
  const cli_run r = run_cli_command(std::string("NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=0 ") + NQUEENS_CLI_PATH +
                                    " verify --from 4 --to 6 --engine gpu --threads 1");
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("an emulated fault (NQUEENS_GPU_TEST_FAULT)"), std::string::npos) << r.err;
  EXPECT_TRUE(r.err.ends_with(" (while counting Q(4))\n")) << r.err;
}

// The regression check fails on a wrong count: an engine that miscounts
// (emulated GPUs whose rounds of counts each add 8 times a job's weight,
// NQUEENS_GPU_TEST_FAULT=miscount) is exit 1, every board named, as text
// and as JSON, where the same boards without the fault pass.
TEST(CliTest, VerifyFailsOnAnEngineThatMiscounts) {
  const std::string verify = std::string(NQUEENS_CLI_PATH) + " verify --engine gpu --from 8 --to 9 --threads 2";
  const cli_run text = run_cli_command("NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=miscount " + verify);
  EXPECT_EQ(text.status, 1) << text.err;
  EXPECT_NE(text.out.find("2 of 2 counts DO NOT match the published values"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("   published: 92 12 4 0\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("   published: 352 46 16 0\n"), std::string::npos) << text.out;
  const cli_run json = run_cli_command("NQUEENS_GPU=emulate NQUEENS_GPU_TEST_FAULT=miscount " + verify + " --json");
  EXPECT_EQ(json.status, 1) << json.err;
  EXPECT_NE(json.out.find("\"checked\":2,\"mismatches\":2,\"ok\":false,"), std::string::npos) << json.out;
  const cli_run sound = run_cli_command("NQUEENS_GPU=emulate " + verify);
  EXPECT_EQ(sound.status, 0) << sound.err;
  EXPECT_NE(sound.out.find("all 2 counts match"), std::string::npos) << sound.out;
}

// --max-memory bounds each count as count's does: auto picks, board by
// board, an engine that fits; an engine that does not is refused before a
// line is printed.
TEST(CliTest, VerifyKeepsEachCountWithinMaxMemory) {
  const cli_run fits = run_cli("verify --from 12 --to 17 --max-memory 4M --json");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_NE(fits.out.find("\"ok\":true"), std::string::npos) << fits.out;
  EXPECT_EQ(fits.out.find("\"engine\":\"quadrant\""), std::string::npos) << "quadrant needs more: " << fits.out;
  const cli_run refused = run_cli("verify --to 14 --engine quadrant --max-memory 4M");
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("more than the 4 MiB allowed (--max-memory)"), std::string::npos) << refused.err;
  // The engine fits at every n, but not with the plan's lists at n = 17: refused
  // before Q(8)'s row, not after Q(16)'s.
  const cli_run lists = run_cli("verify --from 8 --to 18 --engine quadrant --threads 2 --max-memory 10878976");
  EXPECT_EQ(lists.status, 2) << lists.err;
  EXPECT_EQ(lists.out, "");
  EXPECT_NE(lists.err.find("for n = 17 and its lists"), std::string::npos) << lists.err;
}

TEST(CliTest, VerifyDefaultRangePasses) {
  const cli_run r = run_cli("verify");
  EXPECT_EQ(r.status, 0) << r.err;
  // A row for each n of 1..15, each OK.
  std::istringstream rows(r.out);
  int ok_rows = 0;
  for (std::string row; std::getline(rows, row);) {
    if (row.size() > 4 && row.ends_with(" OK") && std::stoi(row) == ok_rows + 1) ++ok_rows;
  }
  EXPECT_EQ(ok_rows, 15) << r.out;
  EXPECT_LE(widest_line(r.out), 80U) << r.out;  // an 80-column terminal wraps none
  // Each row's columns under their headers: the status under "status", the
  // engine's name under "engine", across two engines' rows.
  const cli_run two = run_cli("verify --from 14 --to 16");
  ASSERT_EQ(two.status, 0) << two.err;
  std::istringstream lines(two.out);
  std::string header;
  std::getline(lines, header);
  const std::size_t status = header.find(" status"), engine = header.find(" engine");
  ASSERT_NE(status, std::string::npos) << header;
  ASSERT_NE(engine, std::string::npos) << header;
  int rows_seen = 0;
  for (std::string row; std::getline(lines, row) && !row.starts_with("all ");) {
    EXPECT_EQ(row.rfind(" OK"), status) << header << "\n" << row;
    EXPECT_EQ(row.substr(engine, 2).front(), ' ') << header << "\n" << row;
    EXPECT_NE(row[engine + 1], ' ') << header << "\n" << row;
    ++rows_seen;
  }
  EXPECT_EQ(rows_seen, 3) << two.out;
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all 15 counts match"), std::string::npos) << r.out;
}

// verify takes count's GPU options: two of a node of three GPUs (emulated)
// on two threads, where all three would want three; a CPU engine refuses them.
TEST(CliTest, VerifyTakesTheGpuOptions) {
  const std::string nq = "NQUEENS_GPU=emulate:3 " + std::string(NQUEENS_CLI_PATH) + " verify --engine gpu --to 10";
  const cli_run two = run_cli_command(nq + " --threads 2 --devices 0,2 --gpu-memory 1G");
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_NE(two.out.find("all 10 counts match"), std::string::npos) << two.out;
  const cli_run three = run_cli_command(nq + " --threads 2");
  EXPECT_EQ(three.status, 2) << three.err;
  EXPECT_NE(three.err.find("cannot keep the 3 GPUs"), std::string::npos) << three.err;
  const cli_run cpu = run_cli("verify --to 9 --engine symmetric --devices 0");
  EXPECT_EQ(cpu.status, 2) << cpu.err;
  EXPECT_NE(cpu.err.find("--devices chooses GPUs, and the symmetric engine counts on the CPU"), std::string::npos)
      << cpu.err;
  EXPECT_EQ(cpu.out, "");
}

// --from alone runs to the default end, or checks that one size where it
// lies past it (never refused against an end the user did not type).
TEST(CliTest, VerifyFromAloneEndsAtTheDefaultOrAtItself) {
  const cli_run within = run_cli("verify --from 14 --json");
  EXPECT_EQ(within.status, 0) << within.err;
  EXPECT_NE(within.out.find("\"from\":14,\"to\":15"), std::string::npos) << within.out;
  const cli_run past = run_cli("verify --from 16 --json");
  EXPECT_EQ(past.status, 0) << past.err;
  EXPECT_NE(past.out.find("\"from\":16,\"to\":16"), std::string::npos) << past.out;
  EXPECT_NE(past.out.find("\"n\":16,\"total\":14772512"), std::string::npos) << past.out;
}

// --progress names each count by its board, in a log too (stderr no
// terminal: a line at each count's end); the rows are the same.
TEST(CliTest, VerifyProgressNamesEachBoard) {
  const cli_run r = run_cli("verify --from 10 --to 12 --progress");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* board :
       {"progress: Q(10), 1 of 3  100.0%", "progress: Q(11), 2 of 3  100.0%", "progress: Q(12), 3 of 3  100.0%"}) {
    EXPECT_NE(r.err.find(board), std::string::npos) << board << r.err;
  }
  EXPECT_NE(r.out.find("\n12 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("progress"), std::string::npos) << r.out;
  const cli_run quiet = run_cli("verify --from 10 --to 12 --no-progress");
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

TEST(CliTest, VerifyJsonListsEveryBoard) {
  const cli_run r = run_cli("verify --from 4 --to 9 --json --threads 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_in(r.out), 1);
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"n\":9,\"total\":352"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"n\":10,"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace nqueens::test
