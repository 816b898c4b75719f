// Rank 0's ledger of the chunks it deals: a worker's record is taken only
// for a subproblem of the chunk it holds, once.

#include "mpi/chunk_ledger.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace nqueens::mpi {
namespace {

std::string refusal(chunk_ledger& ledger, int rank, std::uint64_t index) {
  try {
    ledger.reported(rank, index);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ChunkLedgerTest, TakesEachRecordOfTheChunkHeldOnce) {
  chunk_ledger ledger(3);
  const std::vector<std::uint64_t> chunk = {40, 7, 19};  // dispatch order, not sorted
  ledger.handed(1, chunk);
  ledger.handed(2, std::vector<std::uint64_t>{8});
  EXPECT_NO_THROW(ledger.reported(1, 19));
  EXPECT_NO_THROW(ledger.reported(1, 40));
  EXPECT_EQ(refusal(ledger, 1, 19), "rank 1 reported subproblem 19, twice: its counts cannot be trusted");
  EXPECT_EQ(refusal(ledger, 1, 8),
            "rank 1 reported subproblem 8, which it was not given: its counts cannot be trusted");
  EXPECT_NO_THROW(ledger.reported(2, 8));
  // A chunk cut short: 7 never reported. Once closed, its records are refused.
  ledger.closed(1);
  EXPECT_NE(refusal(ledger, 1, 7).find("which it was not given"), std::string::npos);
  // The next chunk may deal an index again (a chunk cut short is dealt again
  // only by a new run, but the ledger does not need to know).
  ledger.handed(1, std::vector<std::uint64_t>{7});
  EXPECT_NO_THROW(ledger.reported(1, 7));
  EXPECT_NE(refusal(ledger, 0, 7).find("rank 0"), std::string::npos);
  EXPECT_NE(refusal(ledger, 5, 7).find("no such rank"), std::string::npos);
}

}  // namespace
}  // namespace nqueens::mpi
