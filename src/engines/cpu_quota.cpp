#include "engines/cpu_quota.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace nqueens::detail {
namespace {

// The first line of `file`, or empty where it cannot be read.
std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// A positive whole number of microseconds, or nullopt: "max", "-1", an
// empty or damaged file all mean no quota here.
std::optional<double> positive(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18) {
    return std::nullopt;
  }
  const double value = std::stod(text);
  return value > 0 ? std::optional<double>(value) : std::nullopt;
}

// `base` / `path` and each of its ancestors up to `base`, the cgroup first:
// a quota anywhere above a cgroup bounds it too.
std::vector<std::filesystem::path> cgroup_and_ancestors(const std::filesystem::path& base, const std::string& path) {
  std::vector<std::filesystem::path> dirs{base};
  std::filesystem::path dir = base;
  for (const auto& part : std::filesystem::path(path).relative_path()) {
    if (part.empty() || part == "." || part == "..") continue;  // never above base
    dir /= part;
    dirs.push_back(dir);
  }
  return {dirs.rbegin(), dirs.rend()};
}

// Whether the comma-separated `controllers` of a v1 hierarchy hold "cpu".
bool has_cpu_controller(const std::string& controllers) {
  std::istringstream list(controllers);
  for (std::string c; std::getline(list, c, ',');) {
    if (c == "cpu") return true;
  }
  return false;
}

}  // namespace

std::optional<double> cpu_quota_in(const std::filesystem::path& root, const std::filesystem::path& self_cgroup) {
  std::optional<double> tightest;
  const auto consider = [&tightest](std::optional<double> quota, std::optional<double> period) {
    if (!quota || !period) return;
    const double cpus = *quota / *period;
    if (!tightest || cpus < *tightest) tightest = cpus;
  };
  try {
    std::ifstream lines(self_cgroup);
    for (std::string line; std::getline(lines, line);) {
      // "hierarchy:controllers:path"; cgroup v2's is "0::path".
      const std::size_t first = line.find(':'), second = line.find(':', first + 1);
      if (first == std::string::npos || second == std::string::npos) continue;
      const std::string controllers = line.substr(first + 1, second - first - 1);
      const std::string path = line.substr(second + 1);
      if (controllers.empty()) {
        for (const auto& dir : cgroup_and_ancestors(root, path)) {
          std::istringstream max(first_line(dir / "cpu.max"));  // "150000 100000" or "max 100000"
          std::string quota, period;
          max >> quota >> period;
          consider(positive(quota), positive(period));
        }
      } else if (has_cpu_controller(controllers)) {
        // Mounted under its controllers' names ("cpu,cpuacct"), often with
        // a "cpu" link beside it.
        std::filesystem::path base = root / controllers;
        if (!std::filesystem::is_directory(base)) base = root / "cpu";
        for (const auto& dir : cgroup_and_ancestors(base, path)) {
          consider(positive(first_line(dir / "cpu.cfs_quota_us")), positive(first_line(dir / "cpu.cfs_period_us")));
        }
      }
    }
  } catch (...) {  // an allocation, or a filesystem error: as if no quota were known
    return std::nullopt;
  }
  return tightest;
}

}  // namespace nqueens::detail
