#include "cli/help_text.hpp"

#include <vector>

namespace nqueens::cli {

namespace {

// `words` wrapped at `width`, the first line after `first` and every other
// after `indent` spaces.
std::string wrapped(std::string_view words, const std::string& first, std::size_t indent, std::size_t width) {
  std::string text, line = first;
  bool line_has_word = false;
  for (std::size_t at = 0; at < words.size();) {
    const std::size_t start = words.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    std::size_t end = words.find(' ', start);
    if (end == std::string_view::npos) end = words.size();
    const std::string_view word = words.substr(start, end - start);
    if (line_has_word && line.size() + 1 + word.size() > width) {
      text += line + '\n';
      line = std::string(indent, ' ');
      line_has_word = false;
    }
    if (line_has_word) line += ' ';
    line += word;
    line_has_word = true;
    at = end;
  }
  return text + line + '\n';
}

// Where an indented line's description starts: past the first run of two
// or more spaces after its first word ("  symmetric   one member..."), else
// at its own indentation.
std::size_t description_column(std::string_view line) {
  const std::size_t word = line.find_first_not_of(' ');
  if (word == std::string_view::npos) return 0;
  const std::size_t gap = line.find("  ", word);
  if (gap == std::string_view::npos) return word;
  const std::size_t description = line.find_first_not_of(' ', gap);
  return description == std::string_view::npos ? word : description;
}

}  // namespace

std::string fit_help_text(std::string_view text, std::size_t width) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    lines.push_back(line);
    at = end + 1;
  }
  const auto in_paragraph = [](std::string_view line) {
    return !line.empty() && line.front() != ' ' && line.back() != ':';
  };
  // The exit statuses are a paragraph of their own, wherever they follow.
  const auto starts_paragraph = [](std::string_view line) { return line.starts_with("Exit status"); };
  std::string out;
  for (std::size_t k = 0; k < lines.size();) {
    if (in_paragraph(lines[k])) {
      std::string paragraph(lines[k++]);
      while (k < lines.size() && in_paragraph(lines[k]) && !starts_paragraph(lines[k])) {
        paragraph += ' ' + std::string(lines[k++]);
      }
      out += wrapped(paragraph, "", 0, width);
      continue;
    }
    const std::string_view line = lines[k++];
    if (line.size() <= width) {
      out += std::string(line) + '\n';
      continue;
    }
    const std::size_t column = description_column(line);
    out += wrapped(line.substr(column), std::string(line.substr(0, column)), column, width);
  }
  // The text's own last newline, where it had one, and no other.
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace nqueens::cli
