// `nqueens check`: placements from operands and standard input.

#include <tuple>
#include <utility>

#include "support/cli_run.hpp"

namespace nqueens::test {
namespace {

TEST(CliCheckTest, SolutionExitsZero) {
  const cli_run r = run_cli("check 1 3 0 2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "solution: 4 queens, no two attack each other\n");
  EXPECT_EQ(run_cli("check '(1, 3, 0, 2)'").status, 0);
  EXPECT_EQ(run_cli("check 1,3,0,2").status, 0);
}

TEST(CliCheckTest, AttackingQueensAreNamedAndExitOne) {
  const cli_run r = run_cli("check '(1, 1, 0, 2)'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("rows 0 and 1: same column (1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rows 1 and 2: same anti-diagonal (columns 1 and 0)"), std::string::npos) << r.out;
}

TEST(CliCheckTest, StdinLinesAreCheckedOneByOne) {
  const cli_run r = run_script("printf '1 3 0 2\\n\\n0 1\\n' | $NQ check");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("line 3: not a solution"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 placements checked: 1 is not a solution"), std::string::npos) << r.out;
  const cli_run two = run_script("printf '1 3 0 2\\n0 1\\n1 0\\n' | $NQ check");
  EXPECT_EQ(two.status, 1) << two.err;
  EXPECT_NE(two.out.find("3 placements checked: 2 are not solutions\n"), std::string::npos) << two.out;
}

// A lone "-" reads standard input, as cat's does; beside placements it is refused.
TEST(CliCheckTest, ADashAloneReadsStandardInput) {
  const cli_run r = run_script("$NQ list 6 | $NQ check -");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "4 placements checked: all are solutions\n");
  const cli_run after_options_end = run_script("printf '0 1\\n' | $NQ check -- -");
  EXPECT_EQ(after_options_end.status, 1) << after_options_end.err;
  EXPECT_NE(after_options_end.out.find("line 1: not a solution"), std::string::npos) << after_options_end.out;
  const cli_run mixed = run_script("echo 1 3 0 2 | $NQ check - '2 0 3 1'");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_EQ(mixed.err, "nqueens: '-' (standard input) is checked alone: give it, or placements, not both\n");
  EXPECT_EQ(mixed.out, "");
}

// A list with no solution in it checks clean: Q(2) = Q(3) = 0, so that
// `list N | check` holds for every N; blank lines are no placements either.
TEST(CliCheckTest, StandardInputWithoutPlacementsChecksNone) {
  for (const char* script : {"$NQ list 3 | $NQ check", "printf '\\n \\n' | $NQ check -", "$NQ check < /dev/null"}) {
    const cli_run r = run_script(script);
    EXPECT_EQ(r.status, 0) << script << ": " << r.err;
    EXPECT_EQ(r.out, "0 placements checked: standard input held none\n") << script;
    EXPECT_EQ(r.err, "") << script;
  }
}

// What `list` and `first` write in any format, check reads back: a drawn
// board is one placement over its rows, a FEN one a line.
TEST(CliCheckTest, BoardsAndFenAreReadAsListWritesThem) {
  const std::pair<const char*, const char*> cases[] = {
      {"$NQ list 6 --format board | $NQ check", "4 placements checked: all are solutions\n"},
      {"$NQ list 8 --format fen | $NQ check -", "92 placements checked: all are solutions\n"},
      // Quoted, the board's rows are one operand's lines; unquoted, its words.
      {"$NQ check \"$($NQ first 9 --format board)\"", "solution: 9 queens, no two attack each other\n"},
      {"$NQ check $($NQ first 9 --format board)", "solution: 9 queens, no two attack each other\n"},
      {"$NQ check \"$($NQ first 8 --format fen)\"", "solution: 8 queens, no two attack each other\n"},
      {"$NQ check \"$($NQ list 4 --format board)\"", "2 placements checked: all are solutions\n"},
      {"B=$($NQ first 4 --format board); $NQ check \"$B\" \"$B\"", "2 placements checked: all are solutions\n"},
      {"printf '  .Q..\\n  ...Q\\t\\nQ...\\n..Q.\\n' | $NQ check", "1 placement checked: a solution\n"},
  };
  for (const auto& [script, expected] : cases) {
    const cli_run r = run_script(script);
    EXPECT_EQ(r.status, 0) << script << ": " << r.err;
    EXPECT_EQ(r.out, expected) << script;
  }
}

TEST(CliCheckTest, ABoardsAttacksAreNamedByItsLines) {
  const cli_run board = run_script("printf '1 3 0 2\\n\\n.Q..\\nQ...\\n...Q\\n..q.\\n' | $NQ check");
  EXPECT_EQ(board.status, 1) << board.err;
  EXPECT_EQ(board.out,
            "lines 3-6: not a solution: 4 pairs of queens attack each other\n"
            "  rows 0 and 2: same diagonal (columns 1 and 3)\n"
            "  rows 0 and 1: same anti-diagonal (columns 1 and 0)\n"
            "  rows 1 and 3: same diagonal (columns 0 and 2)\n"
            "  rows 2 and 3: same anti-diagonal (columns 3 and 2)\n"
            "2 placements checked: 1 is not a solution\n");
  const cli_run fen = run_script("$NQ check Q7/Q7/7Q/5Q2/2Q5/6Q1/1Q6/3Q4");
  EXPECT_EQ(fen.status, 1) << fen.err;
  EXPECT_EQ(fen.out.rfind("not a solution: ", 0), 0u) << fen.out;
  EXPECT_NE(fen.out.find("rows 0 and 1: same column (0)"), std::string::npos) << fen.out;
}

// A board that is not one queen a row on a square is malformed (exit 2),
// named by the line where it goes wrong.
TEST(CliCheckTest, AMalformedBoardIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"printf '.Q..\\nQQ..\\n'", "line 2: row 1 of the board holds 2 queens: a placement has one queen a row"},
      {"printf '....\\n'", "line 1: row 0 of the board holds no queen: a placement has one queen a row"},
      {"printf '.Q..\\n...Q.\\n'", "line 2: row 1 of the board has 5 squares, row 0 has 4"},
      {"printf '.Q..\\n...Q\\n\\nQ...\\n'",
       "line 3: the board drawn from line 1 ends after 2 rows of 4 squares: a board has as many rows as columns"},
      {"printf '.Q..\\n1 3 0 2\\n'",
       "line 2: the board drawn from line 1 ends after 1 row of 4 squares: a board has as many rows as columns"},
      {"printf '.Q..\\n'",
       "line 2 (the end of the input): the board drawn from line 1 ends after 1 row of 4 "
       "squares: a board has as many rows as columns"},
      {"echo 'Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4 w - - 0 1'",
       "line 1: unexpected text after the FEN piece placement: 'w - - 0 1' (check reads the piece placement alone)"},
      {"echo 'K7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4'",
       "line 1: unexpected character 'K' in row 0 of the FEN (expected Q and runs of empty squares, 1 or more)"},
      {"echo 'Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q3'", "line 1: row 7 of the FEN has 7 squares, row 0 has 8"},
      {"echo 'Q07/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4'",
       "line 1: unexpected character '0' in row 0 of the FEN (expected Q and runs of empty squares, 1 or more)"},
      {"echo 'Q7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/8'",
       "line 1: row 7 of the FEN holds no queen: a placement has one queen a row"},
      {"echo 'Q7/4Q3'", "line 1: the FEN has 2 rows of 8 squares: a board has as many rows as columns"},
      {"printf '.Q..\\nQ\\n'", "line 2: row 1 of the board has 1 square, row 0 has 4"},
      // A stray byte in a row is named, not taken for the board's end.
      {"printf '.Q..\\n...Q\\nQ...K\\n..Q.\\n'",
       "line 3: unexpected character 'K' in row 2 of the board (expected Q and .)"},
      {"printf '.Q..x\\n'", "line 1: unexpected character 'x' in row 0 of the board (expected Q and .)"},
      // A character past ASCII is named whole (an Arabic-Indic three, a
      // fullwidth Q), a byte of no character alone and escaped.
      {"printf '\\331\\243 1\\n'", "line 1: unexpected character '\u0663' in the placement (expected column numbers)"},
      {"printf '.\\357\\274\\261..\\n'",
       "line 1: unexpected character '\uff31' in row 0 of the board (expected Q and .)"},
      {"printf 'Q1/1\\357\\274\\261\\n'",
       "line 1: unexpected character '\uff31' in row 1 of the FEN (expected Q and runs of empty squares, 1 or more)"},
      {"printf '1 \\331 2\\n'", "line 1: unexpected character '\\xd9' in the placement (expected column numbers)"},
      // An endless row is cut at 16 MiB, not read to 2 GiB; a tuple longer
      // than that with a dot after is named for its dot.
      {"head -c 20000000 /dev/zero | tr '\\0' .",
       "line 1: longer than 16 MiB, more than a drawn board's row or a FEN takes"},
      {"{ yes '1 ' | head -c 17000000 | tr -d '\\n'; echo .; }",
       "line 1: unexpected character '.' in the placement (expected column numbers)"},
      {"echo 'Q1/1Q/Q1'", "line 1: the FEN has more than 2 rows of 2 squares: a board has as many rows as columns"},
  };
  for (const auto& [input, message] : cases) {
    const cli_run r = run_script(std::string(input) + " | $NQ check");
    EXPECT_EQ(r.status, 2) << input;
    EXPECT_EQ(r.err, "nqueens: " + std::string(message) + "\n") << input;
    EXPECT_EQ(r.out, "") << input;
  }
  // As an operand among others, it is named by its number, as is a board
  // left unfinished among the operands.
  const cli_run operands = run_script("$NQ check '1 3 0 2' \"$(printf '.Q..\\nQQ..')\"");
  EXPECT_EQ(operands.status, 2);
  EXPECT_EQ(operands.err, "nqueens: placement 2: row 1 of the board holds 2 queens: a placement has one queen a row\n");
  const cli_run first = run_script("$NQ check \"$(printf '.Q..\\nQQ..')\" '1 3 0 2'");
  EXPECT_EQ(first.status, 2);
  EXPECT_EQ(first.err, "nqueens: placement 1: row 1 of the board holds 2 queens: a placement has one queen a row\n");
  // One board alone is not numbered, in words or in lines.
  for (const char* alone : {"$NQ check .Q.. QQ.. Q... ..Q.", "$NQ check \"$(printf '.Q..\\nQQ..\\nQ...\\n..Q.')\""}) {
    const cli_run r = run_script(alone);
    EXPECT_EQ(r.status, 2) << alone;
    EXPECT_EQ(r.err, "nqueens: row 1 of the board holds 2 queens: a placement has one queen a row\n") << alone;
  }
  const cli_run unfinished = run_script("B=$($NQ first 4 --format board); $NQ check $B $B $B .Q.. ...Q Q...");
  EXPECT_EQ(unfinished.status, 2);
  EXPECT_EQ(unfinished.err,
            "nqueens: placement 4: the board ends after 3 rows of 4 squares: a board has as many rows as columns\n");
}

// Separate placements are never merged into one board.
TEST(CliCheckTest, EachOperandIsAPlacementOfItsOwn) {
  const cli_run two = run_cli("check '1 3 0 2' '2 0 3 1'");
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_EQ(two.out, "2 placements checked: all are solutions\n");
  const cli_run bad = run_cli("check '1 3 0 2' '(1, 1)'");
  EXPECT_EQ(bad.status, 1) << bad.err;
  EXPECT_EQ(bad.out,
            "placement 2: not a solution: 1 pair of queens attacks each other\n"
            "  rows 0 and 1: same column (1)\n"
            "2 placements checked: 1 is not a solution\n");
  // Lines inside one operand are placements too: `check "$(nqueens list 6)"`.
  const cli_run lines = run_script("$NQ check \"$($NQ list 6)\"");
  EXPECT_EQ(lines.status, 0) << lines.err;
  EXPECT_EQ(lines.out, "4 placements checked: all are solutions\n");
  // Operands of one column at most are one placement, as the shell split it:
  // numbers, the tool's own output unquoted, a bracket or comma per word.
  for (const char* split : {"check 2 0 3 1", "check 1, 3, 0, 2", "check [1 3 0 2]", "check '(1,' 3, 0, '2)'"}) {
    const cli_run r = run_cli(split);
    EXPECT_EQ(r.status, 0) << split << ": " << r.err;
    EXPECT_EQ(r.out, "solution: 4 queens, no two attack each other\n") << split;
  }
  // A lone column is a word of a placement, not a board of one queen beside
  // others: `check 0 0` is two queens in one column.
  for (const char* lone : {"check 0 0", "check 0 0 0", "check ' 0' 0"}) {
    const cli_run r = run_cli(lone);
    EXPECT_EQ(r.status, 1) << lone << ": " << r.err;
    EXPECT_EQ(r.out.rfind("not a solution: ", 0), 0u) << lone << ": " << r.out;
  }
  // Beside an operand of more columns, each is its own: a malformed one is
  // refused by its number, never read as a part of a larger board (which
  // "1 3 0 2 2 0 3 5" would be, and not a solution: exit 1).
  for (const auto& [given, said] :
       {std::pair{"check '1 3 0 2' '2 0 3 5'", "placement 2: the queen of row 3 is in column 5, outside 0..3"},
        std::pair{"check 1 3 '0 2'", "placement 1: the queen of row 0 is in column 1"}}) {
    const cli_run r = run_cli(given);
    EXPECT_EQ(r.status, 2) << given << ": " << r.out;
    EXPECT_NE(r.err.find(said), std::string::npos) << given << ": " << r.err;
  }
  const cli_run one = run_cli("check 0");
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, "solution: 1 queen, no two attack each other\n");
  const cli_run first = run_script("$NQ check $($NQ first 8)");
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.out, "solution: 8 queens, no two attack each other\n");
}

// After a tuple only a class size (1, 2, 4 or 8, as `list --unique` writes
// it) may follow: any other number is refused, not skipped.
TEST(CliCheckTest, OnlyAClassSizeMayFollowATuple) {
  const cli_run unique = run_script("$NQ list 8 --unique | $NQ check");
  EXPECT_EQ(unique.status, 0) << unique.err;
  EXPECT_EQ(unique.out, "12 placements checked: all are solutions\n");
  const cli_run words = run_script("$NQ check $($NQ list 8 --unique --limit 1)");
  EXPECT_EQ(words.status, 0) << words.err;
  for (const char* refused : {"check '(1, 3, 0, 2) 7'", "check '(1, 3, 0, 2) 007'", "check '(1, 3, 0, 2) 16'"}) {
    const cli_run r = run_cli(refused);
    EXPECT_EQ(r.status, 2) << refused << ": " << r.out;
    EXPECT_NE(r.err.find("' after the placement is no class size: one is 1, 2, 4 or 8\n"), std::string::npos)
        << refused << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << refused << ": " << r.out;
  }
  const cli_run text = run_cli("check '(1, 3, 0, 2) x'");
  EXPECT_EQ(text.status, 2);
  EXPECT_EQ(text.err, "nqueens: unexpected text after the placement: 'x'\n");
  // Text beyond ASCII is quoted as an unexpected character is: as it is.
  const cli_run accented = run_cli("check '(1, 3, 0, 2) \u00e9t\u00e9'");
  EXPECT_EQ(accented.err, "nqueens: unexpected text after the placement: '\u00e9t\u00e9'\n");
  // After a class size, a second number is no second class size.
  const cli_run twice = run_cli("check '(1, 3, 0, 2) 2 2'");
  EXPECT_EQ(twice.status, 2);
  EXPECT_EQ(twice.err, "nqueens: unexpected text after the class size: '2'\n");
  // The class size is checked: the two solutions of n = 4 are one class of
  // 2, and a line saying 8 is no listed class (exit 1, the line named).
  EXPECT_EQ(run_cli("check '(1, 3, 0, 2) 2'").status, 0);
  const cli_run wrong = run_cli("check '(1, 3, 0, 2) 8'");
  EXPECT_EQ(wrong.status, 1) << wrong.err;
  EXPECT_EQ(wrong.out, "a solution, but not of a class of 8: its class has 2 members\n");
  const cli_run lines = run_script("printf '(1, 3, 0, 2) 2\\n(2, 0, 3, 1) 4\\n(0, 0, 0, 0)\\n' | $NQ check");
  EXPECT_EQ(lines.status, 1) << lines.err;
  EXPECT_NE(lines.out.find("line 2: a solution, but not of a class of 4: its class has 2 members\n"), std::string::npos)
      << lines.out;
  EXPECT_NE(lines.out.find("3 placements checked: 1 is not a solution, 1 has a wrong class size\n"), std::string::npos)
      << lines.out;
  // A class size is its line's alone: a FEN or a board after a line that
  // gave one has none (it is no tuple, and cannot give one).
  const cli_run after =
      run_script("printf '(2, 4, 1, 7, 0, 6, 3, 5) 4\\nQ7/4Q3/7Q/5Q2/2Q5/6Q1/1Q6/3Q4\\n' | $NQ check");
  EXPECT_EQ(after.status, 0) << after.out << after.err;
  EXPECT_EQ(after.out, "2 placements checked: all are solutions\n");
  // The number as an operand of its own is a placement of its own, and one
  // queen in column 7 is off its board.
  const cli_run apart = run_cli("check '(1, 3, 0, 2)' 7");
  EXPECT_EQ(apart.status, 2) << apart.out;
  EXPECT_EQ(apart.err,
            "nqueens: placement 2: the queen of row 0 is in column 7, outside 0..0; each operand is its own placement "
            "where one holds more than one column: quote each placement whole, as in \"1 3 0 2\"\n");
}

// Placements split into words by the shell (`check $(nqueens list 4)`) are
// read as the words of one: the refusal says so, and how to give them.
TEST(CliCheckTest, SeveralPlacementsSplitIntoWordsAreToldHowToBeGiven) {
  const cli_run split = run_script("$NQ check $($NQ list 4)");
  EXPECT_EQ(split.status, 2) << split.out;
  EXPECT_EQ(split.out, "");
  EXPECT_EQ(split.err,
            "nqueens: unexpected text after the placement: '(2, 0, 3, 1)'; the 8 operands were read as the words of "
            "one placement: quote each placement whole, as in \"1 3 0 2\", or give them on standard input, one a "
            "line\n");
  EXPECT_EQ(run_script("$NQ list 4 | $NQ check").status, 0);
  // One placement's words with a typo, or words after it, are no several
  // placements.
  for (const char* command : {"check 1 3 x 2", "check '(1,' 3, 0, '2)' x", "check '(1,' 3, 0, '2)' 2 2"}) {
    SCOPED_TRACE(command);
    const cli_run one = run_cli(command);
    EXPECT_EQ(one.status, 2);
    EXPECT_EQ(one.err.find("operands were read"), std::string::npos) << one.err;
  }
}

// Words of one placement beside a quoted one are not joined; the one-column
// placement off its board says why. A placement's own refusal names it once.
TEST(CliCheckTest, UnjoinedWordsAndUnclosedPlacementsAreNamedPlainly) {
  const cli_run words = run_cli("check 1 3 0 2 '2 0 3 1'");
  EXPECT_EQ(words.status, 2) << words.out;
  EXPECT_EQ(words.out, "");
  EXPECT_NE(words.err.find("nqueens: placement 1: the queen of row 0 is in column 1"), std::string::npos) << words.err;
  EXPECT_NE(words.err.find("; each operand is its own placement where one holds more than one column"),
            std::string::npos)
      << words.err;
  // No hint where no operand was left alone for another's columns: a
  // placement of several columns, one with a class size, a drawn row's
  // neighbour, a line of an operand of several lines.
  for (const char* command :
       {"check '1 3 0 2' '0 5'", "check '1 3 0 2' '(7) 1'", "check Q 7", "check '1 3 0 2\n5'", "check '0\n5'"}) {
    const cli_run refused = run_cli(command);
    EXPECT_EQ(refused.status, 2) << command << ": " << refused.out;
    EXPECT_NE(refused.err.find("outside 0.."), std::string::npos) << command << ": " << refused.err;
    EXPECT_EQ(refused.err.find("own placement"), std::string::npos) << command << ": " << refused.err;
  }
  const cli_run open = run_cli("check '1 3 0 2' '(2, 0, 3, 1'");
  EXPECT_EQ(open.status, 2) << open.out;
  EXPECT_EQ(open.err, "nqueens: placement 2 has no closing ')'\n");
  const cli_run empty = run_cli("check '1 3 0 2' '2,,0'");
  EXPECT_EQ(empty.status, 2) << empty.out;
  EXPECT_EQ(empty.err, "nqueens: placement 2 has an empty entry (two commas or a leading comma)\n");
}

// A number is refused at its 21st digit, not read whole first: `yes 1 | tr
// -d '\n'` ran the machine out of memory. Of 50 MB of 1s, check takes a
// pipe's worth or so (dd, ignoring SIGPIPE, says how much went through, in
// English under LC_ALL=C: a German dd says "Bytes ... kopiert").
TEST(CliCheckTest, ANumberLongerThanAnyColumnIsRefusedAtOnce) {
  const cli_run r = run_script(
      "trap '' PIPE; head -c 50000000 /dev/zero | tr '\\0' 1 | LC_ALL=C dd bs=65536 2>dd.err | $NQ check; s=$?; "
      "sed -n 's/^\\([0-9]*\\) bytes.*/copied \\1/p' dd.err; exit $s");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("nqueens: line 1: column '11111111111111111111... (more than 20 digits)' is out of range"),
            std::string::npos)
      << r.err;
  const std::size_t at = r.out.find("copied ");
  ASSERT_NE(at, std::string::npos) << r.out << r.err;
  EXPECT_LT(std::stoull(r.out.substr(at + 7)), 50000000ULL) << r.out;
}

// A lone CR ends a line, as on a terminal; CRLF stays one line break.
TEST(CliCheckTest, ALoneCarriageReturnEndsALine) {
  for (const char* input : {"1 3 0 2\\r2 0 3 1\\n", "1 3 0 2\\r\\n2 0 3 1\\r\\n", "1 3 0 2\\r2 0 3 1"}) {
    const cli_run r = run_script(std::string("printf '") + input + "' | $NQ check");
    EXPECT_EQ(r.status, 0) << input << ": " << r.err;
    EXPECT_EQ(r.out, "2 placements checked: all are solutions\n") << input;
  }
  const cli_run numbered = run_script("printf '1 3 0 2\\r\\r\\n0 1\\r\\n' | $NQ check");
  EXPECT_EQ(numbered.status, 1) << numbered.err;
  EXPECT_EQ(numbered.out.rfind("line 3: not a solution", 0), 0u) << numbered.out;
}

// A UTF-8 byte order mark opens a file saved by some Windows editors: skipped
// at the start of standard input, whatever the line's length or format, and
// only there.
TEST(CliCheckTest, AByteOrderMarkOpeningTheInputIsSkipped) {
  const std::string mark = "printf '\\357\\273\\277'; ";
  for (const std::string& input :
       {std::string("printf '1 3 0 2\\r\\n2 0 3 1\\r\\n'"),
        std::string("printf '(0, 2, 4, 7, 9, 11, 5, 10, 1, 6, 8, 3)\\n'"),
        std::string("$NQ list 8 --format fen --limit 2"), std::string("$NQ list 5 --format board --limit 2")}) {
    const cli_run plain = run_script(input + " | $NQ check");
    const cli_run marked = run_script("{ " + mark + input + "; } | $NQ check");
    EXPECT_EQ(marked.status, 0) << input << ": " << marked.err;
    EXPECT_EQ(marked.out, plain.out) << input;
  }
  // The mark in reads of its own (a writer may split it): still the mark.
  const cli_run split =
      run_script("{ printf '\\357'; sleep 0.2; printf '\\273'; sleep 0.2; printf '\\2771 3 0 2\\n'; } | $NQ check");
  EXPECT_EQ(split.status, 0) << split.err;
  EXPECT_EQ(split.out, "1 placement checked: a solution\n");
  const cli_run alone = run_script("printf '\\357\\273\\277' | $NQ check");
  EXPECT_EQ(alone.status, 0) << alone.err;
  const cli_run later = run_script("printf '1 3 0 2\\n\\357\\273\\2772 0 3 1\\n' | $NQ check");
  EXPECT_EQ(later.status, 2);
  EXPECT_EQ(later.err.rfind("nqueens: line 2: unexpected character", 0), 0u) << later.err;
  const cli_run operand = run_script("$NQ check \"$(printf '\\357\\273\\2771 3 0 2')\"");
  EXPECT_EQ(operand.status, 2) << "an operand is no file: no mark is skipped in it";
}

// A line is refused at the first byte no placement holds, not read whole
// first: /dev/zero's endless line of NULs ran the machine out of memory.
// (line_reader_test.cpp reads on past a line cut short.)
TEST(CliCheckTest, AStreamOfStrayBytesIsRefusedAtTheFirst) {
  const cli_run zeros = run_script("timeout 60 $NQ check < /dev/zero");
  EXPECT_EQ(zeros.status, 2) << "124: it read on\n" << zeros.err;
  EXPECT_EQ(zeros.err, "nqueens: line 1: unexpected character '\\x00' in the placement (expected column numbers)\n");
  const cli_run after = run_script(
      "{ printf '1 3 0 2\\n1 3 0 2 '; head -c 300000 /dev/zero | tr '\\0' x; "
      "printf '\\n0 1\\n'; } | $NQ check");
  EXPECT_EQ(after.status, 2) << after.err;
  EXPECT_EQ(after.err, "nqueens: line 2: unexpected character 'x' in the placement (expected column numbers)\n");
}

// A standard input that cannot be read is a failure (exit 3) that says why.
TEST(CliCheckTest, UnreadableStandardInputIsNamed) {
  const cli_run directory = run_script("$NQ check < /tmp");
  EXPECT_EQ(directory.status, 3);
  EXPECT_EQ(directory.err, "nqueens: cannot read standard input: Is a directory\n");
  const cli_run closed = run_script("$NQ check <&-");
  EXPECT_EQ(closed.status, 3);
  EXPECT_EQ(closed.err, "nqueens: cannot read standard input: Bad file descriptor\n");
  EXPECT_TRUE(closed.out.empty()) << closed.out;
}

// A column is a number like every other the tool reads: no leading zero
// ("01" was read as 1), in operands and on standard input alike.
TEST(CliCheckTest, ColumnsFollowTheNumberRule) {
  const cli_run operand = run_cli("check '01 3 0 2'");
  EXPECT_EQ(operand.status, 2);
  EXPECT_EQ(operand.err, "nqueens: invalid column '01': expected plain decimal digits, no sign, no leading zero\n");
  EXPECT_TRUE(operand.out.empty()) << operand.out;
  const cli_run line = run_script("printf '1 3 0 2\\n(1, 3, 00, 2)\\n' | $NQ check");
  EXPECT_EQ(line.status, 2);
  EXPECT_EQ(line.err,
            "nqueens: line 2: invalid column '00': expected plain decimal digits, no sign, no leading zero\n");
  EXPECT_EQ(run_cli("check '1 3 0 2' '(0)'").status, 0);  // "0" itself is a number
  // Past what an int holds: the range named, not only "too large".
  const cli_run huge = run_cli("check 99999999999");
  EXPECT_EQ(huge.status, 2);
  EXPECT_EQ(huge.err,
            "nqueens: column '99999999999' is out of range: a placement of n queens has columns 0 to n - 1\n");
  // Ten times what an int holds, the last digit past it: out of range as a
  // number, not read as 2147483647 and named as a column outside the board.
  const cli_run tenfold = run_cli("check '0 21474836470'");
  EXPECT_EQ(tenfold.status, 2);
  EXPECT_EQ(tenfold.err,
            "nqueens: column '21474836470' is out of range: a placement of n queens has columns 0 to n - 1\n");
  // A number of 100 000 digits is shown by its first 20 and its length;
  // on standard input, which is read no further, by its first 20.
  const cli_run long_operand = run_script("$NQ check \"$(head -c 100000 /dev/zero | tr '\\0' 1)\"");
  EXPECT_EQ(long_operand.status, 2);
  EXPECT_EQ(long_operand.err,
            "nqueens: column '11111111111111111111... (100000 digits)' is out of range: a placement of n queens has "
            "columns 0 to n - 1\n");
  const cli_run long_one = run_script("{ head -c 1000000 /dev/zero | tr '\\0' 1; echo; } | $NQ check");
  EXPECT_EQ(long_one.status, 2);
  EXPECT_EQ(long_one.err,
            "nqueens: line 1: column '11111111111111111111... (more than 20 digits)' is out of range: a placement of "
            "n queens has columns 0 to n - 1\n");
  // Cut there too, a number is refused for what it is: a leading zero, a
  // sign, text after a tuple.
  for (const auto& [given, said] :
       {std::pair{"0000000000000000000000001 0",
                  "line 1: invalid column '00000000000000000000... (more than 20 digits)': expected plain decimal"},
        std::pair{"-1111111111111111111111111",
                  "line 1: columns are counted from 0: '-11111111111111111111... (more than 20 digits)' is negative"},
        std::pair{"(1, 3, 0, 2) 1111111111111111111111111", "...' after the placement is no class size"}}) {
    const cli_run r = run_script(std::string("printf '%s\\n' '") + given + "' | $NQ check");
    EXPECT_EQ(r.status, 2) << given;
    EXPECT_NE(r.err.find(said), std::string::npos) << given << ": " << r.err;
  }
}

// An empty (or blank) operand is named, not skipped: `check "$P"` with P
// unset checked nothing of it and said nothing.
TEST(CliCheckTest, AnEmptyOperandIsNamed) {
  const cli_run second = run_cli("check '1 3 0 2' ''");
  EXPECT_EQ(second.status, 2);
  EXPECT_EQ(second.err, "nqueens: placement operand 2 is empty: expected a placement such as \"1 3 0 2\"\n");
  EXPECT_TRUE(second.out.empty()) << second.out;
  const cli_run only = run_cli("check ''");
  EXPECT_EQ(only.status, 2);
  EXPECT_EQ(only.err, "nqueens: placement operand 1 is empty: expected a placement such as \"1 3 0 2\"\n");
  const cli_run blank = run_cli("check 1 3 ' ' 0 2");
  EXPECT_EQ(blank.status, 2);
  EXPECT_EQ(blank.err, "nqueens: placement operand 3 is blank (' '): expected a placement such as \"1 3 0 2\"\n");
}

// `check $(cat file)` of a file written with CRLF: the shell splits at LF
// alone, so each line's last word keeps its CR and a blank line is a word
// "\r". They are read as the same file with LF would be: `0 0` was two
// one-queen solutions (exit 0), and a board's blank line refused.
TEST(CliCheckTest, WordsOfACrlfFileAreReadAsItsLines) {
  for (const auto& [file, status, said] :
       {std::tuple{"printf '0 0\\r\\n'", 1, "not a solution: 1 pair of queens attacks each other\n"},
        std::tuple{"printf '1 3 0 2\\r\\n'", 0, "solution: 4 queens, no two attack each other\n"},
        std::tuple{"$NQ first 8 | sed 's/$/\\r/'", 0, "solution: 8 queens, no two attack each other\n"},
        std::tuple{"$NQ first 8 --format board | sed 's/$/\\r/'", 0, "solution: 8 queens, no two attack each other\n"},
        std::tuple{"$NQ list 6 --format board | sed 's/$/\\r/'", 0, "4 placements checked: all are solutions\n"}}) {
    const cli_run r = run_script(std::string(file) + " > crlf.txt && $NQ check $(cat crlf.txt)");
    EXPECT_EQ(r.status, status) << file << ": " << r.err;
    EXPECT_EQ(r.out.substr(0, std::string(said).size()), said) << file;
  }
  // A line break ending an operand is no line of its own: `0 "0\n"` is two
  // queens in one column.
  const cli_run ended = run_script("nl=$(printf '\\n.'); $NQ check 0 \"0${nl%.}\"");
  EXPECT_EQ(ended.status, 1) << ended.err;
  // A line break alone is still no placement, and not standard input; nor
  // beside '-', and a refusal after one numbers the operands as given.
  const cli_run alone = run_script("$NQ check \"$(printf '\\r')\"");
  EXPECT_EQ(alone.status, 2);
  EXPECT_EQ(alone.err, "nqueens: placement operand 1 is blank ('\\x0d'): expected a placement such as \"1 3 0 2\"\n");
  const cli_run dash = run_script("$NQ check - \"$(printf '\\r')\"");
  EXPECT_EQ(dash.status, 2);
  EXPECT_EQ(dash.err, "nqueens: '-' (standard input) is checked alone: give it, or placements, not both\n");
  const cli_run numbered = run_script("$NQ check 1 3 \"$(printf '\\r')\" ' ' 0 2");
  EXPECT_EQ(numbered.status, 2);
  EXPECT_EQ(numbered.err, "nqueens: placement operand 4 is blank (' '): expected a placement such as \"1 3 0 2\"\n");
}

// "--" ends the options, as in every POSIX tool: what follows is a
// placement, whatever it starts with.
TEST(CliCheckTest, DoubleDashEndsTheOptions) {
  const cli_run one = run_cli("check -- '1 3 0 2'");
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, "solution: 4 queens, no two attack each other\n");
  const cli_run two = run_cli("check '1 3 0 2' -- '2 0 3 1'");
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_EQ(two.out, "2 placements checked: all are solutions\n");
  const cli_run word = run_cli("check -- x");
  EXPECT_EQ(word.status, 2);
  EXPECT_EQ(word.err, "nqueens: unexpected character 'x' in the placement (expected column numbers)\n");
  const cli_run help = run_cli("check -- --help");
  EXPECT_EQ(help.status, 2);
  EXPECT_TRUE(help.out.empty()) << help.out;
  EXPECT_EQ(help.err, "nqueens: unexpected character '-' in the placement (expected column numbers)\n");
  const cli_run option = run_cli("check --all 1 3 0 2");
  EXPECT_EQ(option.status, 2);
  EXPECT_EQ(option.err,
            "nqueens: unknown option '--all' for 'check': it takes placements and -h/--help (a placement after '--' "
            "may start with '-')\n");
}

}  // namespace
}  // namespace nqueens::test
