// How evenly a round of the GPU engine's visit fills a device
// (docs/performance.md): real jobs, counted by the emulator, and a
// list-scheduling model of their visit items over a GPU's block slots.
//
//   nqueens_gpu_round_balance N FIRST [JOBS] [SLOTS] [SETUP]
//
// Counts classes FIRST.. FIRST+JOBS-1 of board N (a class a job, as the
// GPU plan of split depth 1 has them; JOBS 64, a round's) each on its own,
// and reads from its state what its visit was dealt: each key's south blocks
// and a warp's steps through the north halves they visit (warp_visits: one
// a step in a whole block, several in a narrow one; a share each of a
// block's parts, taken as even: the kernel's runs differ from it by less
// than a run a key). Then deals the round's items in order
// to SLOTS block slots (792: an H100's 132 SMs, six visit blocks each), each
// to the slot free first, an item costing SETUP (300: its tables, in warp
// steps) plus its warp steps plus 2.2 for each key its loop goes through
// (every subset of its key's free bits, about 12 warp instructions a warp
// against 45 a step); and prints when the round ends
// against an even share of its work, with blocks dealt whole and in shares
// (visit_parts).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "round_window.hpp"
#include "tool_main.hpp"

namespace {

using namespace nqueens::detail;
using namespace nqueens::detail::gpu;

// One visit item: its cost past its tables', in warp steps.
struct visit_item {
  std::uint64_t north;
};

// A key's turn of the visit's loop over the keys that miss the block's,
// in warp steps (visit_keys: two loads and a few sums a warp).
constexpr double key_loop_cost = 2.2;

// A job's visit, as its scan dealt it: for each key, its blocks with their
// north reach, dealt whole (one item a block) or in visit_parts shares.
void add_items(const job_state& s, bool shares, std::vector<visit_item>& out) {
  const std::uint32_t keys = 1U << s.layout.key_bits;
  std::vector<std::uint64_t> reach(keys);
  for (std::uint32_t k = 0; k < keys; ++k) reach[k] = s.bucket_start[0][k + 1] - s.bucket_start[0][k];
  for (std::uint32_t bit = 0; bit < s.layout.key_bits; ++bit) {
    for (std::uint32_t k = 0; k < keys; ++k) {
      if ((k >> bit & 1U) != 0) reach[k] += reach[k ^ (1U << bit)];
    }
  }
  for (std::uint32_t k = 0; k < keys; ++k) {
    const std::uint32_t south = s.bucket_start[1][k + 1] - s.bucket_start[1][k];
    const std::uint32_t blocks = visit_blocks_for(south);
    const std::uint64_t north = warp_visits(static_cast<std::uint32_t>(reach[(keys - 1) & ~k]), south);
    const std::uint32_t parts = shares ? visit_parts(static_cast<std::uint32_t>(north)) : 1;
    const auto key_loop = static_cast<std::uint64_t>(
        key_loop_cost *
        static_cast<double>(std::uint64_t{1} << (s.layout.key_bits - static_cast<std::uint32_t>(std::popcount(k)))));
    for (std::uint32_t b = 0; b < blocks; ++b) {
      for (std::uint32_t p = 0; p < parts; ++p) {
        out.push_back({north / parts + (p < north % parts ? 1 : 0) + key_loop});
      }
    }
  }
}

struct round_end {
  double makespan = 0, even = 0;
  std::size_t items = 0;
};

// The items in order, each to the slot that frees first.
round_end schedule(const std::vector<visit_item>& items, std::uint32_t slots, double setup) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::uint32_t k = 0; k < slots; ++k) free_at.push(0);
  round_end end;
  double work = 0;
  for (const visit_item& item : items) {
    const double done = free_at.top() + setup + static_cast<double>(item.north);
    free_at.pop();
    free_at.push(done);
    end.makespan = std::max(end.makespan, done);
    work += setup + static_cast<double>(item.north);
  }
  end.even = work / slots;
  end.items = items.size();
  return end;
}

int run(int argc, char** argv) {
  const nqueens::bench::round_window window =
      nqueens::bench::read_round_window(argc, argv, "nqueens_gpu_round_balance", 792, 300);
  const int n = window.n;
  const half_board_tables tables(n);
  // An arena that holds any of these jobs whole (the emulator's default of
  // 4 MiB cuts n = 22's larger classes into rounds, and the state read
  // below would then be the last piece's alone).
  const auto backend = emulated_backend(tables, {.arena_words = std::uint64_t{1} << 27});
  const auto stream = backend->open_stream();
  gpu_rounds rounds(*stream);
  std::vector<visit_item> whole, shared;
  for (const column_class& c : window.classes) {
    std::vector<gpu_job> one{job_for({c.north, c.middle, c.weight, 0}, n, 1, *backend)};
    std::vector<pair_counts> counts(1);
    *stream->state(0) = job_state{};  // left so where a group is empty: no count round, no item
    rounds.count(one, counts);
    add_items(*stream->state(0), false, whole);
    add_items(*stream->state(0), true, shared);
  }
  std::printf("n = %d, classes %llu..%llu, %u slots, %.0f warp steps an item's tables:\n", n,
              static_cast<unsigned long long>(window.first),
              static_cast<unsigned long long>(window.first + window.classes.size() - 1), window.slots, window.setup);
  for (const auto& [name, items] :
       {std::pair<const char*, const std::vector<visit_item>&>{"whole", whole}, {"in shares", shared}}) {
    const round_end end = schedule(items, window.slots, window.setup);
    std::printf("  blocks %-9s %8zu items, ends at %.0f, %.2fx an even share (%.0f)\n", name, end.items, end.makespan,
                end.even > 0 ? end.makespan / end.even : 0.0, end.even);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_gpu_round_balance", [&] { return run(argc, argv); });
}
