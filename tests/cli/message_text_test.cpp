#include "cli/message_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nqueens::cli {
namespace {

// What a message shows of a name the user gave stays one line and says
// what it is: a path such as "café" (a combining accent too) as it is;
// every byte that would break the line, hide itself or reorder the rest of
// the line escaped.
TEST(MessageTextTest, OneLineShowsTextAsItIsButWhatHidesOrReorders) {
  EXPECT_EQ(one_line("caf\u00e9.ckpt"), "caf\u00e9.ckpt");
  EXPECT_EQ(one_line("cafe\u0301.ckpt"), "cafe\u0301.ckpt");
  EXPECT_EQ(one_line("\u0663 \u4e2d"), "\u0663 \u4e2d");
  EXPECT_EQ(one_line("a\nb\tc"), "a\\x0ab\\x09c");
  EXPECT_EQ(one_line("\u009b31m"), "\\xc2\\x9b31m");                  // C1: a terminal may act on it
  EXPECT_EQ(one_line("a\u00a0b"), "a\\xc2\\xa0b");                    // no-break space, read as a space
  EXPECT_EQ(one_line("a\u200bb"), "a\\xe2\\x80\\x8bb");               // zero-width space
  EXPECT_EQ(one_line("a\u2028b"), "a\\xe2\\x80\\xa8b");               // a line separator
  EXPECT_EQ(one_line("x\u202etxt.exe"), "x\\xe2\\x80\\xaetxt.exe");   // right-to-left override
  EXPECT_EQ(one_line("\ufeffx"), "\\xef\\xbb\\xbfx");                 // a byte-order mark
  EXPECT_EQ(one_line("\xd9 \xed\xa0\x80"), "\\xd9 \\xed\\xa0\\x80");  // cut short; a surrogate
}

// One character named in a message: whole where a terminal shows it, its
// bytes escaped where it would not be seen (a combining mark alone lands on
// the quote), and a byte of no character alone.
TEST(MessageTextTest, CharacterAtNamesOneWholeCharacter) {
  const std::string text = "x\u0663\u00a0\u0301\xd9!";
  EXPECT_EQ(character_at(text, 0), "x");
  EXPECT_EQ(character_at(text, 1), "\u0663");
  EXPECT_EQ(character_at(text, 3), "\\xc2\\xa0");
  EXPECT_EQ(character_at(text, 5), "\\xcc\\x81");
  EXPECT_EQ(character_at(text, 7), "\\xd9");
  EXPECT_EQ(character_at(text, 8), "!");
  EXPECT_EQ(character_at(text, 9), "");
  EXPECT_EQ(character_at("\x1b", 0), "\\x1b");
}

// The start of a stretch of input a message quotes: shown as one_line shows
// it (what "é" alone is shown as, it is after a placement too), cut before
// a character, never inside one.
TEST(MessageTextTest, ShownStartCutsBetweenCharacters) {
  EXPECT_EQ(shown_start("\u00e9t\u00e9", 20), "\u00e9t\u00e9");
  EXPECT_EQ(shown_start("a\u00e9b", 2), "a...");  // byte 2 is the second of "é"
  EXPECT_EQ(shown_start("ab\u00e9", 3), "ab...");
  EXPECT_EQ(shown_start("abcd", 3), "abc...");
  EXPECT_EQ(shown_start("a\nb\xd9", 20), "a\\x0ab\\xd9");
}

}  // namespace
}  // namespace nqueens::cli
