#pragma once

// What rank 0 and the workers say to each other once counting starts: a
// worker asks for work with the records of its last chunk; rank 0 answers
// with a chunk of subproblem indices, none to say there is no more, or a
// stop; at the end, rank 0 lets the workers with no more work go.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nqueens/device_work.hpp"
#include "nqueens/subproblem_count.hpp"

namespace nqueens::mpi {

constexpr int tag_results = 1;  // worker -> 0: the header, a record per subproblem of its last chunk; asks for more
constexpr int tag_chunk = 2;    // 0 -> worker: subproblem indices; none means done
constexpr int tag_stopped = 3;  // worker -> 0: the header, its last records, then the signal that stopped it; it leaves
constexpr int tag_stop = 4;     // 0 -> worker: the signal that stopped the job; the worker leaves with 128 + it
// 0 -> a worker holding a chunk, once the job stops: cut the chunk short and
// ask as usual (with the records of what it finished); nothing in it. A
// worker that already asked takes it in turn before the answer.
constexpr int tag_cut = 5;
// 0 -> a worker that was given no more work (it waits for this, not in
// MPI_Finalize, so that a signal meanwhile still stops the job): first at
// the job's end, asking whether a stop reached it; the worker answers once,
// tag_results with no records or tag_stopped (sent already, or now). Then
// the verdict: tag_finish again to finalize, or tag_stop to leave.
constexpr int tag_finish = 6;
// What a worker's message starts with: the device work of its last chunk
// (zero but for the GPU engine; launches, operations, each kernel's
// nanoseconds, then the host's list-building nanoseconds, the lists' bytes
// staged and each round phase's nanoseconds), summed into the job's.
constexpr std::size_t header_words = 4 + device_kernel_names.size() + device_round_phase_names.size();
static_assert(sizeof(device_work) == header_words * sizeof(std::uint64_t),
              "a field added to device_work goes into the header (write_ and read_device_header)");

/// Writes `work` into the header (the first header_words words of `message`).
inline void write_device_header(std::vector<std::uint64_t>& message, const device_work& work) {
  message[0] = work.launches;
  message[1] = work.operations;
  std::copy(work.kernel_nanoseconds.begin(), work.kernel_nanoseconds.end(), message.begin() + 2);
  message[2 + work.kernel_nanoseconds.size()] = work.host_list_nanoseconds;
  message[3 + work.kernel_nanoseconds.size()] = work.staged_list_bytes;
  std::copy(work.round_nanoseconds.begin(), work.round_nanoseconds.end(),
            message.begin() + 4 + static_cast<std::ptrdiff_t>(work.kernel_nanoseconds.size()));
}

/// The device work a message's header holds. Precondition: message.size() >= header_words.
inline device_work read_device_header(const std::vector<std::uint64_t>& message) {
  device_work work;
  work.launches = message[0];
  work.operations = message[1];
  std::copy_n(message.begin() + 2, work.kernel_nanoseconds.size(), work.kernel_nanoseconds.begin());
  work.host_list_nanoseconds = message[2 + work.kernel_nanoseconds.size()];
  work.staged_list_bytes = message[3 + work.kernel_nanoseconds.size()];
  std::copy_n(message.begin() + 4 + static_cast<std::ptrdiff_t>(work.kernel_nanoseconds.size()),
              work.round_nanoseconds.size(), work.round_nanoseconds.begin());
  return work;
}
// A result record: index, total, unique, symmetric_180, symmetric_90.
constexpr std::size_t record_words = 5;

}  // namespace nqueens::mpi
