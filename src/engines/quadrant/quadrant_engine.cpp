// The quadrant engine's plan, run context and registry entry.
//
// North half: rows 0..h-1, h = n/2; south half: the last h rows; for odd n
// the middle row between them holds one queen, fixed per subproblem. A
// subproblem stands for the solutions whose north half uses exactly the
// columns `north` (and whose middle queen is the one given). The left-right
// mirror and the upside-down flip map such a set of solutions onto another
// with as many members (the flip swaps the halves: the north columns become
// the south's, the complement); one subproblem per class, weighted by the
// class size.

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "engines/engine.hpp"
#include "engines/quadrant/quadrant.hpp"
#include "fingerprint.hpp"
#include "kernels/bits.hpp"
#include "kernels/subsets.hpp"
#include "nqueens/plan.hpp"

namespace nqueens::detail {

// Defined by quadrant_kernel_<isa>.cpp.
extern const quadrant_kernels portable_quadrant_kernels;
extern const quadrant_kernels avx2_quadrant_kernels;
extern const quadrant_kernels avx512_quadrant_kernels;
extern const quadrant_kernels avx512_vpopcntdq_quadrant_kernels;

std::span<const quadrant_kernel_variant> quadrant_kernel_variants() noexcept {
  static const std::array<quadrant_kernel_variant, 4> variants = {{
      {"portable", isa::portable, false, &portable_quadrant_kernels},
      {"avx2", isa::avx2, false, &avx2_quadrant_kernels},
      {"avx512", isa::avx512, false, &avx512_quadrant_kernels},
      {"avx512+vpopcntdq", isa::avx512, true, &avx512_vpopcntdq_quadrant_kernels},
  }};
  return variants;
}

bool cpu_supports(const quadrant_kernel_variant& v) noexcept {
  static const bool vpopcntdq = __builtin_cpu_supports("avx512vpopcntdq");
  return nqueens::cpu_supports(v.needs) && (!v.needs_vpopcntdq || vpopcntdq);
}

const quadrant_kernels& quadrant_kernels_for(isa kernels) noexcept {
  const quadrant_kernels* best = &portable_quadrant_kernels;
  for (const quadrant_kernel_variant& v : quadrant_kernel_variants()) {
    if (v.needs == kernels && cpu_supports(v)) best = v.kernels;
  }
  return *best;
}

std::uint64_t count_disjoint_pairs(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                                   pair_scratch& scratch, isa kernels) {
  return quadrant_kernels_for(kernels).count_pairs(north, south, scratch);
}

namespace {

// A larger plan is a mistake (far too many slices), not a useful run.
constexpr std::size_t max_plan_size = std::size_t{1} << 22;

// Column c to column n - 1 - c: the 32 bits reversed in five swaps, then
// shifted down (planning calls this tens of millions of times at n = 23).
std::uint32_t mirror_columns(std::uint32_t set, int n) noexcept {
  std::uint32_t x = set;
  x = ((x >> 1) & 0x55555555U) | ((x & 0x55555555U) << 1);
  x = ((x >> 2) & 0x33333333U) | ((x & 0x33333333U) << 2);
  x = ((x >> 4) & 0x0F0F0F0FU) | ((x & 0x0F0F0F0FU) << 4);
  x = ((x >> 8) & 0x00FF00FFU) | ((x & 0x00FF00FFU) << 8);
  x = (x >> 16) | (x << 16);
  return x >> (32 - n);
}

std::vector<quadrant_task> quadrant_tasks(int n, int slices) {
  const int half = n / 2;
  const std::uint32_t full = low_bits(n);
  std::vector<quadrant_task> tasks;
  const auto add = [&](int middle, std::uint32_t north, std::uint8_t weight) {
    if (tasks.size() + static_cast<std::size_t>(slices) > max_plan_size) {
      throw std::invalid_argument("the quadrant plan for n = " + std::to_string(n) + " would exceed " +
                                  std::to_string(max_plan_size) + " subproblems: choose fewer slices");
    }
    for (int k = 0; k < slices; ++k) {
      tasks.push_back({north, static_cast<std::int8_t>(middle), weight, static_cast<std::uint8_t>(k)});
    }
  };
  // (middle column, north set) pairs; -1: no middle row (even n).
  const auto consider = [&](int middle, std::uint32_t north) {
    const std::uint32_t rest = full & ~north & (middle >= 0 ? ~(std::uint32_t{1} << middle) : full);
    const int mirrored_middle = middle >= 0 ? n - 1 - middle : -1;
    std::array<std::pair<int, std::uint32_t>, 4> orbit = {{{middle, north},
                                                           {middle, rest},
                                                           {mirrored_middle, mirror_columns(north, n)},
                                                           {mirrored_middle, mirror_columns(rest, n)}}};
    std::sort(orbit.begin(), orbit.end());
    if (orbit[0] != std::pair{middle, north}) return;
    add(middle, north, static_cast<std::uint8_t>(std::unique(orbit.begin(), orbit.end()) - orbit.begin()));
  };
  if (n % 2 == 0) {
    for_each_subset(full, half, [&](std::uint32_t north) { consider(-1, north); });
  } else {
    for (int middle = 0; middle < n; ++middle) {
      for_each_subset(full & ~(std::uint32_t{1} << middle), half,
                      [&](std::uint32_t north) { consider(middle, north); });
    }
  }
  return tasks;
}

class quadrant_context final : public engine_context {
 public:
  // The whole quarter tables where they fit in `max_memory`, else each
  // subproblem builds its own quarters, in slices where a group would not
  // fit (quadrant_layout_for).
  quadrant_context(int n, const std::vector<quadrant_task>& tasks, int slices, isa kernels,
                   const quadrant_layout& layout, const std::atomic<bool>* cancel)
      : tables_(layout.tables ? std::make_unique<half_board_tables>(n, cancel) : nullptr),
        source_(n, tables_.get(), layout.max_group),
        tasks_(tasks),
        slices_(slices),
        kernels_(quadrant_kernels_for(kernels)) {}

  subproblem_count solve(std::size_t index) override {
    return {kernels_.solve(source_, tasks_[index], slices_, scratch_.local()), 0};
  }

 private:
  const std::unique_ptr<const half_board_tables> tables_;
  const quarter_source source_;
  const std::vector<quadrant_task>& tasks_;
  int slices_;
  const quadrant_kernels& kernels_;
  tbb::enumerable_thread_specific<quadrant_scratch> scratch_;  // one set of buffers per thread
};

class quadrant_plan final : public engine_plan {
 public:
  quadrant_plan(int n, int slices) : n_(n), slices_(slices), tasks_(quadrant_tasks(n, slices)) {}

  std::size_t size() const noexcept override { return tasks_.size(); }
  int split_depth() const noexcept override { return slices_; }

  // Each task as the row-by-row plans write a subproblem (a column per row,
  // the middle queen the only one placed), then its column set and slice.
  void add_to_fingerprint(fnv1a& hash) const override {
    for (const quadrant_task& t : tasks_) {
      for (int r = 0; r < n_; ++r) {
        hash.add_byte(r == n_ / 2 && t.middle >= 0 ? static_cast<std::uint8_t>(t.middle) : std::uint8_t{0xFF});
      }
      hash.add_byte(t.weight);
      hash.add_byte(0);
      hash.add_u64(t.north);
      hash.add_byte(t.slice);
    }
  }

  // A task's cost depends on the sizes of its two groups, known only once the
  // tables are built: count every one alike.
  std::uint64_t estimated_work(std::size_t) const override { return 1; }
  bool uniform_work() const noexcept override { return true; }

  std::unique_ptr<engine_context> make_context(isa kernels, int threads, std::uint64_t max_memory,
                                               const std::atomic<bool>* cancel) const override {
    return std::make_unique<quadrant_context>(n_, tasks_, slices_, kernels,
                                              quadrant_layout_for(n_, threads, max_memory), cancel);
  }

  const std::vector<quadrant_task>& tasks() const noexcept { return tasks_; }

 private:
  int n_;
  int slices_;
  std::vector<quadrant_task> tasks_;
};

std::unique_ptr<engine_plan> make_plan(int n, int split_depth, std::size_t) {
  // Slices only matter where there are few column sets (n < 14): every
  // slice builds both groups again (n = 16 took 0.43 s in 2 slices per class
  // against 0.25 s in one), so only enough for a few hundred tasks.
  int slices = split_depth;
  if (slices == 0) {
    constexpr std::size_t enough_tasks = 256;
    const std::size_t sets = quadrant_tasks(n, 1).size();
    slices = static_cast<int>(std::clamp<std::size_t>((enough_tasks + sets - 1) / sets, 1, max_split_depth));
  }
  return std::make_unique<quadrant_plan>(n, slices);
}

}  // namespace

const std::vector<quadrant_task>& quadrant_tasks_of(const engine_plan& p) noexcept {
  return static_cast<const quadrant_plan&>(p).tasks();
}

extern const engine_definition quadrant_engine = {
    .id = engine::quadrant,
    .name = "quadrant",
    .summary =
        "half boards joined from quarter-board tables, disjoint (north, south) pairs counted 512 at a time "
        "(fastest from n = 16; needs memory, see --max-memory)",
    .counts_unique = false,
    .max_board_size = max_quadrant_board_size,
    // Measured one thread (best of 3, `nqueens count N --engine E -t 1`):
    // quadrant / symmetric 0.136 / 0.145 s at n = 15, 0.40 / 0.89 s at 16,
    // 2.32 / 6.13 s at 17, 3.7 / 41 s at 18; below 15 the quarter tables cost
    // more than they save.
    .auto_from = 16,
    .make_plan = &make_plan,
    .memory_estimate = &quadrant_memory_bytes,
};

}  // namespace nqueens::detail
