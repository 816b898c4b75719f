#pragma once

// The mean and standard error of a sample drawn without replacement, kept
// as the draws come (stratified_sample.hpp's strata).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace nqueens::detail {

// A running mean and spread of draws (Welford's update: one pass, no list).
class running_mean {
 public:
  void add(double x) noexcept {
    ++count_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    squares_ += delta * (x - mean_);
  }
  std::size_t count() const noexcept { return count_; }
  double mean() const noexcept { return mean_; }
  /// The mean's standard error for draws without replacement from
  /// `population` (the finite population correction: 0 once all are drawn);
  /// NaN, unknown, from one draw of several (no spread to measure).
  double error(std::size_t population) const noexcept {
    if (count_ >= population) return 0;
    if (count_ < 2) return std::numeric_limits<double>::quiet_NaN();
    const auto n = static_cast<double>(count_);
    const double left = 1 - n / static_cast<double>(std::max(population, count_));
    return std::sqrt(squares_ / (n - 1) / n * left);
  }

 private:
  std::size_t count_ = 0;
  double mean_ = 0, squares_ = 0;
};

}  // namespace nqueens::detail
