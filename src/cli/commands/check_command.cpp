#include "cli/commands/check_command.hpp"

#include <stdio_ext.h>  // __fpending
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_line.hpp"
#include "cli/interruption.hpp"
#include "cli/io/board_text.hpp"
#include "cli/io/line_reader.hpp"
#include "cli/io/placement_io.hpp"
#include "cli/io/placement_lines.hpp"
#include "cli/io/standard_output.hpp"
#include "cli/message_text.hpp"
#include "cli/shared_options.hpp"
#include "cli/signals.hpp"
#include "nqueens/cancelled.hpp"
#include "nqueens/check.hpp"

namespace nqueens::cli {

namespace {

// Attacking pairs printed per placement; the rest are counted.
constexpr std::size_t shown_attacks = 20;

// The longest line of standard input read: twice what `first 100000000`
// writes (about 0.9 GB), so that an endless line of digits is refused
// rather than read until memory runs out.
constexpr std::size_t max_line_bytes = std::size_t{1} << 31;

// What a placement's line is: a solution (of the class size given, where
// `list --unique` gave one), one whose queens attack each other, or a
// solution given a class size that is not its class's.
enum class line_verdict { solution, attacks, wrong_class_size };

// Checks one placement, and the class size after it where there is one;
// prints what is wrong (prefixed by `where`). `n` gets the board size. A
// column out of range is a usage error.
line_verdict check_one(const placement_read& p, const std::string& where, std::size_t& n) {
  const std::vector<int>& columns = p.columns;
  const int listed_class_size = p.class_size;  // `list --unique`'s, where the line carries one
  check_result r;
  try {
    r = check(columns, shown_attacks);
  } catch (const std::invalid_argument& e) {  // a column off the board
    throw usage_error(where + e.what());
  }
  n = r.n;
  if (r.is_solution()) {
    if (listed_class_size != 0) {
      if (const int size = class_size(columns); size != listed_class_size) {
        std::cout << formatted("%sa solution, but not of a class of %d: its class has %d member%s\n", where.c_str(),
                               listed_class_size, size, size == 1 ? "" : "s");
        return line_verdict::wrong_class_size;
      }
    }
    return line_verdict::solution;
  }
  std::cout << formatted("%snot a solution: %zu pair%s of queens attack%s each other\n", where.c_str(), r.attack_count,
                         r.attack_count == 1 ? "" : "s", r.attack_count == 1 ? "s" : "");
  for (const attack& a : r.attacks) {
    const int c1 = columns[a.first_row];
    const int c2 = columns[a.second_row];
    if (a.line == attack_line::column) {
      std::cout << formatted("  rows %zu and %zu: same column (%d)\n", a.first_row, a.second_row, c1);
    } else {
      std::cout << formatted("  rows %zu and %zu: same %s (columns %d and %d)\n", a.first_row, a.second_row,
                             to_string(a.line), c1, c2);
    }
  }
  if (r.attack_count > r.attacks.size())
    std::cout << formatted("  ... and %zu more\n", r.attack_count - r.attacks.size());
  return line_verdict::attacks;
}

// Whether `operand` holds one column at most ("0", " 3", "(1,", "2)"): a
// word the shell split off a placement (`check 1 3 0 2`, `check $(nqueens
// first 8)`), as no operand of more columns can be.
bool is_one_column_at_most(const std::string& operand) {
  int numbers = 0;
  bool in_number = false;
  for (const char c : operand) {
    const bool digit = c >= '0' && c <= '9';
    if (digit && !in_number) ++numbers;
    in_number = digit;
  }
  return numbers <= 1;
}

// Whether the operands are the words of one placement the shell split:
// several, each one column at most, none a board's row (operand_lines).
bool words_of_one_placement(const std::vector<std::string>& operands) {
  return operands.size() > 1 && std::all_of(operands.begin(), operands.end(), [](const std::string& operand) {
           return is_one_column_at_most(operand) && operand.find_first_of("\r\n") == std::string::npos &&
                  !looks_like_board_row(trimmed(operand));
         });
}

// The lines of the placements given as operands: words of one placement
// the shell split (`check 1 3 0 2`, `check 0 0`: two queens in one column)
// where every operand holds one column at most, and none is a board's row;
// otherwise each operand's lines, each a placement of its own (`check
// "1 3 0 2" "2 0 3 1"`), so that a malformed one is refused, not read as
// part of a larger board, or a drawn board's rows (`check $(nqueens first 8
// --format board)`).
std::vector<std::string> operand_lines(const std::vector<std::string>& operands) {
  std::vector<std::string> texts = operands;
  if (words_of_one_placement(operands)) {
    std::string joined;
    for (const std::string& operand : operands) joined += (joined.empty() ? "" : " ") + operand;
    texts = {joined};
  }
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& text : texts) {
    for (line_reader reader(text); reader.next(line);) lines.push_back(line);
  }
  return lines;
}

// How many placements `lines` hold as placement_lines reads them, malformed
// ones too: a refusal among operands names its placement's number only
// where there are several.
std::size_t placements_in(const std::vector<std::string>& lines) {
  std::size_t count = 0;
  std::size_t rows = 0;   // of the board being drawn
  std::size_t width = 0;  // its row 0's: rows == width, no board is being drawn
  for (const std::string& line : lines) {
    const std::string_view text = trimmed(line);
    if (!looks_like_fen(text) && looks_like_board_row(text)) {
      if (rows == width) {  // a board starts
        ++count;
        rows = 0;
        width = text.size();
      }
      ++rows;
    } else {
      rows = width = 0;
      count += text.empty() ? 0 : 1;
    }
  }
  return count;
}

// Whether `p` is a bare column number given as an operand of its own beside
// one of several columns (`check 1 3 0 2 "2 0 3 1"`): the words of one
// placement that were not joined, as a refusal of it then says.
bool a_word_left_alone(const std::vector<std::string>& operands, const std::vector<std::string>& lines,
                       const placement_read& p) {
  if (operands.size() < 2 || p.first_line != p.last_line || p.first_line == 0 || p.first_line > lines.size() ||
      std::all_of(operands.begin(), operands.end(), is_one_column_at_most)) {
    return false;
  }
  const std::string& line = lines[p.first_line - 1];
  const std::string_view text = trimmed(line);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos &&
         std::find(operands.begin(), operands.end(), line) != operands.end();
}

// Where a placement read from standard input is: its line, or a board's lines.
std::string where_in_input(const placement_read& p) {
  return p.first_line == p.last_line
             ? "line " + std::to_string(p.first_line) + ": "
             : "lines " + std::to_string(p.first_line) + "-" + std::to_string(p.last_line) + ": ";
}

// The last line after several placements; returns the exit status.
// How many lines had each verdict.
struct tally {
  std::size_t checked = 0, attacked = 0, wrong_class = 0;
  void add(line_verdict v) {
    ++checked;
    attacked += v == line_verdict::attacks ? 1 : 0;
    wrong_class += v == line_verdict::wrong_class_size ? 1 : 0;
  }
};

int summarize(const tally& t) {
  // Standard input with no placement is a list with nothing wrong in it:
  // `nqueens list 3 | nqueens check` holds for every n, Q(2) = Q(3) = 0.
  if (t.checked == 0) {
    std::cout << "0 placements checked: standard input held none\n";
    return 0;
  }
  std::string text = formatted("%zu placement%s checked: ", t.checked, t.checked == 1 ? "" : "s");
  if (t.attacked == 0 && t.wrong_class == 0) {
    std::cout << text << (t.checked == 1 ? "a solution" : "all are solutions") << '\n';
    return 0;
  }
  if (t.attacked != 0) {
    text += formatted("%zu %s", t.attacked, t.attacked == 1 ? "is not a solution" : "are not solutions");
  }
  if (t.wrong_class != 0) {
    text += formatted("%s%zu %s a wrong class size", t.attacked != 0 ? ", " : "", t.wrong_class,
                      t.wrong_class == 1 ? "has" : "have");
  }
  std::cout << text << '\n';
  return 1;
}

// Refuses a line of standard input cut short (line_reader) for `why`: cut
// early, at a byte no placement holds or in a number longer than any
// column's, whose error this is, read as the line's place among the others
// reads it (a stray byte in a board's row); else at the most a line of its
// kind takes.
[[noreturn]] void refuse_cut_line(const std::string& line, line_cut why, const std::string& where,
                                  placement_lines gatherer) {
  if (why == line_cut::capped) {
    throw usage_error(where + "longer than " + std::to_string(max_drawn_line_bytes >> 20) +
                      " MiB, more than a drawn board's row or a FEN takes");
  }
  if (why == line_cut::longest) throw usage_error(where + "longer than 2 GiB, more than any placement takes");
  try {
    placement_read ignored;
    gatherer.add(line, ignored);
  } catch (const usage_error& e) {
    // A number cut at its 21st digit is too large, however long it runs on
    // (nothing more was read): named by its first 20.
    const std::size_t last_other = line.find_last_not_of("0123456789");
    const std::size_t run = line.size() - (last_other == std::string::npos ? 0 : last_other + 1);
    if (why == line_cut::long_digits && std::string_view(e.what()).find(" is out of range") != std::string_view::npos) {
      throw usage_error(where + "column '" + line.substr(line.size() - run, 20) +
                        "... (more than 20 digits)' is out of range: a placement of n queens has columns 0 to n - 1");
    }
    std::string what = e.what();
    if (why == line_cut::long_digits) {  // any other refusal of it names it cut too, as an operand's does
      const std::string read = line.substr(line.size() - run) + "'";  // after a quote or a sign
      if (const std::size_t at = what.find(read); at != std::string::npos) {
        what.replace(at, read.size(), line.substr(line.size() - run, 20) + "... (more than 20 digits)'");
      }
    }
    throw usage_error(where + what);
  }
  // Every line cut at a stray byte or a long number holds what no parse
  // takes; should one parse, what it was cut at is named.
  throw usage_error(where + (why == line_cut::long_digits ? "a number longer than 20 digits"
                                                          : "a byte no placement holds, and more after it"));
}

cxxopts::Options check_options() {
  cxxopts::Options options("nqueens check",
                           "Check placements: the column (0-based) of the queen in each row, as \"1 3 0 2\",\n"
                           "\"1,3,0,2\" or \"(1, 3, 0, 2)\"; or as 'list --format board|fen' writes it: rows of Q\n"
                           "and . (a board ends once it is square), or a FEN piece placement (rank 8 is row 0).\n"
                           "Each operand (and each line of it) is a placement of its own, unless every operand\n"
                           "is one line of one column number at most (no Q or . row): they are then one placement\n"
                           "split into words (check 1 3 0 2; check 0 0). Without operands, or with '-' alone, checks "
                           "every placement of standard\n"
                           "input (so 'nqueens list 8 | nqueens check' checks all 92); a line ends at LF, CRLF or\n"
                           "a lone CR (the one ending an operand, of a CRLF file split by the shell, is no line of\n"
                           "its own). '--' ends the options: a placement after it may start with '-'. The class\n"
                           "size 'list --unique' writes after a tuple, as in \"(1, 3, 0, 2) 2\", is checked too.\n"
                           "Exit status: 0 all are solutions (standard input may hold none), 1 some queens attack\n"
                           "each other (or a class size is wrong), 2 malformed input, 3 standard input cannot be\n"
                           "read.");
  options.custom_help("[PLACEMENT...]");
  options.positional_help("");
  const shared_options shared{};
  add_worker_options(options, shared);
  add_closing_options(options, shared);
  return options;
}

usage_error blank_operand(std::size_t number, const std::string& operand) {
  return usage_error("placement operand " + std::to_string(number) + " is " +
                     (operand.empty() ? "empty" : "blank ('" + printable(operand) + "')") +
                     ": expected a placement such as \"1 3 0 2\"");
}

// `word` without the line break that ends it ("\r\n", "\n" or "\r"): the
// shell splits `$(cat file)` at LF alone, so each line of a file written
// with CRLF leaves its CR on its last word ("2\r"), and a blank line a word
// of its own ("\r").
std::string without_line_end(const std::string& word) {
  std::size_t end = word.size();
  if (end > 0 && word[end - 1] == '\n') --end;
  if (end > 0 && word[end - 1] == '\r') --end;
  return word.substr(0, end);
}

// The placement operands, or nullopt where -h asks for the help. Taken
// verbatim, not through cxxopts, which would split "1,,3" at commas and
// hide the empty entry, but for the line break that ends each
// (without_line_end), and a line break alone beside other operands, the
// blank line of a CRLF file the shell split. "--" ends the options, as in
// every POSIX tool; "-" alone names standard input, as for cat (none: read
// it).
std::optional<std::vector<std::string>> read_operands(const std::vector<std::string>& args) {
  std::vector<std::string> operands;
  std::optional<std::string> line_break_alone;  // the first such operand
  std::size_t given = 0;                        // operands given, those skipped too: a refusal numbers them so
  bool options_end = false;
  std::size_t helps = 0;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!options_end && arg == "--") {
      options_end = true;
      continue;
    }
    if (!options_end && (arg == "-h" || arg == "--help")) {
      ++helps;
      continue;
    }
    if (!options_end && arg.size() > 1 && arg[0] == '-' && !looks_like_negative_number(arg)) {
      throw usage_error("unknown option '" + shown_operand(arg) +
                        "' for 'check': it takes placements and -h/--help (a placement after '--' may start with "
                        "'-')");
    }
    ++given;
    std::string operand = without_line_end(arg);
    if (operand.empty() && !arg.empty()) {
      if (!line_break_alone) line_break_alone = arg;
      continue;
    }
    // An empty operand ("$EMPTY") is a mistake to name, not a placement to skip.
    if (operand.find_first_not_of(" \t\r\n") == std::string::npos) throw blank_operand(given, arg);
    operands.push_back(std::move(operand));
  }
  // As cxxopts' options are, for every other command: once, and whatever
  // else is given must be right too.
  if (helps > 1) throw usage_error("--help was given " + std::to_string(helps) + " times: give it once");
  if (helps == 1) return std::nullopt;
  // Line breaks alone are no placements, and not standard input's absence.
  if (operands.empty() && line_break_alone) throw blank_operand(1, *line_break_alone);
  if (std::find(operands.begin(), operands.end(), "-") != operands.end()) {
    if (given > 1) {
      throw usage_error("'-' (standard input) is checked alone: give it, or placements, not both");
    }
    operands.clear();
  }
  return operands;
}

// Checks every placement of standard input as it is read.
int check_standard_input() {
  tally t;
  std::size_t n = 0;
  std::string line;
  // Standard input may keep it waiting as long as its writer pleases
  // (`sleep 30 | nqueens check`): a stop signal ends the wait.
  install_stop_handlers();
  placement_lines gatherer(true, &stop_requested());
  placement_read p;
  // A column has 9 digits at most: a run of 21 is refused at once, not
  // read whole (`yes 1 | tr -d '\n'`: gigabytes).
  // A drawn board's row or a FEN is cut far sooner (a stream of dots).
  line_reader lines(STDIN_FILENO, max_line_bytes, placement_alphabet, 20, drawn_board_bytes, max_drawn_line_bytes);
  lines.skip_byte_order_mark();
  while (lines.next(line)) {
    const std::string where = "line " + std::to_string(gatherer.line_number() + 1) + ": ";
    if (lines.cut()) refuse_cut_line(line, lines.cut_reason(), where, gatherer);
    try {
      if (!gatherer.add(line, p)) continue;
    } catch (const usage_error& e) {
      throw usage_error(where + e.what());
    } catch (const run_cancelled&) {  // reported below, as a stop while it read
      break;
    }
    t.add(check_one(p, where_in_input(p), n));
    // Flushed here rather than by stdio once its buffer is full, so that a
    // stop ends a wait on a reader that takes nothing (stoppable_io.hpp).
    if (__fpending(stdout) >= std::size_t{1} << 16) flush_standard_output();
    // A reader gone (`yes 0 0 | nqueens check | head -1`), SIGPIPE being
    // ignored: stop reading, with the write's own error.
    if (!std::cout || std::ferror(stdout) != 0) throw output_error(errno);
  }
  if (stop_requested()) {
    return report_interruption_of("after " + std::to_string(t.checked) + " placement" +
                                  (t.checked == 1 ? " was" : "s were") + " checked");
  }
  try {
    gatherer.finish();
  } catch (const usage_error& e) {  // placed as every other line's refusal is
    throw usage_error("line " + std::to_string(gatherer.line_number() + 1) + " (the end of the input): " + e.what());
  }
  return summarize(t);
}

// Checks the placements of the operands. Every placement is parsed before
// the first is checked: a malformed one is refused before any verdict is
// printed (a column off its board is found as it is checked).
int check_operands(const std::vector<std::string>& operands) {
  const std::vector<std::string> lines = operand_lines(operands);
  std::vector<placement_read> placements;
  placement_lines gatherer(/*name_lines=*/false);
  try {
    for (const std::string& line : lines) {
      if (placement_read p; gatherer.add(line, p)) placements.push_back(std::move(p));
    }
    gatherer.finish();
  } catch (const usage_error& e) {
    // `check $(nqueens list 4)`: the shell split several placements into
    // words, read as one: a word opens a placement after one closed.
    const auto closed = std::find_if(operands.begin(), operands.end(),
                                     [](const std::string& word) { return word.find(')') != std::string::npos; });
    if (words_of_one_placement(operands) && closed != operands.end() &&
        std::any_of(closed + 1, operands.end(), [](const std::string& word) { return word.starts_with('('); })) {
      throw usage_error(std::string(e.what()) + "; the " + std::to_string(operands.size()) +
                        " operands were read as the words of one placement: quote each placement whole, as in "
                        "\"1 3 0 2\", or give them on standard input, one a line");
    }
    if (placements_in(lines) <= 1) throw;
    // "placement 2 has no closing ')'", not "placement 2: placement has ...".
    const std::string number = "placement " + std::to_string(placements.size() + 1);
    const std::string_view what = e.what();
    constexpr std::string_view subject = "placement ";
    throw usage_error(what.starts_with(subject) ? number + " " + std::string(what.substr(subject.size()))
                                                : number + ": " + std::string(what));
  }
  std::size_t n = 0;
  if (placements.size() == 1) {
    if (check_one(placements.front(), "", n) != line_verdict::solution) return 1;
    std::cout << formatted("solution: %zu queen%s, no two attack each other\n", n, n == 1 ? "" : "s");
    return 0;
  }
  tally t;
  for (const placement_read& placement : placements) {
    try {
      t.add(check_one(placement, "placement " + std::to_string(t.checked + 1) + ": ", n));
    } catch (const usage_error& e) {
      if (!a_word_left_alone(operands, lines, placement)) throw;
      throw usage_error(std::string(e.what()) +
                        "; each operand is its own placement where one holds more than one column: quote each "
                        "placement whole, as in \"1 3 0 2\"");
    }
  }
  return summarize(t);
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  const std::optional<std::vector<std::string>> operands = read_operands(args);
  if (!operands) {
    cxxopts::Options options = check_options();
    print_help(options);
    return 0;
  }
  return operands->empty() ? check_standard_input() : check_operands(*operands);
}

}  // namespace nqueens::cli
