#include "cli/progress_line.hpp"

#include <cmath>
#include <cstdio>

namespace nqueens::cli {

std::string format_duration(double seconds) {
  char text[32];
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1fs", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ldh%02ldm", m / 60, m % 60);
  }
  return text;
}

std::string format_progress(const progress& p) {
  char text[256];
  const std::string eta = p.eta_seconds ? "ETA " + format_duration(*p.eta_seconds) : "ETA --";
  std::snprintf(text, sizeof text, "%5.1f%%  %s elapsed  %s  %s solutions  %zu/%zu subproblems  %d thread%s",
                100.0 * p.fraction, format_duration(p.elapsed_seconds).c_str(), eta.c_str(),
                to_string(p.total_so_far).c_str(), p.finished, p.subproblems, p.threads, p.threads == 1 ? "" : "s");
  return text;
}

void progress_printer::operator()(const progress& p) {
  if (terminal_) {
    // \r and erase-to-end redraw the line; the last snapshot clears it so the
    // result starts on a clean line.
    if (p.last) {
      std::fputs("\r\033[K", stderr);
    } else {
      std::fprintf(stderr, "\r\033[K%s", format_progress(p).c_str());
    }
  } else if (p.last || p.elapsed_seconds >= next_plain_) {
    next_plain_ = p.elapsed_seconds + 10.0;
    std::fprintf(stderr, "progress: %s\n", format_progress(p).c_str());
  }
  std::fflush(stderr);
}

}  // namespace nqueens::cli
