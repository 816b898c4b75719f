#include "run/measure/eta_replay.hpp"

#include <cmath>

namespace nqueens::detail {

double replayed_eta_error(std::span<const std::size_t> order, std::span<const double> seconds,
                          std::span<const std::uint64_t> work) {
  double total_work = 0, total_seconds = 0;
  for (const std::size_t i : order) {
    total_work += static_cast<double>(work[i]);
    total_seconds += seconds[i];
  }
  double done_work = 0, elapsed = 0, worst = 0;
  for (const std::size_t i : order) {
    done_work += static_cast<double>(work[i]);
    elapsed += seconds[i];
    const double f = done_work / total_work;
    const double left = total_seconds - elapsed;
    if (f < 0.1 || f > 0.9 || left <= 0) continue;
    const double error = (elapsed * (1 - f) / f - left) / left;
    if (std::fabs(error) > std::fabs(worst)) worst = error;
  }
  return worst;
}

}  // namespace nqueens::detail
