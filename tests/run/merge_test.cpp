#include "nqueens/merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "nqueens/count.hpp"
#include "nqueens/known_counts.hpp"

namespace nqueens {
namespace {

// The parts of count(n) in `shards` shards, as separate machines would count them.
std::vector<count_result> parts_of(int n, int shards, engine kind = engine::symmetric) {
  std::vector<count_result> parts;
  for (int i = 0; i < shards; ++i) parts.push_back(count(n, {.kind = kind, .threads = 2, .shard = {i, shards}}));
  return parts;
}

std::string problems_of(const merge_error& e) {
  std::string all;
  for (const std::string& p : e.problems()) all += p + "\n";
  return all;
}

// The parts, in any order, add up to the whole count, verified, with the
// fundamental count derived; each part alone verifies nothing.
TEST(MergeTest, PartsInAnyOrderMakeTheWholeCount) {
  for (const engine kind : {engine::symmetric, engine::mirror, engine::quadrant}) {
    std::vector<count_result> parts = parts_of(12, 3, kind);
    EXPECT_FALSE(parts[0].check.verified());
    std::shuffle(parts.begin(), parts.end(), std::mt19937(12));
    const count_result whole = merge(parts);
    const count_result direct = count(12, {.kind = kind, .threads = 2});
    EXPECT_EQ(whole.total, direct.total) << to_string(kind);
    EXPECT_EQ(whole.unique, direct.unique);
    EXPECT_EQ(whole.symmetric_180, direct.symmetric_180);
    EXPECT_EQ(whole.symmetric_90, direct.symmetric_90);
    EXPECT_TRUE(whole.check.verified());
    EXPECT_TRUE(whole.shard.whole());
    EXPECT_EQ(whole.finished, direct.subproblems);
    EXPECT_EQ(whole.plan_fingerprint, direct.plan_fingerprint);
  }
  // The parts' costs are added up, not taken from one of them.
  std::vector<count_result> parts = parts_of(12, 3);
  double cpu = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    parts[k].cpu_seconds = 1.0 + static_cast<double>(k);
    parts[k].journal_bytes_cut = k;
    cpu += parts[k].cpu_seconds;
  }
  parts[1].journal_unfinished = "a full disk";
  parts[2].journal_unfinished = "a read-only folder";
  const count_result whole = merge(parts);
  EXPECT_DOUBLE_EQ(whole.cpu_seconds, cpu);
  EXPECT_EQ(whole.journal_bytes_cut, 3U);
  EXPECT_EQ(whole.journal_unfinished, "a full disk; a read-only folder");
}

// Every missing shard is named, however many, in runs as sbatch --array
// takes them.
TEST(MergeTest, EveryMissingShardIsNamedInRanges) {
  const std::vector<count_result> all = parts_of(12, 64);
  const std::vector<count_result> some = {all[5], all[9], all[10], all[63]};
  try {
    merge(some);
    FAIL() << "merged 4 of 64 shards";
  } catch (const merge_error& e) {
    EXPECT_EQ(problems_of(e), "60 of 64 shards missing: 0-4,6-8,11-62\n");
  }
}

// Parts that do not make one run are refused with every problem, by name:
// another plan (engines chosen per machine, or another split depth), a
// shard twice, shards missing, a part that did not finish.
TEST(MergeTest, PartsOfAnotherRunRepeatsAndGapsAreAllListed) {
  std::vector<count_result> parts = parts_of(12, 4);
  const count_result other = count(12, {.kind = engine::mirror, .threads = 2, .shard = {2, 4}});
  std::vector<count_result> mixed = {parts[0], parts[0], other};
  const std::vector<std::string> names = {"a.json", "b.json", "c.json"};
  try {
    merge(mixed, names);
    FAIL() << "merged parts of two runs";
  } catch (const merge_error& e) {
    const std::string text = problems_of(e);
    EXPECT_NE(text.find("c.json belongs to another run"), std::string::npos) << text;
    EXPECT_NE(text.find("shard 0/4 is given twice: a.json and b.json"), std::string::npos) << text;
    EXPECT_NE(text.find("3 of 4 shards missing: 1-3"), std::string::npos) << text;
  }
  // A stray part is named as the stray wherever it comes: the parts are
  // judged by the run most of them share.
  std::vector<count_result> stray_first = {other, parts[0], parts[1], parts[2], parts[3]};
  try {
    merge(stray_first);
    FAIL() << "merged parts of two runs";
  } catch (const merge_error& e) {
    const std::string text = problems_of(e);
    EXPECT_NE(text.find("part 0 belongs to another run (n = 12, engine mirror"), std::string::npos) << text;
    EXPECT_NE(text.find("than the 4 parts such as part 1 (n = 12, engine symmetric"), std::string::npos) << text;
    EXPECT_EQ(text.find("missing"), std::string::npos) << text;
    EXPECT_EQ(text.find("part 1 belongs"), std::string::npos) << text;
  }
  const count_result split = count(12, {.kind = engine::symmetric, .threads = 2, .split_depth = 3, .shard = {3, 4}});
  std::vector<count_result> deeper = {parts[0], parts[1], parts[2], split};
  EXPECT_THROW(merge(deeper), merge_error);

  parts[1].complete = false;  // as a cancelled count returns it
  parts[1].finished = 0;
  try {
    merge(parts);
    FAIL() << "merged a part that did not finish";
  } catch (const merge_error& e) {
    EXPECT_NE(problems_of(e).find("part 1 did not finish its shard"), std::string::npos) << problems_of(e);
  }
  parts[1].finished = parts[1].shard_subproblems;  // every one finished, yet not complete: said as such
  try {
    merge(parts);
    FAIL() << "merged a part that says it did not finish";
  } catch (const merge_error& e) {
    EXPECT_NE(problems_of(e).find("part 1 says it did not finish its shard, yet counts " +
                                  std::to_string(parts[1].shard_subproblems) + " of " +
                                  std::to_string(parts[1].shard_subproblems) + " subproblems"),
              std::string::npos)
        << problems_of(e);
  }
  // Complete, yet short of its shard: a part that contradicts itself the
  // other way, whose total would be short.
  parts[1].complete = true;
  parts[1].finished = parts[1].shard_subproblems - 1;
  try {
    merge(parts);
    FAIL() << "merged a part short of its shard";
  } catch (const merge_error& e) {
    EXPECT_NE(problems_of(e).find("part 1 did not finish its shard: " + std::to_string(parts[1].finished) + " of " +
                                  std::to_string(parts[1].shard_subproblems) + " subproblems"),
              std::string::npos)
        << problems_of(e);
  }
  EXPECT_THROW(merge(std::vector<count_result>{}), merge_error);

  std::vector<count_result> stray = parts_of(12, 2);
  stray.push_back(stray[1]);
  stray.back().shard.index = 5;  // a shard no run of 2 has
  try {
    merge(stray);
    FAIL() << "merged a shard out of range";
  } catch (const merge_error& e) {
    EXPECT_EQ(e.why(), merge_error::reason::parts);
    EXPECT_NE(problems_of(e).find("part 2 names shard 5/2, which no run has"), std::string::npos) << problems_of(e);
  }
}

// A part of a rotational count (`nqueens rotational N --shard`) is named as
// such, never as another engine's run, and the parts are judged by those
// of a whole count; where every part is rotational, no shard of a whole
// count is missing.
TEST(MergeTest, ARotationalPartIsNamedAsOne) {
  const std::vector<count_result> whole = parts_of(12, 3);
  const count_result rotational = rotational_counts(12, {.threads = 2, .shard = {1, 3}});
  try {
    merge(std::vector<count_result>{whole[0], rotational, whole[2]});
    FAIL() << "merged a rotational part";
  } catch (const merge_error& e) {
    const std::string text = problems_of(e);
    EXPECT_NE(text.find("part 1 counted only the rotation-symmetric solutions"), std::string::npos) << text;
    EXPECT_EQ(text.find("another run"), std::string::npos) << text;
    EXPECT_NE(text.find("1 of 3 shards missing: 1"), std::string::npos) << text;
  }
  // Most of them rotational: still judged by the whole count's part.
  try {
    merge(std::vector<count_result>{rotational, rotational, whole[0]});
    FAIL() << "merged rotational parts";
  } catch (const merge_error& e) {
    const std::string text = problems_of(e);
    EXPECT_EQ(text.find("another run"), std::string::npos) << text;
    EXPECT_NE(text.find("2 of 3 shards missing: 1-2"), std::string::npos) << text;
  }
  try {
    merge(std::vector<count_result>{rotational, rotational_counts(12, {.threads = 2, .shard = {0, 3}})});
    FAIL() << "merged rotational parts";
  } catch (const merge_error& e) {
    const std::string text = problems_of(e);
    EXPECT_NE(text.find("part 0 counted only the rotation-symmetric solutions"), std::string::npos) << text;
    EXPECT_NE(text.find("part 1 counted only the rotation-symmetric solutions"), std::string::npos) << text;
    EXPECT_EQ(text.find("missing"), std::string::npos) << text;
  }
}

// Parts that name no board (built by hand) are refused as parts, with a
// merge_error as any other: never an error of another type from deriving
// the fundamental count.
TEST(MergeTest, PartsOfNoBoardAreRefused) {
  for (const int n : {0, -3, 33}) {
    std::vector<count_result> parts = parts_of(10, 2);
    for (count_result& r : parts) r.n = n;
    try {
      merge(parts);
      FAIL() << "merged parts of n = " << n;
    } catch (const merge_error& e) {
      EXPECT_EQ(e.why(), merge_error::reason::parts);
      EXPECT_NE(problems_of(e).find("names n = " + std::to_string(n) + ", which no board has"), std::string::npos)
          << problems_of(e);
    }
  }
}

// A part naming more subproblems than its plan holds is refused: two parts
// of 2^63 + k subproblems each once wrapped onto the plan's size and merged
// as complete and verified.
TEST(MergeTest, APartLargerThanItsPlanIsRefused) {
  const std::vector<count_result> parts = parts_of(12, 2);
  std::vector<count_result> wrapped = parts;
  const std::size_t half = std::size_t{1} << 63;
  wrapped[0].shard_subproblems = wrapped[0].finished = half + parts[0].shard_subproblems;
  wrapped[1].shard_subproblems = wrapped[1].finished = half + parts[1].shard_subproblems;
  std::vector<count_result> resumed = parts;
  resumed[0].resumed = resumed[0].finished + 1;
  std::vector<count_result> cut = parts;
  cut[0].journal_bytes_cut = cut[1].journal_bytes_cut = half;
  for (const std::vector<count_result>* bad : {&wrapped, &resumed, &cut}) {
    try {
      const count_result r = merge(*bad);
      FAIL() << "merged parts that name more than their plan: " << r.shard_subproblems << " subproblems";
    } catch (const merge_error& e) {
      EXPECT_EQ(e.why(), merge_error::reason::parts) << problems_of(e);
    }
  }
  try {
    merge(wrapped);
    FAIL() << "merged parts larger than their plan";
  } catch (const merge_error& e) {
    EXPECT_NE(problems_of(e).find("part 0 names " + std::to_string(half + parts[0].shard_subproblems) +
                                  " subproblems in its shard"),
              std::string::npos)
        << problems_of(e);
    EXPECT_NE(problems_of(e).find("part 1 names"), std::string::npos) << problems_of(e);
  }
  // Each part within a plan of 2^63 + 3 subproblems, three of 2^63 + 1 add
  // up to 2^64 + the plan's size: refused as a sum past 2^64, not wrapped.
  std::vector<count_result> three = parts_of(12, 3);
  for (count_result& part : three) {
    part.subproblems = half + 3;
    part.shard_subproblems = part.finished = half + 1;
  }
  try {
    const count_result r = merge(three);
    FAIL() << "three parts' sizes wrapped onto their plan's: " << r.shard_subproblems;
  } catch (const merge_error& e) {
    EXPECT_EQ(e.why(), merge_error::reason::parts) << problems_of(e);
    EXPECT_NE(problems_of(e).find("add up past 2^64"), std::string::npos) << problems_of(e);
  }
  EXPECT_TRUE(merge(parts).check.verified());
}

// Parts that share n, engine, split depth and size but not the plan's
// fingerprint (another version's plan, dealt otherwise) are of another
// run: their subproblems may overlap or leave gaps, which past the
// published table nothing else would catch.
TEST(MergeTest, APartOfAnotherPlanIsNamedByItsFingerprint) {
  std::vector<count_result> parts = parts_of(12, 3);
  parts[1].plan_fingerprint ^= 1;
  try {
    merge(parts);
    FAIL() << "merged parts of two plans";
  } catch (const merge_error& e) {
    EXPECT_EQ(e.why(), merge_error::reason::parts) << problems_of(e);
    EXPECT_NE(problems_of(e).find("part 1 belongs to another run"), std::string::npos) << problems_of(e);
    EXPECT_EQ(problems_of(e).find("part 0 belongs"), std::string::npos) << problems_of(e);
  }
}

// Shards of one plan cover it exactly once: parts that, every shard there
// and finished, hold one subproblem fewer than the plan are refused (their
// total would miss that subproblem's count).
TEST(MergeTest, PartsThatHoldLessThanThePlanAreRefused) {
  std::vector<count_result> parts = parts_of(12, 3);
  --parts[1].shard_subproblems;
  --parts[1].finished;
  try {
    const count_result r = merge(parts);
    FAIL() << "merged parts short of their plan: " << r.shard_subproblems << " of " << r.subproblems;
  } catch (const merge_error& e) {
    EXPECT_EQ(e.why(), merge_error::reason::parts) << problems_of(e);
    EXPECT_NE(problems_of(e).find("the shards hold " + std::to_string(parts[0].subproblems - 1) +
                                  " subproblems, the plan " + std::to_string(parts[0].subproblems)),
              std::string::npos)
        << problems_of(e);
  }
}

// Counts that cannot all be right are refused, not verified as a wrong
// total: a sum past 2^128, one whose Burnside sum passes it, and one
// Burnside's lemma cannot divide by 8.
TEST(MergeTest, CountsThatCannotAllBeRightAreRefused) {
  std::vector<count_result> parts = parts_of(12, 2);
  std::vector<count_result> huge = parts;
  huge[0].total = ~uint128{0};
  std::vector<count_result> odd = parts;
  odd[0].total += 1;
  for (const std::vector<count_result>* bad : {&huge, &odd}) {
    try {
      merge(*bad);
      FAIL() << "merged counts that cannot all be right";
    } catch (const merge_error& e) {
      EXPECT_EQ(e.why(), merge_error::reason::counts) << problems_of(e);
    }
  }
  // A sum that fits whose Burnside sum Q + P + 2R does not is said as such,
  // not as a sum past 2^128.
  std::vector<count_result> burnside = parts;
  for (count_result& part : burnside) part.total = part.symmetric_180 = part.symmetric_90 = 0;
  burnside[0].total = ~uint128{0} - 7;
  burnside[0].symmetric_180 = 8;
  try {
    merge(burnside);
    FAIL() << "merged counts whose Burnside sum passes 2^128";
  } catch (const merge_error& e) {
    EXPECT_EQ(e.why(), merge_error::reason::counts) << problems_of(e);
    EXPECT_NE(problems_of(e).find("Q + P + 2R past 2^128"), std::string::npos) << problems_of(e);
    EXPECT_EQ(problems_of(e).find("add up past"), std::string::npos) << problems_of(e);
  }
  std::vector<count_result> wrong = parts;
  wrong[0].total += 8;  // divisible, merged, and caught by the published table
  const count_result r = merge(wrong);
  EXPECT_FALSE(r.check.verified());
  EXPECT_EQ(r.total, *published_total(12) + 8);
}

}  // namespace
}  // namespace nqueens
