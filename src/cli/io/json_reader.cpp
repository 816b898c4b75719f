#include "cli/io/json_reader.hpp"

#include <cstdio>
#include <limits>
#include <set>
#include <utility>

#include "cli/io/utf8.hpp"
#include "cli/message_text.hpp"

namespace nqueens::cli {
namespace {

void append_utf8(std::string& out, unsigned code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

const char* type_name(json_type t) {
  switch (t) {
    case json_type::null:
      return "null";
    case json_type::boolean:
      return "a boolean";
    case json_type::number:
      return "a number";
    case json_type::string:
      return "a string";
    case json_type::array:
      return "an array";
    case json_type::object:
      return "an object";
  }
  return "?";
}

using member_list = std::vector<std::pair<std::string, json_value>>;

// Recursive descent over RFC 8259's grammar; every error names the byte.
class parser {
 public:
  explicit parser(std::string_view text) : text_(text) {}

  member_list top_level() {
    member_list members;
    skip_whitespace();
    if (peek() != '{') fail("expected a JSON object ('{')");
    object(1, &members);
    skip_whitespace();
    // Shards' outputs joined into one file (`cat s*.json > all.json`) are
    // what a second object most likely is.
    if (peek() == '{') fail("a second object after the first: give each shard's --json output as a file of its own");
    if (pos_ < text_.size()) fail("unexpected text after the object");
    return members;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw json_error(pos_, what); }

  bool at_end() const noexcept { return pos_ >= text_.size(); }
  // The next byte, or 0 at the end (never valid where a 0 byte is checked for).
  char peek() const noexcept { return at_end() ? '\0' : text_[pos_]; }

  void skip_whitespace() noexcept {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  [[noreturn]] void unexpected(const char* expected) const {
    if (at_end()) fail(std::string("unexpected end of input: expected ") + expected);
    const auto c = static_cast<unsigned char>(text_[pos_]);
    const std::string found = c >= 0x20 && c < 0x7F ? "'" + std::string(1, static_cast<char>(c)) + "'" : hex_byte(c);
    fail("unexpected " + found + ": expected " + expected);
  }

  json_value value(int depth) {
    json_value v;
    v.offset = pos_;
    switch (peek()) {
      case '{':
        v.type = json_type::object;
        object(depth + 1, nullptr);
        break;
      case '[':
        v.type = json_type::array;
        v.strings = array(depth + 1);
        break;
      case '"':
        v.type = json_type::string;
        v.text = string();
        break;
      case 't':
      case 'f':
        v.type = json_type::boolean;
        v.text = peek() == 't' ? "true" : "false";
        literal(v.text);
        break;
      case 'n':
        v.type = json_type::null;
        literal("null");
        break;
      default:
        if (peek() != '-' && (peek() < '0' || peek() > '9')) unexpected("a value");
        v.type = json_type::number;
        v.text = number();
    }
    return v;
  }

  // Keeps the members in `keep` (the top level) or only checks them.
  void object(int depth, member_list* keep) {
    if (depth > max_json_depth) fail("nested deeper than " + std::to_string(max_json_depth) + " levels");
    ++pos_;  // '{'
    std::set<std::string, std::less<>> keys;
    skip_whitespace();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_whitespace();
      if (peek() != '"') unexpected("a member name in double quotes");
      const std::size_t key_offset = pos_;
      std::string key = string();
      if (!keys.insert(key).second) throw json_error(key_offset, "duplicate key " + quote_for_message(key));
      skip_whitespace();
      if (peek() != ':') unexpected("':'");
      ++pos_;
      skip_whitespace();
      json_value v = value(depth);
      if (keep != nullptr) keep->emplace_back(std::move(key), std::move(v));
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') unexpected("',' or '}'");
      ++pos_;
      return;
    }
  }

  // Checks an array, and returns its elements that are strings.
  std::vector<std::string> array(int depth) {
    if (depth > max_json_depth) fail("nested deeper than " + std::to_string(max_json_depth) + " levels");
    ++pos_;  // '['
    std::vector<std::string> strings;
    skip_whitespace();
    if (peek() == ']') {
      ++pos_;
      return strings;
    }
    for (;;) {
      skip_whitespace();
      json_value element = value(depth);
      if (element.type == json_type::string) strings.push_back(std::move(element.text));
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ']') unexpected("',' or ']'");
      ++pos_;
      return strings;
    }
  }

  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) unexpected("true, false or null");
    pos_ += word.size();
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, returned as written.
  std::string number() {
    const std::size_t start = pos_;
    const auto digits = [&](const char* expected) {
      if (peek() < '0' || peek() > '9') unexpected(expected);
      while (peek() >= '0' && peek() <= '9') ++pos_;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9') fail("leading zero in a number");
    } else {
      digits("a digit");
    }
    if (peek() == '.') {
      ++pos_;
      digits("a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      digits("a digit in the exponent");
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  unsigned hex4() {
    unsigned value = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = peek();
      unsigned digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<unsigned>(c - 'A' + 10);
      } else {
        unexpected("a hex digit in a \\u escape");
      }
      value = value * 16 + digit;
      ++pos_;
    }
    return value;
  }

  // After "\u": one code point, a surrogate pair counted as one.
  unsigned unicode_escape(std::size_t escape_offset) {
    const unsigned first = hex4();
    if (first >= 0xDC00 && first <= 0xDFFF) throw json_error(escape_offset, "unpaired low surrogate in a \\u escape");
    if (first < 0xD800 || first > 0xDBFF) return first;
    if (text_.substr(pos_, 2) != "\\u") throw json_error(escape_offset, "unpaired high surrogate in a \\u escape");
    pos_ += 2;
    const unsigned second = hex4();
    if (second < 0xDC00 || second > 0xDFFF) throw json_error(escape_offset, "unpaired high surrogate in a \\u escape");
    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
  }

  std::string string() {
    ++pos_;  // '"'
    std::string out;
    for (;;) {
      if (at_end()) fail("unexpected end of input in a string");
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) fail("raw control character " + hex_byte(c) + " in a string (JSON needs an escape)");
      if (c == '\\') {
        const std::size_t escape_offset = pos_++;
        const char e = peek();
        ++pos_;
        switch (e) {
          case '"':
          case '\\':
          case '/':
            out += e;
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 't':
            out += '\t';
            break;
          case 'u':
            append_utf8(out, unicode_escape(escape_offset));
            break;
          default:
            throw json_error(escape_offset, "invalid escape sequence in a string");
        }
        continue;
      }
      const std::size_t length = utf8_sequence_length(text_, pos_);
      if (length == 0) fail("invalid UTF-8 in a string");
      out.append(text_.substr(pos_, length));
      pos_ += length;
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

json_members json_members::parse(std::string_view text) {
  if (text.size() > max_json_bytes) {
    throw json_error("larger than " + std::to_string(max_json_bytes) + " bytes: not a count's JSON output");
  }
  json_members result;
  result.members_ = parser(text).top_level();
  return result;
}

const json_value* json_members::find(std::string_view key) const noexcept {
  for (const auto& [name, value] : members_) {
    if (name == key) return &value;
  }
  return nullptr;
}

const json_value& json_members::require(std::string_view key) const {
  const json_value* v = find(key);
  if (v == nullptr) throw json_error("no " + quote_for_message(key) + " member");
  return *v;
}

uint128 json_members::get_unsigned(std::string_view key, uint128 lo, uint128 hi) const {
  const json_value& v = require(key);
  const std::string name = quote_for_message(key);
  if (v.type != json_type::number) throw json_error(v.offset, name + " must be a number, not " + type_name(v.type));
  constexpr uint128 max = std::numeric_limits<uint128>::max();
  uint128 value = 0;
  bool too_large = false;
  for (const char c : v.text) {
    if (c < '0' || c > '9') {
      throw json_error(v.offset, name + " must be a whole number without sign, fraction or exponent");
    }
    const auto digit = static_cast<unsigned>(c - '0');
    if (value > (max - digit) / 10) too_large = true;  // value * 10 + digit would wrap
    if (!too_large) value = value * 10 + digit;
  }
  if (too_large && hi == max) throw json_error(v.offset, name + " does not fit in 128 bits");
  if (too_large || value < lo || value > hi) {
    const std::string shown = v.text.size() <= 40 ? " " + v.text : "";
    throw json_error(v.offset, name + shown + " is out of range: expected an integer from " + to_string(lo) + " to " +
                                   to_string(hi));
  }
  return value;
}

const std::string& json_members::get_string(std::string_view key) const {
  const json_value& v = require(key);
  if (v.type != json_type::string) {
    throw json_error(v.offset, quote_for_message(key) + " must be a string, not " + type_name(v.type));
  }
  return v.text;
}

std::string quote_for_message(std::string_view text) {
  constexpr std::size_t max_shown = 40;
  std::string out = "\"";
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++shown) {
    if (shown == max_shown) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t length = utf8_sequence_length(text, i);
    // C1 controls (U+0080..U+009F, bytes C2 80..C2 9F) act on terminals too.
    const bool c1 = length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    char buffer[8];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F || c1) {
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c1 ? static_cast<unsigned char>(text[i + 1]) : c);
      out += buffer;
    } else if (length == 0) {  // not UTF-8: shown as the byte, never passed on
      out += byte_escape(c);
      i += 1;
      continue;
    } else {
      out.append(text.substr(i, length));
    }
    i += length == 0 ? 1 : length;
  }
  return out + "\"";
}

}  // namespace nqueens::cli
