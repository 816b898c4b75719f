#pragma once

// What the GPU engine's tests share: NQUEENS_GPU set for a test's life, an
// independent count of a class (the quadrant engine's join, every pair
// tried), the classes in plan order, and a board's classes counted in rounds.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_device.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_kernels.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/transposition.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "kernels/bits.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/count.hpp"
#include "nqueens/device_work.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::gpu_testing {

using detail::column_class;

// Sets an environment variable for the life of a test, then puts back what
// was there.
class scoped_variable {
 public:
  /// `value` null: unset. `unless_set`: leave a value already there.
  scoped_variable(const char* name, const char* value, bool unless_set = false) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (unless_set && old_) return;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~scoped_variable() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  scoped_variable(const scoped_variable&) = delete;
  scoped_variable& operator=(const scoped_variable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// NQUEENS_GPU (the backend) for the life of a test.
class gpu_variable : public scoped_variable {
 public:
  explicit gpu_variable(const char* value, bool unless_set = false)
      : scoped_variable("NQUEENS_GPU", value, unless_set) {}
};

inline std::uint64_t disjoint_pairs(const std::vector<std::uint64_t>& north, const std::vector<std::uint64_t>& south) {
  std::uint64_t pairs = 0;
  for (const std::uint64_t a : north) {
    for (const std::uint64_t b : south) pairs += (a & b) == 0 ? 1 : 0;
  }
  return pairs;
}

// The solutions of one class, counted without the GPU engine's code: the
// quadrant engine's join for both groups (portable kernels), the middle
// queen and the turn of the south written out here, every pair tried.
inline std::uint64_t reference_count(const detail::half_board_tables& tables, const column_class& c) {
  const int n = tables.board_size(), h = n / 2;
  const std::uint32_t full = detail::low_bits(n);
  const std::uint32_t south_columns = full & ~c.north & (c.middle >= 0 ? ~(std::uint32_t{1} << c.middle) : full);
  const detail::quadrant_kernels& kernels = detail::quadrant_kernels_for(isa::portable);
  const auto halves = [&](std::uint32_t columns) {
    std::vector<std::uint64_t> out;
    const std::size_t count =
        detail::north_halves(kernels, tables.west().on(columns & detail::low_bits(h)), tables.east().on(columns >> h),
                             h, std::popcount(columns & detail::low_bits(h)), out);
    out.resize(count);
    return out;
  };
  std::vector<std::uint64_t> north = halves(c.north), south;
  const std::uint64_t queen = c.middle >= 0 ? detail::north_mask(1U << c.middle, 1U << c.middle) : 0;
  std::erase_if(north, [&](std::uint64_t m) { return (m & queen) != 0; });
  for (const std::uint64_t m : halves(south_columns)) {
    const std::uint64_t turned =
        c.middle >= 0 ? std::rotl(m, 32)
                      : detail::south_mask(static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m >> 32), full);
    if ((turned & queen) == 0) south.push_back(turned);
  }
  return disjoint_pairs(north, south) * c.weight;
}

// The classes of board n, in plan order (the GPU plan of split depth 1 has
// one subproblem per class, in this order).
inline std::vector<column_class> classes_of(int n) {
  std::vector<column_class> out;
  detail::column_classes(n).for_each([&](const column_class& c) { out.push_back(c); });
  return out;
}

struct counted_rounds {
  std::vector<detail::gpu::pair_counts> counts;
  device_work work;
  std::uint64_t jobs_cut = 0;  ///< jobs the rounds cut in two for the arena
};

// A job for every class of the tables' board, one slice each, in plan order.
inline std::vector<detail::gpu::gpu_job> jobs_of(const detail::half_board_tables& tables,
                                                 const detail::gpu::gpu_backend& backend) {
  std::vector<detail::gpu::gpu_job> jobs;
  for (const column_class& c : classes_of(tables.board_size())) {
    jobs.push_back(detail::gpu::job_for({c.north, c.middle, c.weight, 0}, tables.board_size(), 1, backend));
  }
  return jobs;
}

// Where the host reads the tables (the emulator's are the host's): what
// lets gpu_rounds size jobs that read them whole.
inline detail::gpu::host_quarters host_quarters_of(const detail::half_board_tables& tables) {
  return {detail::gpu::arrays_of(tables.west()), detail::gpu::arrays_of(tables.east())};
}

// The pair counts of every class of n, in rounds on `backend`'s stream.
inline counted_rounds round_counts(const detail::half_board_tables& tables, detail::gpu::gpu_backend& backend) {
  const auto stream = backend.open_stream();
  detail::gpu::gpu_rounds rounds(*stream);
  std::vector<detail::gpu::gpu_job> jobs = jobs_of(tables, backend);
  std::vector<detail::gpu::pair_counts> counts(jobs.size());
  rounds.count(jobs, counts);
  return {counts, stream->work(), rounds.jobs_cut()};
}

}  // namespace nqueens::gpu_testing
