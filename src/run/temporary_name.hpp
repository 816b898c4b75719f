#pragma once

// The hidden name a file is written under before it takes its own (a new
// journal, scale's --csv): ".NAME.XXXXXX" beside the target, the X's for
// mkstemp or a caller to fill.

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>

namespace nqueens::detail {

/// ".NAME.XXXXXX" in `target`'s directory, NAME shortened where the whole
/// would pass a file system's longest name (255 bytes): a name the user may
/// give must not fail only once the work is done.
inline std::string temporary_name_for(const std::filesystem::path& target) {
  constexpr std::size_t longest_name = 255;
  constexpr std::string_view suffix = ".XXXXXX";
  std::string hidden = target.filename().string();
  hidden.resize(std::min(hidden.size(), longest_name - suffix.size() - 1));
  hidden.insert(0, 1, '.');
  hidden.append(suffix);
  return (target.parent_path() / hidden).string();
}

}  // namespace nqueens::detail
