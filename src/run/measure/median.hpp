#pragma once

// The median the measurements report (scaling's repeats, load balance's
// subproblem times): the middle value, or the mean of the two middle ones.

#include <algorithm>
#include <vector>

namespace nqueens::detail {

/// The median of `values`; 0 for none.
inline double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace nqueens::detail
