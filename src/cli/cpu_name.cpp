#include "cli/cpu_name.hpp"

#include <fstream>

namespace nqueens::cli {

std::string cpu_name() {
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    const std::size_t end = line.find_last_not_of(" \t\r");
    if (start == std::string::npos || end < start) break;
    return line.substr(start, end - start + 1);
  }
  return "unknown";
}

}  // namespace nqueens::cli
