#pragma once

// Text for the tool's output and messages: printf-style formatting into a
// string (standard output is written through std::cout alone), and text
// read from the user or a file made safe for a one-line message: no byte
// that would cut it short (NUL) or act on the terminal (a control byte) is
// ever echoed raw.

#include <cstddef>
#include <string>
#include <string_view>

namespace nqueens::cli {

/// `format` and its arguments as std::snprintf writes them.
std::string formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// "1 thread", "2 threads": `count` and `noun`, plural but for 1.
std::string counted(std::size_t count, std::string_view noun);

/// "\x1b": one byte as a C-style escape.
std::string byte_escape(unsigned char byte);

/// "0x1b": one byte named in a message.
std::string hex_byte(unsigned char byte);

/// `text` with printable ASCII as it is and any other byte as byte_escape.
std::string printable(std::string_view text);

/// The character that starts at text[at], as a message shows it: a whole
/// UTF-8 character a terminal shows as itself ("٣", not its first byte
/// "\xd9"), else its bytes escaped (one_line's; a combining mark's too),
/// else the one byte, escaped where it is no printable ASCII.
std::string character_at(std::string_view text, std::size_t at);

/// What a message shows of an operand the user gave (a number, a name, an
/// option): the whole where it is short, else its first bytes, "...", and
/// its length, so that a line stays readable whatever was typed; never a
/// UTF-8 character cut in two. A path is shown whole (one_line).
std::string shown_operand(std::string_view text);

/// The first `bytes` bytes of `text` or so (never a UTF-8 character cut in
/// two), as one_line shows them, and "..." where more follows: the start
/// of a long stretch of input a message quotes ("unexpected text: 'été'").
std::string shown_start(std::string_view text, std::size_t bytes);

/// `text` with each control byte (a line break among them) and each byte
/// outside well-formed UTF-8 as byte_escape, the rest as it is: a message
/// that names what the user typed stays one line and still shows a path
/// such as "café". C1 controls (U+0080..U+009F), spaces other than the
/// plain one (U+00A0...), invisible format characters (U+200B...), line and
/// paragraph separators and bidirectional controls (U+202E...) are escaped
/// byte by byte: each would hide, break or reorder what the line says.
std::string one_line(std::string_view text);

}  // namespace nqueens::cli
