#include "cli/number_text.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace nqueens::cli {

std::string format_duration(double seconds) {
  char text[32];
  if (!(seconds >= 0)) seconds = 0;
  // From a (Julian) year on, years alone: "1199d05h" read as a puzzle, and
  // an estimate that long is good to three digits at best. Past a million
  // years (an estimate of Q(32) on one thread, say), or infinite: the figure
  // is a magnitude, and no long would hold it rounded.
  constexpr double year = 3.15576e7;
  if (!(seconds < year)) {
    const double years = std::isfinite(seconds) ? seconds / year : HUGE_VAL;
    std::snprintf(text, sizeof text, years < 999.5 ? "%.3gy" : years < 1e6 ? "%.0fy" : "%.3gy", years);
    return text;
  }
  // Each unit chosen by the value once rounded to it: 59.96 s is "1m00s",
  // never "60.0s", and 3599.6 s "1h00m", never "60m00s".
  if (seconds < 59.95) {
    std::snprintf(text, sizeof text, "%.1fs", seconds);
    return text;
  }
  if (const long s = std::lround(seconds); s < 3600) {
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
    return text;
  }
  if (const long m = std::lround(seconds / 60); m < 24L * 60) {
    std::snprintf(text, sizeof text, "%ldh%02ldm", m / 60, m % 60);
    return text;
  }
  const long h = std::lround(seconds / 3600);
  std::snprintf(text, sizeof text, "%ldd%02ldh", h / 24, h % 24);
  return text;
}

std::string format_scaled(double value) {
  char text[32];
  if (!(value >= 0)) value = 0;
  if (value < 999.5) {  // what would print as 1000 is "1.00 k"
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  constexpr std::array<const char*, 6> prefixes = {"k", "M", "G", "T", "P", "E"};
  std::size_t k = 0;
  value /= 1000;
  while (value >= 999.5 && k + 1 < prefixes.size()) {
    value /= 1000;
    ++k;
  }
  std::snprintf(text, sizeof text,
                value < 9.995   ? "%.2f %s"
                : value < 99.95 ? "%.1f %s"
                                : "%.0f %s",
                value, prefixes[k]);
  return text;
}

std::string format_grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (std::size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, 1, ',');
  return digits;
}

std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
  return buffer;
}

}  // namespace nqueens::cli
