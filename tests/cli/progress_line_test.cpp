#include "cli/progress_line.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include "cli/signals.hpp"

namespace nqueens::cli {
namespace {

progress hours_into_a_long_run() {
  progress p;
  p.subproblems = 13070;
  p.finished = 4212;
  p.fraction = 0.423;
  p.elapsed_seconds = 3 * 3600 + 65;
  p.eta_seconds = 27 * 3600;
  p.total_so_far = uint128{12'345'678'901'234};
  p.total_resumed = uint128{1'000'000'000'000};
  p.threads = 16;
  return p;
}

// A label (which count of several) leads the line, and is kept before
// every field but the percent.
TEST(ProgressLineTest, ALabelLeadsAndGoesLast) {
  const progress p = hours_into_a_long_run();
  EXPECT_EQ(format_progress(p, 21, true, {}, "Q(19), 3 of 4"), "Q(19), 3 of 4   42.3%");
  EXPECT_EQ(format_progress(p, 20, true, {}, "Q(19), 3 of 4"), " 42.3%");  // nothing less useful without it
  EXPECT_EQ(format_progress(p, 34, true, {}, "Q(19), 3 of 4"), "Q(19), 3 of 4   42.3%  ETA 1d03h");
  EXPECT_EQ(format_progress(p, 0, true, {}, "run 2 of 6").rfind("run 2 of 6   42.3%  ETA 1d03h  ", 0), 0u);
  for (int width = 1; width <= 200; ++width) {
    const std::string line = format_progress(p, width, true, {}, "Q(19), 3 of 4");
    EXPECT_LE(line.size(), static_cast<std::size_t>(width)) << line;
    if (line.find("ETA") != std::string::npos) EXPECT_EQ(line.rfind("Q(19), 3 of 4", 0), 0u) << width << ": " << line;
  }
}

// Never wider than asked, whatever the width; the least useful fields go
// first (threads, subproblems, elapsed...), the percent never.
TEST(ProgressLineTest, FitsEveryWidthDroppingTheLeastUsefulFieldsFirst) {
  const progress p = hours_into_a_long_run();
  // Each field is shown only with every more useful one: the line loses
  // them in one order as it narrows (a short "16 threads" does not outlive
  // the subproblems).
  const char* const by_use[] = {"ETA", "[", "solutions", "/s", "elapsed", "subproblems", "threads"};
  for (int width = 1; width <= 200; ++width) {
    const std::string line = format_progress(p, width);
    EXPECT_LE(line.size(), static_cast<std::size_t>(width)) << line;
    for (std::size_t k = 1; k < std::size(by_use); ++k) {
      if (line.find(by_use[k]) != std::string::npos) {
        EXPECT_NE(line.find(by_use[k - 1]), std::string::npos) << width << ": " << line;
      }
    }
  }
  EXPECT_EQ(format_progress(p, 20), " 42.3%  ETA 1d03h");
  // Narrower than the percent: the percent whole, or nothing; never " 4".
  EXPECT_EQ(format_progress(p, 6), " 42.3%");
  EXPECT_EQ(format_progress(p, 5), "42.3%");
  for (int width = 1; width <= 4; ++width) EXPECT_EQ(format_progress(p, width), "") << width;
  const std::string eighty = format_progress(p, 79);
  EXPECT_NE(eighty.find(" 42.3% [#"), std::string::npos) << eighty;
  EXPECT_NE(eighty.find("ETA 1d03h  3h01m elapsed  12.3 T solutions  1.04 G/s"), std::string::npos) << eighty;
  EXPECT_EQ(eighty.find("subproblems"), std::string::npos) << eighty;
  // Laid out at the fields' widest ("ETA 365d23h"), so the rate needs 61.
  const std::string sixty_one = format_progress(p, 61);
  EXPECT_NE(sixty_one.find("ETA 1d03h  12.3 T solutions  1.04 G/s"), std::string::npos) << sixty_one;
  EXPECT_EQ(format_progress(p, 60).find("G/s"), std::string::npos) << format_progress(p, 60);
  const std::string wide = format_progress(p, 500);
  EXPECT_NE(wide.find("ETA 1d03h  3h01m elapsed  12.3 T solutions  1.04 G/s  4,212/13,070 subproblems  16 threads"),
            std::string::npos)
      << wide;
  // The bar widens with the room, up to 30 marks, 42% of them filled.
  EXPECT_NE(wide.find("[############..................]"), std::string::npos) << wide;
  // For logs: no bar.
  EXPECT_EQ(format_progress(p).find('['), std::string::npos);
  // A run that adds to no total (rotational) shows no solutions and no pace.
  const std::string plain = format_progress(p, 500, false);
  EXPECT_EQ(plain.find("solutions"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("/s"), std::string::npos) << plain;
  EXPECT_NE(plain.find("ETA 1d03h  3h01m elapsed  4,212/13,070 subproblems  16 threads"), std::string::npos) << plain;
}

// The bar keeps its width while the counters grow: it took the room left,
// and a terminal's line shrank it mark by mark as a run went on.
TEST(ProgressLineTest, TheBarKeepsItsWidthAsTheCountersGrow) {
  progress start = hours_into_a_long_run();  // nothing counted yet: no rate, no ETA
  start.finished = 0;
  start.fraction = 0;
  start.elapsed_seconds = 0.5;
  start.eta_seconds.reset();
  start.total_so_far = uint128{0};
  start.total_resumed = uint128{0};
  progress early = start;
  early.finished = 3;
  early.fraction = 0.0004;
  early.elapsed_seconds = 2.5;
  early.eta_seconds = 95;
  early.total_so_far = uint128{7'000};
  const progress late = hours_into_a_long_run();
  const auto bar_width = [](const std::string& line) {
    const std::size_t open = line.find('['), close = line.find(']');
    return open == std::string::npos || close == std::string::npos ? std::string::npos : close - open;
  };
  for (const int width : {50, 70, 80, 100, 120}) {
    const std::string first = format_progress(start, width), then = format_progress(early, width),
                      last = format_progress(late, width);
    ASSERT_NE(bar_width(first), std::string::npos) << first;
    EXPECT_EQ(bar_width(first), bar_width(then)) << width << ":\n" << first << '\n' << then;
    EXPECT_EQ(bar_width(first), bar_width(last)) << width << ":\n" << first << '\n' << last;
    // The fields kept are the same too: the pace comes into its held room.
    EXPECT_EQ(then.find("subproblems") == std::string::npos, last.find("subproblems") == std::string::npos)
        << width << ":\n"
        << then << '\n'
        << last;
    EXPECT_EQ(then.find("/s") == std::string::npos, last.find("/s") == std::string::npos) << width << ":\n"
                                                                                          << then << '\n'
                                                                                          << last;
  }
}

// A stop of the process (Ctrl-Z, then fg) is no counting: the pace leaves
// it out, the elapsed time keeps it (the run took that long).
TEST(ProgressLineTest, TheRateLeavesOutATimeStopped) {
  progress p = hours_into_a_long_run();
  p.stopped_seconds = p.elapsed_seconds / 2;
  const std::string line = format_progress(p, 500);
  EXPECT_NE(line.find("3h01m elapsed  12.3 T solutions  2.09 G/s"), std::string::npos) << line;
}

// The percent is rounded down, as the bar is, and reads 100.0% only when
// every subproblem has finished (the last ones may weigh almost nothing).
TEST(ProgressLineTest, PercentReachesOneHundredOnlyWhenEverySubproblemHasFinished) {
  progress p;
  p.subproblems = 55773;
  p.finished = 55752;
  p.fraction = 0.9996;
  p.threads = 1;
  EXPECT_EQ(format_progress(p, 6), " 99.9%");
  p.fraction = 1.0;  // the estimates may give the last subproblems no weight
  EXPECT_EQ(format_progress(p, 6), " 99.9%");
  EXPECT_NE(format_progress(p, 80).find("#.]"), std::string::npos) << format_progress(p, 80);  // the bar not full
  p.finished = p.subproblems;
  EXPECT_EQ(format_progress(p, 6), "100.0%");
  EXPECT_NE(format_progress(p, 80).find("##]"), std::string::npos) << format_progress(p, 80);
  p.fraction = 0.0729;
  p.finished = 10;
  EXPECT_EQ(format_progress(p, 6), "  7.2%");
  p.total_so_far = 1;
  EXPECT_NE(format_progress(p, 200).find(" 1 solution "), std::string::npos) << format_progress(p, 200);
}

// nqueens-mpi names its ranks where a process names its threads: p.threads
// is rank 0's alone.
TEST(ProgressLineTest, WorkersLabelTakesThePlaceOfTheThreads) {
  progress p;
  p.fraction = 0.5;
  p.finished = 2;
  p.subproblems = 4;
  p.threads = 1;
  const std::string line = format_progress(p, 0, true, "2 ranks x 1 thread");
  EXPECT_NE(line.find("2/4 subproblems  2 ranks x 1 thread"), std::string::npos) << line;
  EXPECT_EQ(line.find("  1 thread"), std::string::npos) << line;
}

// What a progress_printer on a terminal writes to stderr while `use` runs
// (stderr sent to a file for the while), with TERM set to `term`.
template <class Use>
std::string printed(const char* term, Use use) {
  const std::string file = ::testing::TempDir() + "progress-" + std::to_string(::getpid());
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* out = std::fopen(file.c_str(), "w");
  ::dup2(::fileno(out), 2);
  const char* old_term = std::getenv("TERM");
  const std::string kept = old_term != nullptr ? old_term : "";
  ::setenv("TERM", term, 1);
  use();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(out);
  old_term != nullptr ? ::setenv("TERM", kept.c_str(), 1) : ::unsetenv("TERM");
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(file.c_str());
  return text.str();
}

// Off a terminal a line is printed at a count's first report, every 10 s
// and at its last; after a last, the next count (verify's and scale's run
// several, each timed from 0) prints its first report at once, not 10 s
// past the last count's end.
TEST(ProgressPrinterTest, PlainLinesComeFirstEveryTenSecondsAndLastForEachCount) {
  const auto at = [](double seconds, bool last) {
    progress p = hours_into_a_long_run();
    p.elapsed_seconds = seconds;
    p.last = last;
    return p;
  };
  const std::string text = printed("dumb", [&] {
    progress_printer printer(false);
    for (const progress& p : {at(0, false), at(5, false), at(12, false), at(30, true), at(1, false), at(5, false)}) {
      printer(p);
    }
  });
  std::size_t lines = 0;
  for (std::size_t k = text.find("progress: "); k != std::string::npos; k = text.find("progress: ", k + 1)) ++lines;
  EXPECT_EQ(lines, 4U) << text;  // 0 s, 12 s, the last, then the next count's 1 s
}

// Off a terminal the width is $COLUMNS, where it is a width: a plain number
// from 1 to 65535. Anything else is ignored (80), as terminals ignore it:
// atoi read "120x" as 120 and wrapped 99999999999 to a billion.
TEST(ProgressLineTest, ColumnsAreAWholePlainNumberOrIgnored) {
  const char* old_columns = std::getenv("COLUMNS");
  const std::string kept = old_columns != nullptr ? old_columns : "";
  const int not_a_terminal = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(not_a_terminal, 0);
  const auto columns_for = [&](const char* value) {
    ::setenv("COLUMNS", value, 1);
    return terminal_columns(not_a_terminal);
  };
  EXPECT_EQ(columns_for("120"), 120);
  EXPECT_EQ(columns_for("1"), 1);
  EXPECT_EQ(columns_for("65535"), 65535);
  for (const char* ignored :
       {"120x", "0120", "+120", " 120", "1.5", "0", "-5", "", "abc", "65536", "99999999999", "4294967297"}) {
    EXPECT_EQ(columns_for(ignored), 80) << "COLUMNS='" << ignored << "'";
  }
  ::close(not_a_terminal);
  old_columns != nullptr ? ::setenv("COLUMNS", kept.c_str(), 1) : ::unsetenv("COLUMNS");
}

// A count that fails while its line is drawn (its journal cannot be
// written, say) prints its error on a row of its own: the printer, undone
// as the error leaves the command, clears the line first; with escape
// sequences or, for TERM=dumb, with spaces and a carriage return.
TEST(ProgressPrinterTest, ClearsItsLineWhenItEnds) {
  const progress p = hours_into_a_long_run();
  const std::string with_escapes = printed("xterm", [&] {
    progress_printer printer(true);
    printer(p);
  });
  EXPECT_NE(with_escapes.find('%'), std::string::npos) << with_escapes;
  EXPECT_TRUE(with_escapes.ends_with("\r\033[K")) << with_escapes;
  const std::string dumb = printed("dumb", [&] {
    progress_printer printer(true);
    printer(p);
  });
  EXPECT_EQ(dumb.find('\033'), std::string::npos) << dumb;
  const std::size_t drawn = dumb.find('\r', 1);
  ASSERT_NE(drawn, std::string::npos) << dumb;
  std::string blanked(1, '\r');  // appended: GCC 12 misreads "\r" + string (-Wstringop-overflow)
  blanked.append(drawn - 1, ' ');
  blanked += '\r';
  EXPECT_EQ(dumb.substr(drawn), blanked) << dumb;
  // Nothing is left to clear after the last snapshot, nor where nothing was drawn.
  progress last = p;
  last.last = true;
  const std::string finished = printed("xterm", [&] {
    progress_printer printer(true);
    printer(p);
    printer(last);
  });
  EXPECT_TRUE(finished.ends_with("\r\033[K")) << finished;
  EXPECT_EQ(finished.find("\r\033[K\r\033[K"), std::string::npos) << finished;
  EXPECT_EQ(printed("xterm", [] { progress_printer printer(true); }), "");
  EXPECT_EQ(printed("xterm",
                    [&] {
                      progress_printer printer(true);
                      printer(last);
                    }),
            "");
  EXPECT_EQ(printed("dumb",
                    [&] {
                      progress_printer printer(true);
                      printer(last);
                    }),
            "");
}

// Whether a progress_printer, its stderr a pipe nobody reads (full; a
// paused terminal alike), returns from a line and from its end, in a child
// given a minute (one still writing then has failed), after a stop signal
// (`stopped`) or with none.
::testing::AssertionResult printer_returns_on_a_full_pipe(bool stopped) {
  int ends[2];
  if (::pipe(ends) != 0) return ::testing::AssertionFailure() << "no pipe";
  const int flags = ::fcntl(ends[1], F_GETFL);
  ::fcntl(ends[1], F_SETFL, flags | O_NONBLOCK);  // filled without waiting
  const std::string page(4096, 'x');
  while (::write(ends[1], page.data(), page.size()) > 0) {
  }
  char byte = 'x';
  while (::write(ends[1], &byte, 1) > 0) {
  }
  ::fcntl(ends[1], F_SETFL, flags);  // writes wait for room again
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(ends[1], STDERR_FILENO);  // the pipe is the printer's stderr
    install_stop_handlers();
    if (stopped) std::raise(SIGTERM);
    const progress p = hours_into_a_long_run();
    for (const bool terminal : {false, true}) {
      progress_printer printer(terminal);
      printer(p);
    }
    ::_exit(0);
  }
  if (pid < 0) return ::testing::AssertionFailure() << "no fork";
  int raw = 0;
  bool ended = false;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
       !ended && std::chrono::steady_clock::now() < deadline;) {
    ended = ::waitpid(pid, &raw, WNOHANG) == pid;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &raw, 0);
  }
  ::close(ends[0]);
  ::close(ends[1]);
  if (!ended) return ::testing::AssertionFailure() << "the printer waited for a reader that takes nothing";
  if (!WIFEXITED(raw) || WEXITSTATUS(raw) != 0) return ::testing::AssertionFailure() << "ended " << raw;
  return ::testing::AssertionSuccess();
}

// Once a stop signal came, a line to a reader that takes nothing is given
// up, not waited for: a plain write, restarted after the signal, held the
// count's end (and its journal's last flush) until the reader took it.
TEST(ProgressPrinterTest, AStopEndsAWaitForAReaderThatTakesNothing) {
  EXPECT_TRUE(printer_returns_on_a_full_pipe(true));
}

// Without a stop too, the line is dropped after a short wait: the progress
// line held the count's end, and its result, for as long as stderr took
// nothing.
TEST(ProgressPrinterTest, ALineAReaderDoesNotTakeIsDropped) { EXPECT_TRUE(printer_returns_on_a_full_pipe(false)); }

}  // namespace
}  // namespace nqueens::cli
