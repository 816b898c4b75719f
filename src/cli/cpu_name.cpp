#include "cli/cpu_name.hpp"

#include <array>
#include <fstream>
#include <string_view>

namespace nqueens::cli {

namespace {

// The value after "key:" on a line that starts with `key`, trimmed; empty
// where the line is another key's.
std::string value_of(const std::string& line, std::string_view key) {
  if (line.rfind(key, 0) != 0) return {};
  const std::size_t colon = line.find(':', key.size());
  if (colon == std::string::npos) return {};
  if (line.find_first_not_of(" \t", key.size()) != colon) return {};  // "model name2" is not "model name"
  const std::size_t start = line.find_first_not_of(" \t", colon + 1);
  const std::size_t end = line.find_last_not_of(" \t\r");
  if (start == std::string::npos || end < start) return {};
  return line.substr(start, end - start + 1);
}

// Arm's own cores in servers and boards (its Technical Reference Manuals'
// MIDR part numbers): Graviton 1 to 4, Ampere Altra, NVIDIA Grace, the
// Raspberry Pi 4 and 5.
struct arm_core {
  std::string_view part;
  std::string_view name;
};
constexpr std::array<arm_core, 6> arm_cores = {{
    {"0xd08", "Cortex-A72"},
    {"0xd0b", "Cortex-A76"},
    {"0xd0c", "Neoverse-N1"},
    {"0xd40", "Neoverse-V1"},
    {"0xd49", "Neoverse-N2"},
    {"0xd4f", "Neoverse-V2"},
}};

std::string arm_core_name(const std::string& implementer, const std::string& part) {
  const std::string numbers = "implementer " + implementer + ", part " + part;
  if (implementer == "0x41") {
    for (const arm_core& core : arm_cores) {
      if (core.part == part) return "Arm " + std::string(core.name) + " (" + numbers + ")";
    }
  }
  return "ARM " + numbers;
}

}  // namespace

std::string cpu_name_from(std::istream& info) {
  std::string implementer, part;
  for (std::string line; std::getline(info, line);) {
    if (std::string model = value_of(line, "model name"); !model.empty()) return model;
    if (std::string v = value_of(line, "CPU implementer"); !v.empty() && implementer.empty()) implementer = v;
    if (std::string v = value_of(line, "CPU part"); !v.empty() && part.empty()) part = v;
  }
  if (!implementer.empty() && !part.empty()) return arm_core_name(implementer, part);
  return "unknown";
}

std::string cpu_name() {
  std::ifstream info("/proc/cpuinfo");
  return cpu_name_from(info);
}

}  // namespace nqueens::cli
