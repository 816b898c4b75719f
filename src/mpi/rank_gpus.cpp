#include "mpi/rank_gpus.hpp"

#include <charconv>
#include <cstddef>
#include <optional>

namespace nqueens::mpi {
namespace {

// "5:GPU-x" then the next field: a length, a colon, that many bytes.
void put_field(std::string& text, const std::string& value) { text += std::to_string(value.size()) + ':' + value; }

std::optional<std::string> take_field(const std::string& text, std::size_t& at) {
  const std::size_t colon = text.find(':', at);
  if (colon == std::string::npos) return std::nullopt;
  std::size_t length = 0;
  const auto [end, error] = std::from_chars(text.data() + at, text.data() + colon, length);
  if (error != std::errc() || end != text.data() + colon || length > text.size() - colon - 1) return std::nullopt;
  at = colon + 1 + length;
  return text.substr(colon + 1, length);
}

std::optional<int> as_int(const std::optional<std::string>& field) {
  if (!field) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(field->data(), field->data() + field->size(), value);
  if (error != std::errc() || end != field->data() + field->size()) return std::nullopt;
  return value;
}

}  // namespace

std::string encode_gpus(const std::vector<gpu_taken>& gpus) {
  std::string text;
  for (const gpu_taken& g : gpus) {
    put_field(text, std::to_string(g.index));
    put_field(text, g.uuid);
    put_field(text, g.name);
    put_field(text, std::to_string(g.sharers));
  }
  return text;
}

std::vector<gpu_taken> decode_gpus(const std::string& text) {
  std::vector<gpu_taken> gpus;
  for (std::size_t at = 0; at < text.size();) {
    const std::optional<int> index = as_int(take_field(text, at));
    std::optional<std::string> uuid = take_field(text, at);
    std::optional<std::string> name = take_field(text, at);
    const std::optional<int> sharers = as_int(take_field(text, at));
    if (!index || !uuid || !name || !sharers) break;
    gpus.push_back({.index = *index, .uuid = std::move(*uuid), .name = std::move(*name), .sharers = *sharers});
  }
  return gpus;
}

}  // namespace nqueens::mpi
