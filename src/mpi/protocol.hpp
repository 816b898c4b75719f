#pragma once

// What rank 0 and the workers say to each other once counting starts: a
// worker asks for work with the records of its last chunk; rank 0 answers
// with a chunk of subproblem indices, none to say it is done, or a stop.

#include <cstddef>

namespace nqueens::mpi {

constexpr int tag_results = 1;  // worker -> 0: the header, a record per subproblem of its last chunk; asks for more
constexpr int tag_chunk = 2;    // 0 -> worker: subproblem indices; none means done
constexpr int tag_stopped = 3;  // worker -> 0: the header, its last records, then the signal that stopped it; it leaves
constexpr int tag_stop = 4;     // 0 -> worker: the signal that stopped the job; the worker leaves with 128 + it
// What a worker's message starts with: the device launches and operations
// of its last chunk (zero but for the GPU engine), summed into the job's.
constexpr std::size_t header_words = 2;
// A result record: index, total, unique, symmetric_180, symmetric_90.
constexpr std::size_t record_words = 5;

}  // namespace nqueens::mpi
