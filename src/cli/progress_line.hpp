#pragma once

// The --progress display on stderr. On a terminal: one line redrawn in place,
// cut to the terminal's width (read at every redraw, so a resize is followed)
// by dropping the least useful fields first, with a bar where there is room;
// where TERM says the terminal takes no escape sequences (dumb, or unset), it
// is redrawn with a carriage return and spaces alone. Elsewhere (a file, a
// pipe, a batch log): a plain line at a count's first report, every 10
// seconds, and at its end.

#include <string>
#include <utility>

#include "nqueens/progress.hpp"

namespace nqueens::cli {

/// Within `width` characters (0: no limit and no bar, for logs), e.g.
/// " 42.3% [#####.......] ETA 1m38s  1m12s elapsed  14.8 G solutions  206 M/s
/// 4,212/13,070 subproblems  2 threads". Fields are kept in the order percent,
/// label, ETA, bar, solutions, pace, elapsed, subproblems, threads while
/// they fit.
/// Without `solutions` (a run whose p.total_so_far stays 0: `rotational`)
/// the solutions and pace are left out. A non-empty `workers` is shown in
/// place of p.threads ("2 ranks x 4 threads": p.threads is rank 0's alone).
/// A non-empty `label` (which count of several: "Q(19), 3 of 4") leads the
/// line, and is kept after the percent, before every other field.
std::string format_progress(const progress& p, int width = 0, bool solutions = true, const std::string& workers = {},
                            const std::string& label = {});

/// The columns of the terminal on `fd` (TIOCGWINSZ), else $COLUMNS where it
/// is a plain number from 1 to 65535, else 80.
int terminal_columns(int fd);

class progress_printer {
 public:
  /// `terminal`: `fd` is a terminal, redrawn in place. `solutions` and
  /// `workers`: as format_progress.
  explicit progress_printer(bool terminal, int fd = 2, bool solutions = true, std::string workers = {});
  /// Clears a line left on the terminal (finish()).
  ~progress_printer();
  progress_printer(const progress_printer&) = delete;
  progress_printer& operator=(const progress_printer&) = delete;
  /// Prints `p` if it is time to (always on a terminal; otherwise at a
  /// count's first report, every 10 s, and its last).
  void operator()(const progress& p);
  /// The label that leads the line from the next line on (which count of
  /// several: `verify`'s board, `scale`'s run).
  void set_label(std::string label) { label_ = std::move(label); }
  /// Off the terminal's foreground (a job in the background, or under
  /// `timeout`, which runs the command in a process group of its own) the
  /// line is not drawn, as it would land on what the user types; asked for
  /// (--progress), it is printed there as off a terminal.
  void print_in_background(bool asked) noexcept { plain_in_background_ = asked; }
  /// Clears the line drawn on the terminal, if any, so that what comes next
  /// (an error, on a count that failed) starts on a row of its own.
  void finish() noexcept;

 private:
  bool in_background() const noexcept;
  void write(const std::string& text) const noexcept;
  bool terminal_;
  bool escapes_;
  int fd_;
  bool solutions_;
  std::string workers_;
  std::string label_;
  bool plain_in_background_ = false;
  double next_plain_ = 0.0;
  std::size_t drawn_ = 0;  // characters of the line on screen, for a redraw without escapes
};

}  // namespace nqueens::cli
