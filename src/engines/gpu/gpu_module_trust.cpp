// The check that a GPU module may be loaded (gpu_module_trust.hpp).

#include "engines/gpu/gpu_module_trust.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace nqueens::detail::gpu {

namespace {

std::string octal_mode(::mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

}  // namespace

std::string module_distrust(const std::filesystem::path& module, std::span<const ::uid_t> trusted_owners,
                            const path_status_lookup& lookup) {
  // Outermost first: a directory others control is the cause for every
  // path below it.
  std::vector<std::filesystem::path> chain;
  for (std::filesystem::path p = module;; p = p.parent_path()) {
    chain.push_back(p);
    if (!p.has_relative_path()) break;
  }
  std::reverse(chain.begin(), chain.end());
  for (const std::filesystem::path& p : chain) {
    std::string error;
    const std::optional<path_status> status = lookup(p, error);
    if (!status) return p.string() + " cannot be examined: " + error;
    const bool trusted_owner = status->owner == 0 || std::find(trusted_owners.begin(), trusted_owners.end(),
                                                               status->owner) != trusted_owners.end();
    if (!trusted_owner) {
      return p.string() + " belongs to user " + std::to_string(status->owner) +
             ", neither root, you nor the owner of this program";
    }
    const bool sticky_directory = S_ISDIR(status->mode) && (status->mode & S_ISVTX) != 0;
    if ((status->mode & S_IWOTH) != 0 && !sticky_directory) {
      return p.string() + " is writable by every user (mode " + octal_mode(status->mode) + ")";
    }
  }
  return {};
}

module_trust check_module_place(const std::filesystem::path& place) {
  std::error_code error;
  std::filesystem::path resolved = std::filesystem::canonical(place, error);
  if (error) return {place, "cannot be resolved to a file: " + error.message(), {}};
  if (struct stat file{}; ::stat(resolved.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) {
    return {resolved, "is not a regular file", {}};
  }
  std::vector<::uid_t> owners{::geteuid()};
  if (struct stat program{}; ::stat("/proc/self/exe", &program) == 0) owners.push_back(program.st_uid);
  // lstat: a path swapped for a symbolic link since it was resolved shows
  // as a link, writable by all, and is refused.
  const path_status_lookup lookup = [](const std::filesystem::path& p, std::string& why) -> std::optional<path_status> {
    struct stat status {};
    if (::lstat(p.c_str(), &status) != 0) {
      why = std::strerror(errno);
      return std::nullopt;
    }
    return path_status{status.st_mode, status.st_uid};
  };
  std::string refusal = module_distrust(resolved, owners, lookup);
  return {std::move(resolved), {}, std::move(refusal)};
}

}  // namespace nqueens::detail::gpu
