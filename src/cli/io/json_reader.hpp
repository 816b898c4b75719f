#pragma once

// A strict reader for one JSON object (RFC 8259), for files the tool reads
// back (`nqueens merge`): they may have been edited, truncated or written by
// something else, so nothing is guessed, wrapped or passed through unchecked.
//
// Hand-written on purpose. A version on Debian's nlohmann-json3 3.11 (SAX)
// was built and checked against this one on 7 million mutated inputs
// (2026-11-24): the same decisions, but 430 lines against 414,
// because SAX events carry no byte offsets: it followed the text with a
// cursor and read nlohmann's error wording to say which byte was wrong,
// which a new nlohmann could change silently. It also refused numbers past
// a double's range that are valid JSON.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/count_types.hpp"

namespace nqueens::cli {

/// Larger inputs are refused: a count's JSON is under a kilobyte.
inline constexpr std::size_t max_json_bytes = std::size_t{1} << 20;

/// Arrays and objects nested deeper than this are refused (the reader recurses).
inline constexpr int max_json_depth = 64;

/// Malformed JSON, or a member that is not what the caller asked for. The
/// message starts "byte N: " (N counted from 1) when it points into the text.
class json_error : public std::runtime_error {
 public:
  explicit json_error(const std::string& what) : std::runtime_error(what) {}
  json_error(std::size_t offset, const std::string& what)
      : std::runtime_error("byte " + std::to_string(offset + 1) + ": " + what) {}
};

enum class json_type { null, boolean, number, string, array, object };

/// A member's value. Nested arrays and objects are checked, then kept only as
/// their type, but for an array's strings: no caller reads further into them.
struct json_value {
  json_type type = json_type::null;
  /// A number as written, a string decoded to UTF-8, "true" or "false".
  std::string text;
  /// An array's elements that are strings, decoded, in order (its other
  /// elements are checked and dropped).
  std::vector<std::string> strings;
  /// Of the value's first byte (0-based), for messages.
  std::size_t offset = 0;
};

/// The members of one top-level object, in the order written.
class json_members {
 public:
  /// Parses `text`: one object, surrounded by nothing but whitespace; strings
  /// are valid UTF-8 with no raw control characters and valid escapes
  /// (surrogates only in pairs); no object repeats a key. Throws json_error.
  static json_members parse(std::string_view text);

  /// The member named `key`, or nullptr.
  const json_value* find(std::string_view key) const noexcept;

  /// The member `key` as an exact integer in [lo, hi]: digits only (no sign,
  /// fraction or exponent). Throws json_error when it is missing, not such an
  /// integer, or out of range (never wrapped).
  uint128 get_unsigned(std::string_view key, uint128 lo, uint128 hi) const;

  /// The member `key` as a string (decoded). Throws json_error when missing or
  /// not a string.
  const std::string& get_string(std::string_view key) const;

 private:
  const json_value& require(std::string_view key) const;

  std::vector<std::pair<std::string, json_value>> members_;
};

/// `text` as a JSON string for a message: quoted, with quotes, backslashes,
/// control characters (C0, DEL, C1) written as escapes, and cut at 40
/// characters, so that nothing read from a file reaches a terminal raw.
std::string quote_for_message(std::string_view text);

}  // namespace nqueens::cli
