#include "cli/io/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "cli/io/utf8.hpp"

namespace nqueens::cli {

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, static_cast<std::size_t>(end - buffer));
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out += text.substr(i, length);
        i += length;
      }
      continue;
    } else {
      out += c;
    }
    ++i;
  }
  return out + "\"";
}

std::string json_array_of(std::span<const double> values) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (k > 0) out += ',';
    out += json_number(values[k]);
  }
  out += ']';
  return out;
}

std::string json_array_of(std::span<const std::string> values) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (k > 0) out += ',';
    out += json_string(values[k]);
  }
  out += ']';
  return out;
}

}  // namespace nqueens::cli
