#pragma once

// The GPUs a rank counts on, as text it sends rank 0 before the count, so
// that the job's report names every rank's GPUs, not rank 0's alone.

#include <string>
#include <vector>

#include "nqueens/gpu_options.hpp"

namespace nqueens::mpi {

/// `gpus` as one string: each field by its length, so that any byte of a
/// name (a comma, a tab, a newline) is read back whole.
std::string encode_gpus(const std::vector<gpu_taken>& gpus);

/// What encode_gpus() wrote; a text it did not write reads as the GPUs
/// whole before the damage (every rank runs this program, so none is).
std::vector<gpu_taken> decode_gpus(const std::string& text);

}  // namespace nqueens::mpi
