#include "cli/message_text.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace nqueens::cli {

std::string formatted(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::va_list again;
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  return text;
}

std::string counted(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string byte_escape(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "\\x%02x", byte);
  return text;
}

std::string hex_byte(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", byte);
  return text;
}

std::string printable(std::string_view text) {
  std::string shown;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    shown += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : byte_escape(byte);
  }
  return shown;
}

namespace {

// A well-formed UTF-8 character: its bytes (0 where none starts) and its
// code point.
struct utf8_character {
  std::size_t length = 0;
  char32_t code = 0;
};

utf8_character character_from(std::string_view text, std::size_t at) noexcept {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code = lead & 0x1FU;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code = lead & 0x0FU;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code = lead & 0x07U;
  } else {
    return {};
  }
  if (text.size() - at < length) return {};
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0U) != 0x80U) return {};
    code = code << 6 | (next & 0x3FU);
  }
  constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (code < least[length] || code > 0x10FFFF || surrogate) return {};
  return {length, code};
}

// Whether a terminal shows `code` (past ASCII) as what it is: not a C1
// control (U+009B, which some act on), not a space other than the plain
// one, an invisible format character, a line or paragraph separator, nor
// a bidirectional control, which reorders the rest of the line.
bool shown_as_itself(char32_t code) noexcept {
  const auto in = [code](char32_t first, char32_t last) { return code >= first && code <= last; };
  return !(code <= 0x9F || code == 0xA0 || code == 0xAD || code == 0x61C || code == 0x1680 || code == 0x180E ||
           in(0x2000, 0x200F) || in(0x2028, 0x202F) || in(0x205F, 0x206F) || code == 0x3000 || code == 0xFEFF ||
           in(0xFFF9, 0xFFFB));
}

// A combining mark, which alone lands on the character before it (a quote).
bool combining_mark(char32_t code) noexcept {
  const auto in = [code](char32_t first, char32_t last) { return code >= first && code <= last; };
  return in(0x0300, 0x036F) || in(0x1AB0, 0x1AFF) || in(0x1DC0, 0x1DFF) || in(0x20D0, 0x20FF) || in(0xFE20, 0xFE2F);
}

// The length of the UTF-8 sequence at text[at] when it encodes a character a
// terminal shows as itself, or 0: a byte outside such a sequence is escaped.
std::size_t shown_sequence_length(std::string_view text, std::size_t at) noexcept {
  const utf8_character c = character_from(text, at);
  return c.length != 0 && shown_as_itself(c.code) ? c.length : 0;
}

}  // namespace

std::string character_at(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {};
  if (static_cast<unsigned char>(text[at]) < 0x80) return one_line(text.substr(at, 1));
  const utf8_character c = character_from(text, at);
  const std::string_view bytes = text.substr(at, std::max<std::size_t>(c.length, 1));
  // Alone, a combining mark is no character to see: its bytes, escaped.
  return c.length != 0 && combining_mark(c.code) ? printable(bytes) : one_line(bytes);
}

std::string shown_operand(std::string_view text) {
  constexpr std::size_t longest = 64, kept = 40;
  if (text.size() <= longest) return std::string(text);
  std::size_t cut = kept;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // a continuation byte
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string shown_start(std::string_view text, std::size_t bytes) {
  if (text.size() <= bytes) return one_line(text);
  std::size_t cut = bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // a continuation byte
  return one_line(text.substr(0, cut)) + "...";
}

std::string one_line(std::string_view text) {
  std::string shown;
  for (std::size_t at = 0; at < text.size();) {
    const auto byte = static_cast<unsigned char>(text[at]);
    const std::size_t length = byte < 0x80 ? (byte >= 0x20 && byte != 0x7f ? 1 : 0) : shown_sequence_length(text, at);
    if (length == 0) {
      shown += byte_escape(byte);
      ++at;
    } else {
      shown += text.substr(at, length);
      at += length;
    }
  }
  return shown;
}

}  // namespace nqueens::cli
