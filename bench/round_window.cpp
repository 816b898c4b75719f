#include "round_window.hpp"

#include <cstdint>
#include <string>

#include "cli/arguments.hpp"
#include "engines/gpu/gpu_job.hpp"

namespace nqueens::bench {

round_window read_round_window(int argc, char** argv, const char* program, int most_board, std::uint32_t default_slots,
                               std::uint64_t default_setup) {
  if (argc < 3 || argc > 6)
    throw cli::usage_error(std::string("usage: ") + program + " N FIRST [JOBS] [SLOTS] [SETUP]");
  // Read as the tool reads its numbers: "-1" is refused, never 2^64 - 1.
  const auto argument = [&](int k, const char* what, long long lo, long long hi, std::uint64_t fallback) {
    return k < argc ? static_cast<std::uint64_t>(cli::parse_integer(argv[k], what, lo, hi)) : fallback;
  };
  constexpr long long most = INT64_MAX;
  round_window window;
  window.n = static_cast<int>(argument(1, "N", 8, most_board, 0));
  window.first = argument(2, "FIRST", 0, most, 0);
  const std::uint64_t jobs = argument(3, "JOBS", 1, most, detail::gpu::round_jobs);
  window.slots = static_cast<std::uint32_t>(argument(4, "SLOTS", 1, UINT32_MAX, default_slots));
  window.setup = static_cast<double>(argument(5, "SETUP", 0, most, default_setup));
  std::uint64_t index = 0;
  detail::column_classes(window.n).for_each([&](const detail::column_class& c) {
    if (index >= window.first && index - window.first < jobs) window.classes.push_back(c);
    ++index;
  });
  if (window.classes.empty()) {
    throw cli::usage_error("board " + std::to_string(window.n) + " has " + std::to_string(index) + " classes: FIRST " +
                           std::to_string(window.first) + " is past them");
  }
  return window;
}

}  // namespace nqueens::bench
