// Times every slice of chosen classes of a quadrant plan: how a class's work
// splits across its slices, and what slicing costs (docs/reach.md, "Heavy
// classes sliced by size"). A quadrant plan lists each class's slices side
// by side, so class c's slices are the subproblems c x D .. c x D + D - 1
// (D the plan's split depth).
//
//   nqueens_class_slots N SPLIT_DEPTH MAX_MEMORY CLASS...
//
// SPLIT_DEPTH 0 is the automatic plan (at n = 28: 4 slots filled by size;
// 1 there: never sliced). MAX_MEMORY (bytes, 0: the default) sizes the
// layout of a one-thread run; one the count would refuse is refused. Every
// CLASS is checked before any is timed: a typo in the last of several n = 28
// classes was found hours in. Prints a CSV line per slice (n, class, slice,
// slices, thread CPU seconds, solutions) on stdout and each class's total
// on stderr.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/arguments.hpp"
#include "nqueens/execute.hpp"
#include "nqueens/memory.hpp"
#include "nqueens/plan.hpp"
#include "thread_clock.hpp"
#include "tool_main.hpp"
#include "warm_up.hpp"

namespace {

int run(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: nqueens_class_slots N SPLIT_DEPTH MAX_MEMORY CLASS...\n  (MAX_MEMORY as --max-memory "
                 "takes it: 8G, 512M, or bytes; 0 for the default)\n");
    return 2;
  }
  // Read as the tool reads them: "8G" is 8 GiB, never 8 bytes.
  using nqueens::cli::parse_integer;
  const auto n = static_cast<int>(parse_integer(argv[1], "N", 4, 28));
  const auto split_depth = static_cast<int>(parse_integer(argv[2], "SPLIT_DEPTH", 0, nqueens::max_split_depth));
  const std::uint64_t max_memory =
      std::string_view(argv[3]) == "0" ? 0 : nqueens::cli::parse_byte_size(argv[3], "MAX_MEMORY");
  const nqueens::planned_run planned =
      nqueens::plan_within_memory(n, {.kind = nqueens::engine::quadrant, .split_depth = split_depth}, max_memory, 1);
  const nqueens::plan& p = planned.p;
  const auto slices = static_cast<std::size_t>(p.split_depth());
  const std::size_t classes = p.engine_subproblems() / slices;
  std::vector<std::size_t> chosen;
  for (int a = 4; a < argc; ++a) {
    chosen.push_back(static_cast<std::size_t>(
        parse_integer(argv[a], "CLASS", 0, static_cast<long long>(classes) - 1)));  // the range names the plan's
  }
  const nqueens::run_context context(p, std::nullopt, 1, nullptr, planned.engine_memory);
  nqueens::bench::warm_up(context, n, p.engine_subproblems());
  for (const std::size_t c : chosen) {
    double total = 0;
    unsigned long long solutions = 0;
    for (std::size_t k = 0; k < slices; ++k) {
      const double begin = nqueens::bench::thread_seconds();
      const nqueens::subproblem_count count = context.solve(c * slices + k);
      const double seconds = nqueens::bench::thread_seconds() - begin;
      total += seconds;
      solutions += count.total;
      if (std::printf("%d,%zu,%zu,%zu,%.6f,%llu\n", n, c, k, slices, seconds,
                      static_cast<unsigned long long>(count.total)) < 0 ||
          std::fflush(stdout) != 0) {
        std::fprintf(stderr, "nqueens_class_slots: cannot write the output\n");
        return 1;
      }
    }
    std::fprintf(stderr, "n = %d, class %zu: %zu slices, %.6f s, %llu solutions\n", n, c, slices, total, solutions);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return nqueens::bench::tool_main("nqueens_class_slots", [&] { return run(argc, argv); });
}
