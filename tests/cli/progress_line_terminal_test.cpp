// The progress line (src/cli/progress_line.cpp), and what a stop says of
// output it cut, on a real pseudo-terminal.

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

// What `nqueens count` drew on a pseudo-terminal of `columns` columns before
// it was stopped: `before` from its start (`returns` redraws, and where
// `until` is given, on until two redraws after the one that showed it),
// `after` from 0.6 s after the terminal was resized to `resized_columns`
// (0: not resized). Where `ctrl_c_at` is given, Ctrl-C is typed once the
// drawing shows it.
struct pty_drawing {
  std::string before, after;
};

// Kills every process of session `sid` (the child and whatever its shell
// started, in any process group), so that none outlives its test.
void kill_session(pid_t sid) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const std::size_t after_name = text.rfind(')');
    if (after_name == std::string::npos) continue;
    std::istringstream fields(text.substr(after_name + 2));
    std::string state;
    long parent = 0, group = 0, session = 0;
    if (fields >> state >> parent >> group >> session && session == sid) ::kill(std::stoi(name), SIGKILL);
  }
}

pty_drawing draw_on_pty(int columns, const char* term, int resized_columns = 0, const char* shell = nullptr,
                        std::size_t returns = 6, const char* until = nullptr, const char* ctrl_c_at = nullptr) {
  winsize size{};
  size.ws_row = 24;
  size.ws_col = static_cast<unsigned short>(columns);
  int master = -1, slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, &size) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::ioctl(slave, TIOCSCTTY, 0);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(slave, 2);
    ::close(master);
    if (term != nullptr) {
      ::setenv("TERM", term, 1);
    } else {
      ::unsetenv("TERM");
    }
    ::unsetenv("COLUMNS");
    if (shell != nullptr) {  // $NQ in it is the tool
      ::setenv("NQ", NQUEENS_CLI_PATH, 1);
      ::execl("/bin/sh", "sh", "-c", shell, static_cast<char*>(nullptr));
    }
    // Q(20) on one thread: minutes on any machine, so that it still draws
    // when the last read ends (it is killed then); Q(17) ended in 2.9 s on a fast one.
    ::execl(NQUEENS_CLI_PATH, NQUEENS_CLI_PATH, "count", "20", "--engine", "symmetric", "--threads", "1", "--progress",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(slave);
  // Reads until `into` holds `returns` carriage returns (as many redraws,
  // at 0.25 s each), or a deadline only a hung or starved child reaches: a
  // count of redraws, not a window of time.
  const auto read_redraws = [&](std::size_t returns, std::string& into, const char* until = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    const auto drawn = [&into] { return static_cast<std::size_t>(std::count(into.begin(), into.end(), '\r')); };
    // Text that appears only once the count is under way (the pace, once
    // solutions are found): read on for it, at whatever speed.
    bool seen = until == nullptr;
    while ((drawn() < returns || !seen) && std::chrono::steady_clock::now() < deadline) {
      pollfd p{master, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buffer[4096];
      const ssize_t got = ::read(master, buffer, sizeof buffer);
      if (got <= 0) break;  // EIO: the other side is closed
      into.append(buffer, static_cast<std::size_t>(got));
      if (ctrl_c_at != nullptr && into.find(ctrl_c_at) != std::string::npos) {
        ::write(master, "\x03", 1);  // the line discipline echoes ^C and signals the foreground
        ctrl_c_at = nullptr;
      }
      if (!seen && into.find(until) != std::string::npos) {
        seen = true;
        returns = std::max(returns, drawn() + 2);  // a whole redraw after it
      }
    }
  };
  pty_drawing d;
  read_redraws(returns, d.before, until);
  if (resized_columns > 0) {
    size.ws_col = static_cast<unsigned short>(resized_columns);
    ::ioctl(master, TIOCSWINSZ, &size);
    std::string settling;  // a redraw under way may still have the old width
    read_redraws(3, settling);
    read_redraws(5, d.after);
  }
  kill_session(pid);
  ::waitpid(pid, nullptr, 0);
  ::close(master);
  return d;
}

// The redrawn pieces of a drawing: split at \r, erase-line escapes removed,
// the first and last (perhaps cut by the reading window) left out.
std::vector<std::string> redraws(const std::string& drawing) {
  std::vector<std::string> pieces;
  std::size_t at = 0;
  while (at <= drawing.size()) {
    const std::size_t next = std::min(drawing.find('\r', at), drawing.size());
    std::string piece = drawing.substr(at, next - at);
    for (std::size_t e; (e = piece.find("\033[K")) != std::string::npos;) piece.erase(e, 3);
    pieces.push_back(piece);
    at = next + 1;
  }
  if (pieces.size() >= 2) pieces.erase(pieces.begin());
  if (!pieces.empty()) pieces.pop_back();
  return pieces;
}

// On a real terminal the progress line is redrawn in place and never wider
// than the terminal less one column, at 20, 40, 80 and 132 columns and after a
// resize: no line is ever added (a line that wraps scrolls one up at every
// redraw). With TERM=dumb or no TERM it writes no escape sequence at all.
TEST(CliProgressTest, TheLineFitsTheTerminalAndRedrawsInPlace) {
  for (const int columns : {20, 40, 80, 132}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    // From 80 columns, read until the pace is shown: solutions found.
    const pty_drawing d = draw_on_pty(columns, "xterm", 0, nullptr, 6, columns >= 80 ? "/s" : nullptr);
    EXPECT_EQ(d.before.find('\n'), std::string::npos) << d.before;
    const std::vector<std::string> pieces = redraws(d.before);
    ASSERT_GE(pieces.size(), 2u) << d.before;
    for (const std::string& piece : pieces) {
      EXPECT_LE(piece.size(), static_cast<std::size_t>(columns - 1)) << piece;
      EXPECT_NE(piece.find('%'), std::string::npos) << piece;
    }
    EXPECT_NE(d.before.find("\033[K"), std::string::npos);
    if (columns >= 80) {  // room for the bar, the ETA, the solutions and their pace
      EXPECT_NE(pieces.back().find("]  ETA "), std::string::npos) << pieces.back();
      EXPECT_NE(pieces.back().find(" solutions  "), std::string::npos) << pieces.back();
      EXPECT_NE(pieces.back().find("/s"), std::string::npos) << pieces.back();
    }
  }
  {
    SCOPED_TRACE("resized from 132 to 50 columns");
    const pty_drawing d = draw_on_pty(132, "xterm", 50);
    const std::vector<std::string> pieces = redraws(d.after);
    ASSERT_GE(pieces.size(), 2u) << d.after;
    for (const std::string& piece : pieces) EXPECT_LE(piece.size(), 49u) << piece;
    EXPECT_GT(redraws(d.before).back().size(), 49u);
  }
  for (const char* term : {"dumb", static_cast<const char*>(nullptr)}) {
    SCOPED_TRACE(term == nullptr ? "no TERM" : "TERM=dumb");
    const pty_drawing d = draw_on_pty(80, term);
    EXPECT_EQ(d.before.find('\033'), std::string::npos) << d.before;
    EXPECT_EQ(d.before.find('\n'), std::string::npos) << d.before;
    const std::vector<std::string> pieces = redraws(d.before);
    ASSERT_GE(pieces.size(), 2u) << d.before;
    for (const std::string& piece : pieces) EXPECT_LE(piece.size(), 79u) << piece;
    // Shrunk to 20 columns: the spaces that cover the old line are cut to
    // the new width too, or they would wrap and scroll.
    const pty_drawing shrunk = draw_on_pty(80, term, 20);
    const std::vector<std::string> after = redraws(shrunk.after);
    ASSERT_GE(after.size(), 2u) << shrunk.after;
    for (const std::string& piece : after) EXPECT_LE(piece.size(), 19u) << "'" << piece << "'";
  }
}

// Unasked, a count whose stderr is a terminal (in its foreground) draws the
// line all the same: what a user at a terminal sees by default.
TEST(CliProgressTest, OnATerminalTheLineIsDrawnUnasked) {
  const pty_drawing d = draw_on_pty(80, "xterm", 0, "exec $NQ count 20 --engine symmetric --threads 1", 3);
  const std::vector<std::string> pieces = redraws(d.before);
  ASSERT_GE(pieces.size(), 1u) << d.before;
  EXPECT_NE(pieces.front().find('%'), std::string::npos) << d.before;
  EXPECT_NE(d.before.find("\033[K"), std::string::npos) << d.before;
  EXPECT_EQ(d.before.find('\n'), std::string::npos) << d.before;
}

// Under `timeout`, which runs the count in a process group of its own, the
// count is off the terminal's foreground: an asked-for --progress then
// prints the plain line (as off a terminal: one at once, then every 10 s)
// rather than nothing, and draws no line over what the user types.
TEST(CliProgressTest, AskedForOffTheForegroundItPrintsPlainLines) {
  // Not exec'd: timeout, a session leader, could not leave the foreground.
  const pty_drawing d =
      draw_on_pty(80, "xterm", 0, "timeout 60 $NQ count 17 --engine symmetric --threads 1 --progress; :", 1);
  EXPECT_EQ(d.before.rfind("progress: ", 0), 0u) << d.before;
  EXPECT_NE(d.before.find("\r\n"), std::string::npos) << d.before;  // a whole line (the terminal's CR LF)
  EXPECT_EQ(d.before.find('\033'), std::string::npos) << d.before;
  // And cut to the terminal's width, as the drawn line is: a background
  // job's line that wraps takes two rows of what the user is doing.
  const pty_drawing narrow =
      draw_on_pty(40, "xterm", 0, "timeout 60 $NQ count 17 --engine symmetric --threads 1 --progress; :", 1);
  const std::size_t end = narrow.before.find("\r\n");
  ASSERT_NE(end, std::string::npos) << narrow.before;
  EXPECT_EQ(narrow.before.rfind("progress: ", 0), 0u) << narrow.before;
  EXPECT_LE(end, 39u) << narrow.before;
}

// Where stdout and stderr are one terminal, a stop that cuts a line of
// output short says so on a line of its own, not glued to the line's end
// ("...24245129nqueens: interrupted").
TEST(CliTerminalTest, AStopThatCutsOutputSaysSoOnALineOfItsOwn) {
  // `first` writes one line of 10^8 numbers (889 MB): stopped once it has
  // written 100 kB of it (the placement takes seconds to build under a
  // sanitizer), wherever that lands. The status comes on a line of its own.
#ifdef NQUEENS_SANITIZED_THREAD  // TSan writes 512 KiB of its own (0xff, to a file of its shadow) as it starts
  const std::string written = "624288";
#else
  const std::string written = "100000";
#endif
  const std::string stopped = "exec 1>&2; $NQ first 100000000 & pid=$!; w=0; while [ \"${w:-0}\" -le " + written +
                              " ] && kill -0 $pid 2>/dev/null; do sleep 0.05; "
                              "w=$(sed -n 's/^wchar: //p' /proc/$pid/io 2>/dev/null); done; "
                              "kill -TERM $pid; wait $pid; s=$?; echo; echo status=$s";
  const pty_drawing d = draw_on_pty(80, "xterm", 0, stopped.c_str(), 1, "status=");
  const std::string message = "nqueens: interrupted by SIGTERM while writing the output, which is cut short";
  const std::size_t at = d.before.find(message);
  ASSERT_NE(at, std::string::npos) << d.before.substr(d.before.size() - std::min<std::size_t>(d.before.size(), 300));
  EXPECT_GT(at, 1000u);  // output came first
  EXPECT_EQ(d.before.substr(at - 2, 2), "\r\n") << d.before.substr(at - 40, 40 + message.size());
  EXPECT_NE(d.before.find("status=143", at), std::string::npos) << d.before.substr(at);
}

// Ctrl-C's echo, "^C", is overwritten by the message that says what it
// stopped (a command with no progress line to clear), not glued before it.
TEST(CliTerminalTest, CtrlCsEchoIsOverwrittenByTheMessage) {
  // Typed once Q(16)'s row is out, while Q(17) or Q(18) is counted.
  const pty_drawing d =
      draw_on_pty(80, "xterm", 0, "exec 1>&2; exec $NQ verify --from 16 --to 18 --engine symmetric --no-progress", 1,
                  "interrupted", " OK\r\n");
  const std::size_t at = d.before.find("nqueens: interrupted by SIGINT while counting Q(1");
  ASSERT_NE(at, std::string::npos) << d.before;
  EXPECT_EQ(d.before.substr(at - 3, 3), "^C\r") << d.before;
}

// A long count started at a terminal without a journal is told how to keep
// its work through a stop; one with a journal, or off a terminal (a
// script's, a job's), is not.
TEST(CliTerminalTest, ALongCountWithoutAJournalIsToldOfOne) {
  const std::string hint = "nqueens: Q(23) is a long count: --checkpoint FILE keeps each finished subproblem";
  const pty_drawing told = draw_on_pty(80, "xterm", 0, "exec $NQ count 23 --engine symmetric --threads 1", 1,
                                       "interrupted", "is a long count");
  EXPECT_EQ(told.before.rfind(hint, 0), 0u) << told.before;  // before anything else
  EXPECT_NE(told.before.find("interrupted by SIGINT"), std::string::npos) << told.before;
  const pty_drawing journaled =
      draw_on_pty(80, "xterm", 0, "exec $NQ count 23 --engine symmetric --threads 1 --checkpoint long.ckpt", 1,
                  "interrupted", "elapsed");
  EXPECT_NE(journaled.before.find("interrupted by SIGINT"), std::string::npos) << journaled.before;
  EXPECT_EQ(journaled.before.find("is a long count"), std::string::npos) << journaled.before;
  std::filesystem::remove("long.ckpt");
  const cli_run off =
      run_cli_command("timeout -s INT 1 " + std::string(NQUEENS_CLI_PATH) + " count 23 --engine symmetric --threads 1");
  EXPECT_NE(off.err.find("interrupted by SIGINT"), std::string::npos) << off.err;
  EXPECT_EQ(off.err.find("is a long count"), std::string::npos) << off.err;
}

// verify draws each count's progress, named by its board, and clears it
// before the count's row, which starts on a line of its own (stdout and
// stderr one terminal).
TEST(CliTerminalTest, VerifyClearsEachCountsProgressBeforeItsRow) {
#ifdef NQUEENS_SANITIZED_THREAD  // Q(17) took more than the 120 s deadline there; Q(15) about 10 s
  const std::string n = "15";
#else
  const std::string n = "17";
#endif
  const std::string verify =
      "exec 1>&2; exec $NQ verify --from " + n + " --to " + n + " --engine symmetric --threads 1";
  const pty_drawing d = draw_on_pty(80, "xterm", 0, verify.c_str(), 1, "the count matches");
  EXPECT_NE(d.before.find("Q(" + n + "), 1 of 1  "), std::string::npos) << d.before;
  EXPECT_NE(d.before.find("\r\033[K" + n + " "), std::string::npos) << d.before;
}

}  // namespace
}  // namespace nqueens::test
