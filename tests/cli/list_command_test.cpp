// `nqueens list`: every solution, in each format.

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

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

}  // namespace
}  // namespace nqueens::test
