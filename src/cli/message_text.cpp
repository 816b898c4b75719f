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

// The length of the UTF-8 sequence at text[at] when it encodes a character a
// terminal shows (not a C1 control such as U+009B, which some act on), or 0:
// a byte outside such a sequence is escaped.
std::size_t shown_sequence_length(std::string_view text, std::size_t at) noexcept {
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
    return 0;
  }
  if (text.size() - at < length) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0U) != 0x80U) return 0;
    code = code << 6 | (next & 0x3FU);
  }
  constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (code < least[length] || code > 0x10FFFF || surrogate || code <= 0x9F) return 0;
  return length;
}

}  // namespace

std::string character_at(std::string_view text, std::size_t at) {
  if (at >= text.size()) return {};
  const std::size_t length = static_cast<unsigned char>(text[at]) < 0x80 ? 1 : shown_sequence_length(text, at);
  return one_line(text.substr(at, std::max<std::size_t>(length, 1)));
}

std::string shown_operand(std::string_view text) {
  constexpr std::size_t longest = 64, kept = 40;
  if (text.size() <= longest) return std::string(text);
  std::size_t cut = kept;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // a continuation byte
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
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
