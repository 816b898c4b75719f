#pragma once

// A minimal JSON object writer for the CLI's --json output: one line, keys in
// insertion order, integers written exactly (128-bit totals included), and
// doubles as text that reads back to the same double.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "nqueens/count_types.hpp"

namespace nqueens::cli {

/// The shortest text that reads back to the same double: a fixed count of
/// decimals wrote a thread-hour of 1e-8 as 0. JSON has no NaN or infinity:
/// they are null, "no figure".
std::string json_number(double value);

/// `text` as a JSON string, quoted. Bytes that are no UTF-8 (a path or a
/// CPU name in another encoding) become U+FFFD, one per byte: JSON is
/// UTF-8, and a reader refuses them.
std::string json_string(std::string_view text);

/// `[a,b,...]`, each as json_number writes it.
std::string json_array_of(std::span<const double> values);

/// `["a","b",...]`, each as json_string writes it.
std::string json_array_of(std::span<const std::string> values);

class json_object {
 public:
  json_object& add(std::string_view key, std::string_view text) { return add_raw(key, json_string(text)); }
  json_object& add(std::string_view key, const char* text) { return add(key, std::string_view(text)); }
  json_object& add(std::string_view key, bool value) { return add_raw(key, value ? "true" : "false"); }
  json_object& add(std::string_view key, int value) { return add_raw(key, std::to_string(value)); }
  json_object& add(std::string_view key, std::size_t value) { return add_raw(key, std::to_string(value)); }
  json_object& add(std::string_view key, uint128 value) { return add_raw(key, to_string(value)); }
  json_object& add(std::string_view key, double value) { return add_raw(key, json_number(value)); }
  template <typename T>
  json_object& add(std::string_view key, const std::optional<T>& value) {
    if (!value) return add_raw(key, "null");
    return add(key, *value);
  }
  /// Adds `json` verbatim: a nested object or array the caller built.
  json_object& add_raw(std::string_view key, std::string_view json) {
    body_ += body_.empty() ? "" : ",";
    body_ += json_string(key);
    body_ += ':';
    body_ += json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace nqueens::cli
