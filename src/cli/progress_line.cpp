#include "cli/progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cli/io/stoppable_io.hpp"
#include "cli/message_text.hpp"
#include "cli/number_text.hpp"
#include "engines/plain_number.hpp"

namespace nqueens::cli {

std::string format_progress(const progress& p, int width, bool solutions, const std::string& workers,
                            const std::string& label) {
  // Rounded down, as the bar is (the 1e-9 absorbs 0.423's binary error), and
  // never 100.0% while a subproblem still runs: rounded to nearest, 99.96% of
  // the estimated work read "100.0%" with the last ones still counting.
  double tenths = std::floor(1000.0 * std::clamp(p.fraction, 0.0, 1.0) + 1e-9);
  if (p.finished < p.subproblems) tenths = std::min(tenths, 999.0);
  char percent[16];
  std::snprintf(percent, sizeof percent, "%5.1f%%", tenths / 10.0);
  const double counted = static_cast<double>(p.total_so_far - p.total_resumed);
  const double running = p.elapsed_seconds - p.stopped_seconds;  // a Ctrl-Z's time is no counting
  // The fields in the order they are shown; `rank` says which go first when
  // the line is narrow (0 stays always). `widest` is the most a field's text
  // takes during a run (its counters grown, "365d23h" for a time): the line
  // is laid out by it, so that neither the bar, which takes the room left,
  // nor the fields kept change as the counters grow. The rate is `reserved`:
  // its room is held before the first subproblem ends and gives it one.
  struct field {
    int rank;
    std::string text;
    std::size_t widest = 0;
    bool bar = false;
    bool reserved = false;
  };
  const std::string all_subproblems = format_grouped(p.subproblems);
  std::vector<field> fields = {
      {1, label},
      {0, percent},
      {3, "", 0, true},
      {2, p.eta_seconds ? "ETA " + format_duration(*p.eta_seconds) : "ETA --", std::strlen("ETA 365d23h")},
      {6, format_duration(p.elapsed_seconds) + " elapsed", std::strlen("99d23h elapsed")},
      {4,
       solutions
           ? format_scaled(static_cast<double>(p.total_so_far)) + (p.total_so_far == 1 ? " solution" : " solutions")
           : "",
       std::strlen("99.9 T solutions")},
      {5, solutions && running > 0 && counted > 0 ? format_scaled(counted / running) + "/s" : "",
       std::strlen("99.9 G/s"), false, solutions},
      {7, format_grouped(p.finished) + "/" + all_subproblems + " subproblems",
       2 * all_subproblems.size() + std::strlen("/ subproblems")},
      {8, workers.empty() ? cli::counted(static_cast<std::size_t>(p.threads), "thread") : workers},
  };
  for (field& f : fields) f.widest = std::max(f.widest, f.text.size());
  constexpr std::size_t separator = 2, bar_least = 10, bar_most = 30;
  const auto shown = [&](const field& f) { return f.bar ? width > 0 : !f.text.empty() || f.reserved; };
  const auto size_of = [&](const field& f) { return f.bar ? bar_least + 2 : f.widest; };
  // By rank, up to the first field that does not fit: those after it are
  // dropped too, so that a narrower line loses fields in one fixed order
  // (a short "2 threads" never outlives the subproblems).
  const std::size_t limit = width > 0 ? static_cast<std::size_t>(width) : SIZE_MAX;
  std::vector<bool> kept(fields.size(), false);
  std::size_t used = 0;
  bool full = false;
  const int last_rank = std::ranges::max(fields, {}, &field::rank).rank;
  for (int rank = 0; rank <= last_rank && !full; ++rank) {
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (fields[k].rank != rank || !shown(fields[k])) continue;
      const std::size_t size = size_of(fields[k]) + (used == 0 ? 0 : separator);
      if (rank == 0 || (limit >= used && size <= limit - used)) {
        kept[k] = true;
        used += size;
      } else {
        full = true;
      }
    }
  }
  std::string line;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (!kept[k] || (!fields[k].bar && fields[k].text.empty())) continue;  // a reserved room, still empty
    if (!line.empty()) line.append(fields[k].bar ? 1 : separator, ' ');
    if (fields[k].bar) {
      // The room the widest fields leave widens the bar, up to bar_most.
      const std::size_t inner = bar_least + std::min(bar_most - bar_least, limit - std::min(limit, used));
      auto filled = static_cast<std::size_t>(std::floor(std::clamp(p.fraction, 0.0, 1.0) * static_cast<double>(inner)));
      if (p.finished < p.subproblems) filled = std::min(filled, inner - 1);  // full as the percent reaches 100.0
      line += '[' + std::string(filled, '#') + std::string(inner - filled, '.') + ']';
    } else {
      line += fields[k].text;
    }
  }
  if (line.size() > limit) {  // narrower than the percent alone: never a number cut short (" 6" of " 65.2%")
    const std::size_t start = line.find_first_not_of(' ');
    line = start != std::string::npos && line.size() - start <= limit ? line.substr(start) : std::string();
  }
  return line;
}

int terminal_columns(int fd) {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  // As shells and terminals do, a COLUMNS that is not a width is ignored,
  // not an error; but only a whole plain number is one (atoi would take "120x" for
  // 120 and wrap 10 digits), no wider than a terminal can be (ws_col).
  if (const char* columns = std::getenv("COLUMNS")) {
    if (const auto value = detail::plain_integer(columns, 1, std::numeric_limits<unsigned short>::max())) {
      return static_cast<int>(*value);
    }
  }
  return 80;
}

namespace {

// True when $TERM names a terminal that takes escape sequences: set, and
// not "dumb".
bool terminal_takes_escapes() {
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::strcmp(term, "dumb") != 0;
}

}  // namespace

progress_printer::progress_printer(bool terminal, int fd, bool solutions, std::string workers)
    : terminal_(terminal),
      escapes_(terminal && terminal_takes_escapes()),
      fd_(fd),
      solutions_(solutions),
      workers_(std::move(workers)) {}

progress_printer::~progress_printer() { finish(); }

// A job in the background draws nothing, erases nothing: its line would land
// on the shell's prompt and what the user types. tcgetpgrp is -1 where the
// descriptor is no controlling terminal: drawn then, as before.
bool progress_printer::in_background() const noexcept {
  const pid_t foreground = ::tcgetpgrp(fd_);
  return foreground != -1 && foreground != ::getpgrp();
}

// Past stdio, in one write where it can, and never waiting long: a
// terminal or pipe that takes nothing (a paused terminal, a full pipe
// nobody reads) held a plain write, restarted after a signal, and with it
// the count's end. A line not taken, or a failed write, is no count's
// failure: the line is lost, and the next one draws the whole line again.
void progress_printer::write(const std::string& text) const noexcept { write_display(fd_, text.data(), text.size()); }

void progress_printer::finish() noexcept {
  if (!terminal_ || drawn_ == 0 || in_background()) return;
  if (escapes_) {
    write("\r\033[K");
  } else {
    const auto width = static_cast<std::size_t>(std::max(1, terminal_columns(fd_) - 1));
    std::string blank(1, '\r');  // appended: GCC 12 misreads "\r" + string (-Wrestrict)
    blank.append(std::min(drawn_, width), ' ');
    blank += '\r';
    write(blank);
  }
  drawn_ = 0;
}

void progress_printer::operator()(const progress& p) {
  std::string out;
  const bool background = terminal_ && in_background();
  if (background && !plain_in_background_) return;
  if (terminal_ && !background) {
    // A count quicker than its first snapshot drew nothing: there is nothing
    // to clear (verify's and scale's rows were each led by an erase).
    if (p.last && drawn_ == 0) return;
    // One column is left free: a line that fills the last one makes some
    // terminals wrap, and the next \r would redraw only the new row.
    const int width = std::max(1, terminal_columns(fd_) - 1);
    const std::string line = p.last ? std::string() : format_progress(p, width, solutions_, workers_, label_);
    out += '\r';
    out += line;
    if (escapes_) {
      out += "\033[K";
    } else {
      // No erase-line: spaces cover what the last line left, then \r
      // returns to where the next one starts. Never past the width: on a
      // terminal that shrank, the spaces would wrap and scroll.
      const std::size_t old = std::min(drawn_, static_cast<std::size_t>(width));
      const std::size_t cover = old > line.size() ? old - line.size() : 0;
      out.append(cover, ' ');
      if (cover > 0 || p.last) out += '\r';
      if (cover > 0 && !p.last) out += line;
    }
    drawn_ = line.size();
  } else if (p.last || p.elapsed_seconds >= next_plain_) {
    // After a count's last line, the next count's first (verify and scale
    // run several, each timed from 0).
    next_plain_ = p.last ? 0.0 : p.elapsed_seconds + 10.0;
    // On a terminal (a job in the background) cut to its width as the drawn
    // line is: a line that wraps takes two rows of what the user is doing.
    constexpr int prefix = 10;  // "progress: "
    const int width = background ? std::max(1, terminal_columns(fd_) - 1 - prefix) : 0;
    // A terminal too narrow for the percent gets no line.
    const std::string line = format_progress(p, width, solutions_, workers_, label_);
    if (!line.empty()) {
      out = "progress: ";
      out += line;
      out += '\n';
    }
  }
  if (!out.empty()) write(out);
}

}  // namespace nqueens::cli
