// `nqueens rotational`: the rotation-symmetric solutions alone.

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

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

}  // namespace
}  // namespace nqueens::test
