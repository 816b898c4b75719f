// The header a worker's message starts with carries its device work whole:
// launches, operations, every kernel's time, the host's list time, the
// lists' bytes staged and each round phase's time, as rank 0 reads it back.

#include "mpi/protocol.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "nqueens/device_work.hpp"

namespace nqueens::mpi {
namespace {

TEST(MpiProtocolTest, TheHeaderCarriesTheDeviceWorkWhole) {
  device_work work{7, 19};
  for (std::size_t k = 0; k < work.kernel_nanoseconds.size(); ++k) work.kernel_nanoseconds[k] = 1000 * k + 3;
  work.host_list_nanoseconds = 555;
  work.staged_list_bytes = 777;
  work.round_nanoseconds = {11, 13, 17};
  std::vector<std::uint64_t> message(header_words + record_words, 0);
  write_device_header(message, work);
  EXPECT_EQ(read_device_header(message), work);
  // Summed into the job's as rank 0 does, and taken apart again.
  device_work job;
  job += read_device_header(message);
  job += read_device_header(message);
  EXPECT_EQ(job - work, work);
}

}  // namespace
}  // namespace nqueens::mpi
