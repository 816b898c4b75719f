// The join study (docs/join-study.md): real (north, south) groups of the
// quadrant engine's subproblems, and what each candidate way of counting
// their disjoint pairs costs on them.
//
//   nqueens_join_study N SAMPLES SEED [DUMP_DIR]
//
// Draws SAMPLES subproblems uniformly (the same seed, the same draws), builds
// their groups as the engine does (each subproblem's own quarter lists), and
// prints one CSV line per subproblem, with the share of pairs a perfect filter on
// the 12, 16, 20 and 24 likeliest-colliding bits would leave. With DUMP_DIR, writes each group as raw
// 64-bit masks (n<N>_<index>.north / .south) for offline study.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "engines/engine_definition.hpp"
#include "engines/join_model/column_classes.hpp"
#include "engines/quadrant/quadrant_engine.hpp"
#include "engines/quadrant/quadrant_kernels.hpp"
#include "engines/quadrant/quadrant_solve.hpp"
#include "kernels/bits.hpp"
#include "nqueens/board.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/plan.hpp"
#include "run/plan_access.hpp"
#include "thread_clock.hpp"
#include "tool_main.hpp"

namespace {

using namespace nqueens;
using namespace nqueens::detail;

struct groups {
  std::vector<std::uint64_t> north, south;
};

// A task's two groups, whole (slice 0 of 1), as quadrant_solve.cpp's solve_task
// builds them.
groups groups_of(int n, const quadrant_task& s, const quadrant_kernels& k, quadrant_scratch& scratch) {
  const int h = n / 2;
  const std::uint32_t full = low_bits(n);
  const int middle = s.middle;
  const quarter_source source(n, nullptr);
  const std::uint32_t south_columns = south_columns_of(n, s.north, middle);
  const auto nq = source.quarters(s.north, scratch.west, scratch.east);
  const auto sq = source.quarters(south_columns, scratch.south_west, scratch.south_east);
  groups g;
  std::size_t nc = north_halves(k, nq[0], nq[1], h, std::popcount(s.north & low_bits(h)), g.north);
  std::size_t sc = north_halves(k, sq[0], sq[1], h, std::popcount(south_columns & low_bits(h)), g.south);
  g.north.resize(nc);
  g.south.resize(sc);
  const std::uint64_t queen = middle >= 0 ? north_mask(1U << middle, 1U << middle) : 0;
  std::erase_if(g.north, [&](std::uint64_t a) { return (a & queen) != 0; });
  for (auto& b : g.south) {
    b = middle < 0 ? south_mask(static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), full)
                   : std::rotl(b, 32);
  }
  std::erase_if(g.south, [&](std::uint64_t b) { return (b & queen) != 0; });
  return g;
}

// The share of pairs that fit on the k bits of highest collision chance
// (share of north masks with the bit x share of south masks with it): what a
// perfect filter keyed on those bits would leave to test. Exact, by a
// subset-sum transform over the k bits.
double surviving_share(const groups& g, std::uint64_t shared, int k) {
  std::array<double, 64> chance{};
  for (int bit = 0; bit < 64; ++bit) {
    if ((shared >> bit & 1) == 0) continue;
    double in_north = 0, in_south = 0;
    for (const auto a : g.north) in_north += static_cast<double>(a >> bit & 1);
    for (const auto b : g.south) in_south += static_cast<double>(b >> bit & 1);
    chance[static_cast<std::size_t>(bit)] =
        in_north / static_cast<double>(g.north.size()) * in_south / static_cast<double>(g.south.size());
  }
  std::array<int, 64> order{};
  for (int bit = 0; bit < 64; ++bit) order[static_cast<std::size_t>(bit)] = bit;
  std::sort(order.begin(), order.end(),
            [&](int x, int y) { return chance[static_cast<std::size_t>(x)] > chance[static_cast<std::size_t>(y)]; });
  k = std::min(k, std::popcount(shared));
  std::array<std::uint64_t, 64> bit_of{};
  for (int j = 0; j < k; ++j)
    bit_of[static_cast<std::size_t>(j)] = std::uint64_t{1} << order[static_cast<std::size_t>(j)];
  const auto key = [&](std::uint64_t mask) {
    std::uint32_t v = 0;
    for (int j = 0; j < k; ++j) v |= (mask & bit_of[static_cast<std::size_t>(j)]) != 0 ? 1U << j : 0U;
    return v;
  };
  const std::uint32_t all = static_cast<std::uint32_t>(low_bits(k));
  std::vector<double> north(std::size_t{all} + 1), inside(std::size_t{all} + 1);
  for (const auto a : g.north) ++north[key(a)];
  for (const auto b : g.south) ++inside[key(b)];
  for (int j = 0; j < k; ++j) {  // inside[t] = south masks whose key lies within t
    for (std::uint32_t t = 0; t <= all; ++t) {
      if ((t >> j & 1) != 0) inside[t] += inside[t ^ (1U << j)];
    }
  }
  double fitting = 0;
  for (std::uint32_t x = 0; x <= all; ++x) fitting += north[x] * inside[all & ~x];
  return fitting / (static_cast<double>(g.north.size()) * static_cast<double>(g.south.size()));
}

int run(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: nqueens_join_study N SAMPLES SEED [DUMP_DIR]\n");
    return 2;
  }
  // Read as the tool reads its numbers; a board the engine does not take is
  // refused by the plan.
  const auto n = static_cast<int>(cli::parse_integer(argv[1], "N", 1, max_board_size));
  const auto samples = static_cast<int>(cli::parse_integer(argv[2], "SAMPLES", 1, INT32_MAX));
  const auto seed = static_cast<unsigned>(cli::parse_integer(argv[3], "SEED", 0, UINT32_MAX));
  const std::string dump = argc > 4 ? argv[4] : "";
  const plan p(n, {.kind = engine::quadrant, .split_depth = 1});
  const engine_plan& ep = *plan_access::engine(p);
  const quadrant_kernels& k = quadrant_kernels_for(active_isa());
  quadrant_scratch scratch;
  // One untimed count first, where a count takes milliseconds: the pair
  // counter's first touches of its scratch would land in the first sample
  // (warm_up.hpp says by how much).
  if (n <= 23) {
    const groups warm = groups_of(n, quadrant_task_of(ep, ep.size() / 2), k, scratch);
    static_cast<void>(k.count_pairs(warm.north, warm.south, scratch.pairs));
  }
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> draw(0, ep.size() - 1);
  std::printf(
      "n,index,weight,north,south,shared_bits,solutions,pairs_per_solution,count_seconds,ns_per_solution,surviving_k12,"
      "surviving_k16,surviving_k20,surviving_k24\n");
  for (int i = 0; i < samples; ++i) {
    const std::size_t index = draw(random);
    const quadrant_task task = quadrant_task_of(ep, index);
    const groups g = groups_of(n, task, k, scratch);
    std::uint64_t north_bits = 0, south_bits = 0;
    for (const auto a : g.north) north_bits |= a;
    for (const auto b : g.south) south_bits |= b;
    const double start = nqueens::bench::thread_seconds();
    const std::uint64_t solutions = k.count_pairs(g.north, g.south, scratch.pairs);
    const double seconds = nqueens::bench::thread_seconds() - start;
    const double pairs = static_cast<double>(g.north.size()) * static_cast<double>(g.south.size());
    std::printf("%d,%zu,%d,%zu,%zu,%d,%llu,%.1f,%.6f,%.3f,%.5f,%.5f,%.5f,%.5f\n", n, index, task.weight, g.north.size(),
                g.south.size(), std::popcount(north_bits & south_bits), static_cast<unsigned long long>(solutions),
                solutions ? pairs / static_cast<double>(solutions) : 0.0, seconds,
                solutions ? seconds * 1e9 / static_cast<double>(solutions) : 0.0,
                surviving_share(g, north_bits & south_bits, 12), surviving_share(g, north_bits & south_bits, 16),
                surviving_share(g, north_bits & south_bits, 20), surviving_share(g, north_bits & south_bits, 24));
    if (!dump.empty()) {
      for (const auto& [suffix, list] : {std::pair{"north", &g.north}, std::pair{"south", &g.south}}) {
        const std::string path = dump + "/n" + std::to_string(n) + "_" + std::to_string(index) + "." + suffix;
        FILE* f = std::fopen(path.c_str(), "wb");
        if (f == nullptr || std::fwrite(list->data(), 8, list->size(), f) != list->size() || std::fclose(f) != 0) {
          std::fprintf(stderr, "cannot write %s\n", path.c_str());
          return 1;
        }
      }
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_join_study", [&] { return run(argc, argv); });
}
