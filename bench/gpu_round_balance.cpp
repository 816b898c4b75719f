// How evenly a round of the GPU engine's visit fills a device, and how much
// work it is (docs/performance.md): real jobs, their rounds run by the
// emulator up to the visit, and a list-scheduling model of their visit
// items over a GPU's block slots.
//
//   nqueens_gpu_round_balance N FIRST [JOBS] [SLOTS] [SETUP]
//
// Counts classes FIRST.. FIRST+JOBS-1 of board N (a class a job, as the
// GPU plan of split depth 1 has them; JOBS 64, a round's; past n = 24 the
// engine's calls hold 8) in one call, as a stream is handed a batch, with
// the arena a stream of a 16-stream H200 run takes (so that a job is cut
// in pieces where it would be there); boards to 22 from the whole quarter
// tables, past it from each job's own lists. Each count round's visit is
// not run (the emulator's instead_of_visit): the model reads from each
// job's state what the visit was dealt: each key's south blocks and a
// warp's steps through the north halves they visit (warp_visits: one a
// step in a whole block, several in a narrow one; a share each of a
// block's parts, taken as even: the kernel's runs differ from it by less
// than a run a key, and where the walk is dealt by warps its parts' rows
// of keys even out), each key's blocks of one width or split by the bits of
// its words as the scan chose (split_pays). Then deals the round's items in order
// to SLOTS block slots (792: an H100's 132 SMs, six visit blocks each), each
// to the slot free first, an item costing SETUP (300: its tables, in warp
// steps) plus its warp steps plus 2.2 for each key its loop goes through
// (every subset of its key's free bits, about 12 warp instructions a warp
// against 45 a step; where the walk is dealt among the warps of the key's
// items, walks_by_warps, each item's share of it); and prints the keys'
// length, when the round ends against an even share of its work, and the
// work's parts (tables, north halves, key loops), with blocks dealt whole
// and in shares (visit_parts), and how much of the key loops turns through
// keys that hold north halves. Last, for the items of a sample of keys,
// how unevenly their warps share them, walks shared or dealt by warps: an
// item that lasted as long as its slowest warp would take that many times
// its steps (the model above counts steps; a block's idle warps leave an
// SM's issue slots to the other blocks' warps).

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <queue>
#include <span>
#include <string>
#include <vector>

#include "engines/gpu/gpu_backend.hpp"
#include "engines/gpu/gpu_code_kernels.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/gpu/gpu_memory_share.hpp"
#include "engines/gpu/gpu_rounds.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/join_model/quadrant_memory.hpp"
#include "engines/join_model/quarter_tables.hpp"
#include "kernels/bits.hpp"
#include "round_window.hpp"
#include "tool_main.hpp"

namespace {

using namespace nqueens::detail;
using namespace nqueens::detail::gpu;

// One visit item: its cost past its tables', in warp steps: its steps
// through north halves, and its loop over the keys.
struct visit_item {
  std::uint64_t north;
  std::uint64_t key_loop;
  std::uint64_t north_listed;   // its north steps, were the halves of all its keys one list (width_visits)
  std::uint64_t key_loop_held;  // its key loop's turns through keys that hold north halves alone
};

// A key's turn of the visit's loop over the keys that miss the block's,
// in warp steps (visit_keys: two loads and a few sums a warp).
constexpr double key_loop_cost = 2.2;

// A job's visit, as its scan dealt it: for each key, its blocks with their
// north reach, dealt whole (one item a block) or in visit_parts shares.
void add_items(const job_state& s, bool shares, std::vector<visit_item>& out) {
  const std::uint32_t keys = 1U << s.layout.key_bits;
  std::vector<std::uint64_t> reach(keys);
  // Each key's north reach, and how many of the keys it walks hold a north half.
  std::vector<std::uint32_t> held(keys);
  for (std::uint32_t k = 0; k < keys; ++k) {
    reach[k] = s.bucket_start[0][k + 1] - s.bucket_start[0][k];
    held[k] = reach[k] != 0 ? 1 : 0;
  }
  for (std::uint32_t bit = 0; bit < s.layout.key_bits; ++bit) {
    for (std::uint32_t k = 0; k < keys; ++k) {
      if ((k >> bit & 1U) != 0) {
        reach[k] += reach[k ^ (1U << bit)];
        held[k] += held[k ^ (1U << bit)];
      }
    }
  }
  // A warp's steps through the reach of each key, a key at a time as the
  // visit takes them (a key of fewer halves than a warp visits at once
  // takes a step), for each block width: sums over subsets of each key's
  // steps, as the reach.
  std::array<std::vector<std::uint64_t>, words_per_block_log2 + 1> steps_by_width;
  for (std::uint32_t log2 = 0; log2 <= words_per_block_log2; ++log2) {
    std::vector<std::uint64_t>& to = steps_by_width[log2];
    to.resize(keys);
    for (std::uint32_t k = 0; k < keys; ++k)
      to[k] = width_visits(s.bucket_start[0][k + 1] - s.bucket_start[0][k], log2);
    for (std::uint32_t bit = 0; bit < s.layout.key_bits; ++bit) {
      for (std::uint32_t k = 0; k < keys; ++k) {
        if ((k >> bit & 1U) != 0) to[k] += to[k ^ (1U << bit)];
      }
    }
  }
  // Each key's blocks as the scan split them or not (job_state::key_flags).
  std::uint64_t steps = 0;
  for (std::uint32_t k = 0; k < keys; ++k) {
    steps += key_visit_steps(static_cast<std::uint32_t>(reach[(keys - 1) & ~k]),
                             s.bucket_start[1][k + 1] - s.bucket_start[1][k], (s.key_flags[k] & key_split) != 0);
  }
  const std::uint32_t least_share = least_visit_share(steps);
  for (std::uint32_t k = 0; k < keys; ++k) {
    const std::uint32_t south = s.bucket_start[1][k + 1] - s.bucket_start[1][k];
    const auto north_reach = static_cast<std::uint32_t>(reach[(keys - 1) & ~k]);
    const bool split = (s.key_flags[k] & key_split) != 0, by_warps = (s.key_flags[k] & key_walked_by_warps) != 0;
    const std::uint32_t key_turns = keys >> std::popcount(k);
    const std::uint32_t parts =
        shares ? visit_parts(first_block_visits(north_reach, south, split), key_turns, least_share, by_warps) : 1;
    // Every warp walks every key, or (by warps) a warp of all the parts' one in parts * block_warps.
    const double walked = by_warps ? static_cast<double>(key_turns) / (parts * block_warps) : key_turns;
    const auto key_loop = static_cast<std::uint64_t>(key_loop_cost * walked);
    const auto key_loop_held = static_cast<std::uint64_t>(key_loop_cost * walked * held[(keys - 1) & ~k] / key_turns);
    for (std::uint32_t b = 0; b < key_blocks_for(south, split); ++b) {
      const std::uint32_t log2 = visit_block_at(south, split, b).words_log2;
      const std::uint64_t listed = width_visits(north_reach, log2);
      // A key at a time; where the walk is dealt by warps, each warp's keys
      // as one list (visit_listed), its last step (at_once lane groups)
      // holding (at_once + 1) / 2 halves on average.
      const std::uint32_t at_once = warp_lanes >> log2;
      const std::uint64_t north = by_warps ? listed + parts * block_warps * (at_once - 1) / (2 * at_once)
                                           : steps_by_width[log2][(keys - 1) & ~k];
      for (std::uint32_t p = 0; p < parts; ++p) {
        out.push_back({north / parts + (p < north % parts ? 1 : 0), key_loop,
                       listed / parts + (p < listed % parts ? 1 : 0), key_loop_held});
      }
    }
  }
}

// How evenly an item's warps share its work, on a sample of its keys: for
// each item of a sampled key, each warp's steps through north halves and
// its key turns as the visit deals them (visit_keys: runs of the block's
// warps, turned by one a part a key; visit_keys_by_warps: a key a warp),
// and the item's steps were it to last as long as its slowest warp.
struct warp_balance {
  double all = 0, slowest = 0;    // the items' warp steps, and block_warps times their slowest warp's
  double visits = 0, pooled = 0;  // their steps through north halves, and were a warp's keys' one list
  std::uint64_t items = 0;
};

void add_warp_balance(const job_state& s, std::array<warp_balance, 2>& out) {
  const std::uint32_t keys = 1U << s.layout.key_bits;
  const std::uint32_t stride = keys > 4096 ? keys / 4096 : 1;  // at most 4096 keys a job
  const double turn = key_loop_cost / block_warps;             // a warp's key turn
  const auto north_of = [&](std::uint32_t key) { return s.bucket_start[0][key + 1] - s.bucket_start[0][key]; };
  for (std::uint32_t k = 0; k < keys; k += stride) {
    const std::uint32_t south = s.bucket_start[1][k + 1] - s.bucket_start[1][k];
    const bool split = (s.key_flags[k] & key_split) != 0, by_warps = (s.key_flags[k] & key_walked_by_warps) != 0;
    const std::uint32_t items = s.block_start[k + 1] - s.block_start[k];
    if (items == 0) continue;
    const std::uint32_t parts = items / key_blocks_for(south, split), free = (keys - 1) & ~k;
    for (std::uint32_t b = 0; b < key_blocks_for(south, split); ++b) {
      const std::uint32_t at_once = warp_lanes >> visit_block_at(south, split, b).words_log2;
      const std::uint32_t run_length = block_warps * at_once;
      for (std::uint32_t p = 0; p < parts; ++p) {
        std::array<double, block_warps> load{}, halves{};
        std::uint32_t key = 0, index = 0;
        do {
          const std::uint32_t north = north_of(key);
          if (by_warps) {
            // Rows of block_warps keys, part p's every parts-th; its m-th row's key c to warp (c - m) mod 8.
            const std::uint32_t row = index / block_warps, column = index % block_warps;
            if (row % parts == p) {
              load[(column - row / parts) % block_warps] += turn + (north + at_once - 1) / at_once;
              halves[(column - row / parts) % block_warps] += north;
              out[1].visits += (north + at_once - 1) / at_once;
            }
          } else {
            const std::uint32_t run = (p + index) % parts;
            for (std::uint32_t w = 0; w < block_warps; ++w) {
              const std::uint32_t first = run * run_length + w * at_once;
              load[w] += turn + (north > first ? (north - first + parts * run_length - 1) / (parts * run_length) : 0);
            }
          }
          key = (key - free) & free;
          ++index;
        } while (key != 0);
        warp_balance& to = out[by_warps ? 1 : 0];
        for (const double l : load) to.all += l;
        for (const double h : halves) to.pooled += std::ceil(h / at_once);
        to.slowest += block_warps * *std::max_element(load.begin(), load.end());
        ++to.items;
      }
    }
  }
}

struct round_end {
  double makespan = 0, even = 0;
  std::size_t items = 0;
  double tables = 0, north = 0, key_loop = 0;  // the work's parts
  double north_listed = 0;                     // north, were each item's keys' halves one list
  double key_loop_held = 0;                    // key_loop, were keys with no north half skipped
};

// The items in order, each to the slot that frees first.
round_end schedule(const std::vector<visit_item>& items, std::uint32_t slots, double setup) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::uint32_t k = 0; k < slots; ++k) free_at.push(0);
  round_end end;
  double work = 0;
  for (const visit_item& item : items) {
    const double cost = setup + static_cast<double>(item.north + item.key_loop);
    const double done = free_at.top() + cost;
    free_at.pop();
    free_at.push(done);
    end.makespan = std::max(end.makespan, done);
    work += cost;
    end.tables += setup;
    end.north += static_cast<double>(item.north);
    end.key_loop += static_cast<double>(item.key_loop);
    end.north_listed += static_cast<double>(item.north_listed);
    end.key_loop_held += static_cast<double>(item.key_loop_held);
  }
  end.even = work / slots;
  end.items = items.size();
  return end;
}

// The arena a stream of a device run takes: an H200's (139 GiB, a
// sixteenth kept for the runtime) over the 16 streams of the device runs in
// docs/gpu-runs/, no more than a round of the board's largest groups uses.
// Where a job is cut into pieces it is by this, as on that device.
std::uint64_t device_arena_words(int n) {
  const std::uint64_t h200 = std::uint64_t{139} << 30;
  const std::uint64_t bytes =
      stream_share({.free = h200, .total = h200}, 16, most_useful_stream_bytes(largest_group_halves(n)));
  return bytes / sizeof(std::uint64_t);
}

int run(int argc, char** argv) {
  const nqueens::bench::round_window window =
      nqueens::bench::read_round_window(argc, argv, "nqueens_gpu_round_balance", max_gpu_board_size, 792, 300);
  const int n = window.n;
  // To 22 the whole quarter tables, as a device holds them (to 24 where
  // they fit); past it each job's own lists, as the engine builds them past
  // 24: the same halves either way, so the same keys.
  const bool own_lists = n > 22;
  const auto tables = own_lists ? nullptr : std::make_unique<const half_board_tables>(n);
  std::vector<visit_item> whole, shared;
  std::uint64_t count_rounds = 0, keys = 0, south_halves = 0;
  std::pair<std::uint32_t, std::uint32_t> key_bits{UINT32_MAX, 0};  // the fewest and most a job took
  std::array<warp_balance, 2> balance{};                            // walks shared, walks by warps
  emulator_options options{.arena_words = device_arena_words(n)};
  // Each count round's visit as its scan dealt it, not run: the model needs
  // its items, and past n = 22 the CPU could not count its pairs in hours.
  options.instead_of_visit = [&](std::span<const gpu_job> jobs) {
    ++count_rounds;
    for (const gpu_job& job : jobs) {
      const job_state& s = *job.state;
      key_bits.first = std::min(key_bits.first, s.layout.key_bits);
      key_bits.second = std::max(key_bits.second, s.layout.key_bits);
      keys += std::uint64_t{1} << s.layout.key_bits;
      south_halves += s.group_size[1];
      add_items(*job.state, false, whole);
      add_items(*job.state, true, shared);
      add_warp_balance(*job.state, balance);
    }
  };
  const auto backend = emulated_backend(tables.get(), options);
  const auto stream = backend->open_stream();
  gpu_rounds rounds(*stream);
  // The window's classes in one call, as the engine hands a stream a batch.
  std::vector<gpu_job> jobs;
  std::vector<std::array<quarter_list, 4>> lists(window.classes.size());
  const int h = n / 2;
  for (std::size_t k = 0; k < window.classes.size(); ++k) {
    const column_class& c = window.classes[k];
    jobs.push_back(job_for({c.north, c.middle, c.weight, 0}, n, 1, *backend));
    if (!own_lists) continue;
    gpu_job& job = jobs.back();
    for (int q = 0; q < 4; ++q) {  // north west, north east, south west, south east
      const int group = q / 2;
      const bool east = q % 2 != 0;
      const std::uint32_t side_columns =
          east ? job.columns[group] >> h : job.columns[group] & static_cast<std::uint32_t>(low_bits(h));
      const quarter_view v =
          lists[k][static_cast<std::size_t>(q)].build(n, east ? h : 0, east ? n - h : h, side_columns);
      (east ? job.east : job.west)[group] = {v.offsets, v.masks, v.signatures};
    }
    job.own_quarters = true;
  }
  std::vector<pair_counts> counts(jobs.size());
  rounds.count(jobs, counts);
  std::printf("n = %d, classes %llu..%llu, %u slots, %.0f warp steps an item's tables, %llu count round%s:\n", n,
              static_cast<unsigned long long>(window.first),
              static_cast<unsigned long long>(window.first + window.classes.size() - 1), window.slots, window.setup,
              static_cast<unsigned long long>(count_rounds), count_rounds == 1 ? "" : "s");
  if (keys > 0) {
    std::printf("  keys of %u to %u bits (at most %u), %.0f south halves a key on average\n", key_bits.first,
                key_bits.second, max_job_key_bits, static_cast<double>(south_halves) / static_cast<double>(keys));
  }
  for (const auto& [name, items] :
       {std::pair<const char*, const std::vector<visit_item>&>{"whole", whole}, {"in shares", shared}}) {
    const round_end end = schedule(items, window.slots, window.setup);
    const double work = end.tables + end.north + end.key_loop;
    std::printf(
        "  blocks %-9s %8zu items, ends at %.0f, %.2fx an even share (%.0f); tables %.0f%%, north halves %.0f%%, key "
        "loop %.0f%%\n",
        name, end.items, end.makespan, end.even > 0 ? end.makespan / end.even : 0.0, end.even,
        work > 0 ? 100 * end.tables / work : 0.0, work > 0 ? 100 * end.north / work : 0.0,
        work > 0 ? 100 * end.key_loop / work : 0.0);
    std::printf("    north steps as visited %.0f, were each item's keys' halves one list %.0f (%.2fx)\n",
                end.north / window.slots, end.north_listed / window.slots,
                end.north_listed > 0 ? end.north / end.north_listed : 0.0);
    std::printf("    key turns through keys that hold north halves: %.0f%% of the key loop's\n",
                end.key_loop > 0 ? 100 * end.key_loop_held / end.key_loop : 0.0);
  }
  for (const auto& [name, b] : {std::pair<const char*, const warp_balance&>{"every warp walks every key", balance[0]},
                                {"keys dealt among the warps", balance[1]}}) {
    if (b.items == 0) continue;
    std::printf("  %-26s %8llu sampled items: the slowest warp's steps x %u over all warps' %.2fx\n", name,
                static_cast<unsigned long long>(b.items), block_warps, b.slowest / b.all);
    if (b.visits > 0)
      std::printf("    visits a key at a time over a warp's keys as one list %.2fx\n", b.visits / b.pooled);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_gpu_round_balance", [&] { return run(argc, argv); });
}
