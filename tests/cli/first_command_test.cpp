// `nqueens first`: one solution by formula.

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

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

}  // namespace
}  // namespace nqueens::test
