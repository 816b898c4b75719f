// Every instruction-set path through the real tool: NQUEENS_ISA forces one,
// for every engine. The axes are the library's own lists (all_isas, the
// registry), so a new engine or instruction set is tested by being added.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"
#include "support/axes.hpp"

namespace nqueens::testing {
namespace {

struct tool_run {
  int status = -1;
  std::string out;
};

// Runs the tool with NQUEENS_ISA=`kernels` and `args`; stdout captured.
tool_run run_with_isa(isa kernels, const std::string& args) {
  const auto out = std::filesystem::temp_directory_path() /
                   ("nqueens-isa-" + std::to_string(::getpid()) + "-" + name_of(kernels) + ".out");
  const std::string command =
      "NQUEENS_ISA=" + name_of(kernels) + " " + NQUEENS_CLI_PATH + " " + args + " >" + out.string() + " </dev/null";
  const int raw = std::system(command.c_str());
  tool_run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  r.out = text.str();
  std::filesystem::remove(out);
  return r;
}

class IsaPathTest : public ::testing::TestWithParam<std::tuple<isa, engine>> {};

TEST_P(IsaPathTest, VerifiesOneToFifteen) {
  const auto [kernels, kind] = GetParam();
  NQUEENS_SKIP_UNLESS_SUPPORTED(kernels);
  NQUEENS_SKIP_GPU_UNLESS_PORTABLE(kind, kernels);
  const tool_run r = run_with_isa(kernels, "verify --from 1 --to 15 --engine " + name_of(kind));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("all 15 counts match"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(EveryIsaAndEngine, IsaPathTest,
                         ::testing::Combine(::testing::ValuesIn(all_isas()), ::testing::ValuesIn(registered_engines())),
                         [](const auto& info) {
                           return name_of(std::get<0>(info.param)) + "_" + name_of(std::get<1>(info.param));
                         });

class IsaCountTest : public ::testing::TestWithParam<isa> {};

// The default engine at n = 17, seconds natively: the JSON names the kernels.
TEST_P(IsaCountTest, CountsSeventeen) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "minutes when sanitized";
#endif
  const isa kernels = GetParam();
  NQUEENS_SKIP_UNLESS_SUPPORTED(kernels);
  const tool_run r = run_with_isa(kernels, "count 17 --json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"total\":95815104,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"isa\":\"" + name_of(kernels) + "\""), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, IsaCountTest, ::testing::ValuesIn(all_isas()),
                         [](const auto& info) { return name_of(info.param); });

// The hidden --list prints the same lists, for the completion and CTest.
TEST(ListTest, NamesEveryEngineIsaCommandAndFormat) {
  std::string engines, isas;
  for (const engine e : registered_engines()) engines += name_of(e) + "\n";
  for (const isa k : all_isas()) isas += name_of(k) + "\n";
  EXPECT_EQ(run_with_isa(isa::portable, "--list engines").out, engines);
  EXPECT_EQ(run_with_isa(isa::portable, "--list isas").out, isas);
  EXPECT_EQ(run_with_isa(isa::portable, "--list nothing").status, 2);
  // The commands in the order of the usage text, and the formats --format takes.
  const std::string commands = run_with_isa(isa::portable, "--list commands").out;
  EXPECT_EQ(commands.substr(0, 6), "count\n") << commands;
  const std::string usage = run_with_isa(isa::portable, "--help").out;
  for (std::size_t at = 0, end; (end = commands.find('\n', at)) != std::string::npos; at = end + 1) {
    EXPECT_NE(usage.find("\n  " + commands.substr(at, end - at) + " "), std::string::npos)
        << commands.substr(at, end - at);
  }
  EXPECT_EQ(run_with_isa(isa::portable, "--list formats").out, "tuple\nboard\nfen\n");
}

}  // namespace
}  // namespace nqueens::testing
