// The line reader behind `nqueens check`: lines cut short at a stray byte,
// at a long run of digits, at the most a line (or one holding a capped byte)
// holds, and the next line read from where the cut one ended.

#include "cli/io/line_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>
#include <utility>

namespace {

using nqueens::cli::line_reader;

// A file holding `text`, open for reading: what the reader reads (in the
// test's own directory).
class text_file {
 public:
  explicit text_file(const std::string& text) {
    std::ofstream("in.txt", std::ios::binary) << text;
    fd_ = ::open("in.txt", O_RDONLY);
    EXPECT_GE(fd_, 0);
  }
  ~text_file() { ::close(fd_); }
  text_file(const text_file&) = delete;
  text_file& operator=(const text_file&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

TEST(LineReaderTest, ALineIsCutTwentyBytesPastItsFirstStrayByte) {
  const std::string stray = "1 3 x" + std::string(30000, 'y');  // past the reader's first block too
  const text_file in("1 3 0 2\n" + stray + "\r\n2 0 3 1\n");
  line_reader lines(in.fd(), std::string::npos, "0123456789 ");
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "1 3 0 2");
  EXPECT_FALSE(lines.cut());
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, stray.substr(0, 4 + 21));
  EXPECT_TRUE(lines.cut());
  ASSERT_TRUE(lines.next(line));  // the rest of the cut line skipped, its CRLF one break
  EXPECT_EQ(line, "2 0 3 1");
  EXPECT_FALSE(lines.cut());
  EXPECT_FALSE(lines.next(line));
}

// What a line_reader makes of `text`, sent through a socket by a thread of
// its own (as a pipe would, without SIGPIPE): the reader's end is closed
// before the sender is joined, so that a reader that stops early (a defect)
// never leaves it waiting, nor an exception a thread unjoined.
class sent_text {
 public:
  explicit sent_text(std::string text) : text_(std::move(text)) {
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends_) != 0) ends_[0] = ends_[1] = -1;
    sender_ = std::thread([this] {
      for (std::size_t at = 0; ends_[1] >= 0 && at < text_.size();) {
        const ssize_t n = ::send(ends_[1], text_.data() + at, text_.size() - at, MSG_NOSIGNAL);
        if (n <= 0) break;
        at += static_cast<std::size_t>(n);
      }
      if (ends_[1] >= 0) ::shutdown(ends_[1], SHUT_WR);
    });
  }
  ~sent_text() {
    if (ends_[0] >= 0) ::shutdown(ends_[0], SHUT_RDWR);
    sender_.join();
    for (const int fd : ends_) {
      if (fd >= 0) ::close(fd);
    }
  }
  sent_text(const sent_text&) = delete;
  sent_text& operator=(const sent_text&) = delete;
  int fd() const { return ends_[0]; }

 private:
  std::string text_;
  int ends_[2]{-1, -1};
  std::thread sender_;
};

// A line past the most it may hold is cut with room for that most (and a
// byte) at the most: grown past it by doubling, `check` took 4.2 GB to
// refuse a line of 2 GiB. A long line within the cut is read whole, its
// room doubled as it grows, never the cut's (2 GiB of address space for
// any line past a few MB); the next line is read whole.
TEST(LineReaderTest, AnOverlongLineTakesNoMoreRoomThanItsCut) {
  for (const std::size_t most : {std::size_t{1000}, std::size_t{80} << 20}) {
    std::string text(most + most / 8, ' ');
    text += "\n2 0 3 1\n";
    const sent_text in(text);
    ASSERT_GE(in.fd(), 0);
    line_reader lines(in.fd(), most);
    std::string line;
    ASSERT_TRUE(lines.next(line));
    EXPECT_EQ(line.size(), most);
    EXPECT_TRUE(lines.cut());
    EXPECT_LE(line.capacity(), most + 1);
    ASSERT_TRUE(lines.next(line));
    EXPECT_EQ(line, "2 0 3 1");
    EXPECT_FALSE(lines.cut());
    EXPECT_FALSE(lines.next(line));
  }
  const std::size_t long_line = std::size_t{70} << 20;
  const sent_text in(std::string(long_line, '1') + "\n");
  ASSERT_GE(in.fd(), 0);
  line_reader lines(in.fd(), std::size_t{1} << 31);
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line.size(), long_line);
  EXPECT_FALSE(lines.cut());
  EXPECT_LE(line.capacity(), 2 * long_line);
}

TEST(LineReaderTest, ALineIsCutAtTheMostItHolds) {
  const std::string long_line(200000, '7');
  const text_file in(long_line + "\n0\n" + long_line);
  line_reader lines(in.fd(), 1000, "0123456789");
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, long_line.substr(0, 1000));
  EXPECT_TRUE(lines.cut());
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "0");
  EXPECT_FALSE(lines.cut());
  ASSERT_TRUE(lines.next(line));  // cut, with no line break after it
  EXPECT_TRUE(lines.cut());
  EXPECT_FALSE(lines.next(line));
}

// A run of digits is cut at the digit past `max_digits`, counted across the
// reader's blocks (the run starts 10 bytes before the first block's end,
// 65536 bytes), and counted afresh on the next line after a cut one.
TEST(LineReaderTest, ALineIsCutAtTheDigitPastTheMostARunHolds) {
  const std::string across = std::string(65526, ' ') + std::string(40, '1');
  const text_file in(across + "\n" + std::string(20, '9') + " 0\n" + std::string(22, '5'));
  line_reader lines(in.fd(), std::string::npos, "0123456789 ", 20);
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, across.substr(0, 65526 + 21));
  EXPECT_TRUE(lines.cut());
  ASSERT_TRUE(lines.next(line));  // twenty digits are a run it holds
  EXPECT_EQ(line, std::string(20, '9') + " 0");
  EXPECT_FALSE(lines.cut());
  ASSERT_TRUE(lines.next(line));  // cut, with no line break after it
  EXPECT_EQ(line, std::string(21, '5'));
  EXPECT_TRUE(lines.cut());
  EXPECT_FALSE(lines.next(line));
}

// A line holding a capped byte is cut at the cap (counted across the
// reader's blocks, the byte in a later one), a line without one is not, and
// a stray byte past the cap's line start still cuts sooner.
TEST(LineReaderTest, ALineHoldingACappedByteIsCutAtTheCap) {
  const auto ones = [](std::size_t count) {
    std::string text;
    for (std::size_t k = 0; k < count; ++k) text += "1 ";
    return text;
  };
  const std::string dotted = ones(35000) + "." + ones(15000);
  const std::string plain = ones(50001);
  const std::string stray = ".." + std::string(10, 'x') + std::string(200000, '.');
  // A line past the cap before its capped byte is of a kind without one:
  // the byte is a stray one, kept, and 20 more.
  const std::string late = ones(45000) + "." + ones(50);
  const text_file in(dotted + "\n" + plain + "\n" + std::string(40, '7') + "\n" + stray + "\n" + late + "\n0\n");
  line_reader lines(in.fd(), std::string::npos, "0123456789 .", 30, ".", 80000);
  std::string line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, dotted.substr(0, 80000));
  EXPECT_EQ(lines.cut_reason(), nqueens::cli::line_cut::capped);
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, plain);
  EXPECT_FALSE(lines.cut());
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, std::string(31, '7'));
  EXPECT_EQ(lines.cut_reason(), nqueens::cli::line_cut::long_digits);
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, stray.substr(0, 2 + 21));
  EXPECT_EQ(lines.cut_reason(), nqueens::cli::line_cut::stray_byte);
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, late.substr(0, 90000 + 21));
  EXPECT_EQ(lines.cut_reason(), nqueens::cli::line_cut::stray_byte);
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(line, "0");
  EXPECT_FALSE(lines.cut());
  EXPECT_FALSE(lines.next(line));
}

}  // namespace
