#pragma once

// Text read from the user or a file, made safe for a one-line message: no
// byte that would cut it short (NUL) or act on the terminal (a control
// byte) is ever echoed raw.

#include <string>
#include <string_view>

namespace nqueens::cli {

/// "\x1b": one byte as a C-style escape.
std::string byte_escape(unsigned char byte);

/// "0x1b": one byte named in a message.
std::string hex_byte(unsigned char byte);

/// `text` with printable ASCII as it is and any other byte as byte_escape.
std::string printable(std::string_view text);

}  // namespace nqueens::cli
