#include "cli/nearest_word.hpp"

#include <algorithm>
#include <vector>

namespace nqueens::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string nearest_word(std::span<const std::string> words, std::string_view given) {
  if (given.empty()) return {};
  std::string best, prefixed;
  std::size_t best_distance = std::max<std::size_t>(1, given.size() / 3) + 1, prefixes = 0;
  for (const std::string& word : words) {
    if (given.size() >= 3 && word.starts_with(given)) {
      ++prefixes;
      prefixed = word;
    }
    const std::size_t distance = edit_distance(given, word);
    if (distance < best_distance) {
      best_distance = distance;
      best = word;
    }
  }
  if (best.empty() && prefixes == 1) best = prefixed;
  return best;
}

}  // namespace nqueens::cli
