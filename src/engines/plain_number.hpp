#pragma once

// The one rule numbers are written by, on the command line and in the
// environment: plain decimal digits, no sign, no leading zero (but "0").
// Header-only, so that the GPU module (gpu_device.cu, built by nvcc) reads
// its environment by it too: atoi would take "abc", "-1" and "1.5" for
// numbers, and wrap a 10-digit one.

#include <charconv>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace nqueens::detail {

/// The rule, as messages and the README say it.
inline constexpr const char* plain_number_rule = "plain decimal digits, no sign, no leading zero";

/// The length of the integer by plain_number_rule at the start of `text`:
/// 0 for none (no digit, or a leading zero followed by more digits).
constexpr std::size_t plain_digits(std::string_view text) noexcept {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  return digits > 1 && text.front() == '0' ? 0 : digits;
}

/// `text`, wholly an integer by plain_number_rule within [lo, hi] (0 <= lo),
/// or nullopt.
inline std::optional<long long> plain_integer(std::string_view text, long long lo, long long hi) noexcept {
  if (text.empty() || plain_digits(text) != text.size()) return std::nullopt;
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || value < lo || value > hi) return std::nullopt;
  return value;
}

/// An environment variable's value for a one-line message: control bytes
/// as \xNN.
inline std::string shown_value(std::string_view value) {
  std::string shown;
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      shown += c;
      continue;
    }
    constexpr char hex[] = "0123456789abcdef";
    shown += "\\x";
    shown += hex[byte >> 4];
    shown += hex[byte & 15];
  }
  return shown;
}

/// `value`, the text of environment variable `name`, as an integer in
/// [lo, hi] (0 <= lo) by plain_number_rule. Throws std::invalid_argument
/// naming the variable, the value (control bytes as \xNN: one line) and
/// the range.
inline long long environment_integer(std::string_view name, std::string_view value, long long lo, long long hi) {
  if (const std::optional<long long> read = plain_integer(value, lo, hi)) return *read;
  const std::string range = "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const std::string shown = shown_value(value);
  const std::size_t digits = plain_digits(value);
  // Digits by the rule (or a minus and them) that lie outside the range.
  const bool number = (digits > 0 && digits == value.size()) ||
                      (value.size() > 1 && value.front() == '-' && plain_digits(value.substr(1)) == value.size() - 1);
  if (number) throw std::invalid_argument(std::string(name) + "=" + shown + " is out of range: " + range);
  throw std::invalid_argument(std::string(name) + "='" + shown + "' is not a number: " + range + ", in " +
                              plain_number_rule);
}

/// Environment variable `name` read by environment_integer; nullopt where
/// it is unset or empty (what an unset variable means).
inline std::optional<long long> environment_integer(const char* name, long long lo, long long hi) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return environment_integer(name, value, lo, hi);
}

}  // namespace nqueens::detail
