// A rank's GPUs reach rank 0 whole, whatever bytes their names hold, and a
// text cut short never reads as GPUs that were not sent.

#include "mpi/rank_gpus.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nqueens::mpi {
namespace {

bool same(const std::vector<gpu_taken>& a, const std::vector<gpu_taken>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].index != b[k].index || a[k].uuid != b[k].uuid || a[k].name != b[k].name || a[k].sharers != b[k].sharers) {
      return false;
    }
  }
  return true;
}

TEST(RankGpusTest, EveryFieldComesBackWhole) {
  const std::vector<gpu_taken> gpus = {
      {.index = 0, .uuid = "GPU-e0000000-0000-0000-0000-000000000000", .name = "NVIDIA H100 80GB HBM3", .sharers = 1},
      {.index = 7, .uuid = "GPU-1:2", .name = std::string("a,b\tc\nd:12:e\0f", 14), .sharers = 3},
      {.index = 12, .uuid = "", .name = "", .sharers = 2}};
  EXPECT_TRUE(same(decode_gpus(encode_gpus(gpus)), gpus));
  EXPECT_TRUE(decode_gpus(encode_gpus({})).empty());
}

TEST(RankGpusTest, ATextCutShortKeepsOnlyTheWholeGpusBeforeTheCut) {
  const std::vector<gpu_taken> gpus = {{.index = 0, .uuid = "GPU-a", .name = "first", .sharers = 1},
                                       {.index = 1, .uuid = "GPU-b", .name = "second", .sharers = 2}};
  const std::string text = encode_gpus(gpus);
  const std::size_t first_end = encode_gpus({gpus[0]}).size();
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    const std::vector<gpu_taken> read = decode_gpus(text.substr(0, cut));
    EXPECT_EQ(read.size(), cut >= first_end ? 1U : 0U) << "cut at " << cut;
  }
  EXPECT_TRUE(decode_gpus("x:1:2").empty());
  EXPECT_TRUE(decode_gpus("99:short").empty());
}

}  // namespace
}  // namespace nqueens::mpi
