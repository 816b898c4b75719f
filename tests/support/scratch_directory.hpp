#pragma once

// A directory of a test's own under the temporary directory, its path with
// links resolved (as the GPU module's checks see it), removed at the end.

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace nqueens::test {

class scratch_directory {
 public:
  explicit scratch_directory(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("nqueens-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directory(path_);
    path_ = std::filesystem::canonical(path_);
  }
  ~scratch_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  scratch_directory(const scratch_directory&) = delete;
  scratch_directory& operator=(const scratch_directory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace nqueens::test
