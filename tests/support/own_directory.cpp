// Every test runs in a fresh directory of its own, its working directory
// while it runs, removed after it: CTest runs the tests at once and in any
// order (CI: ctest -j 8 --schedule-random), so a file a test names by a
// relative path ("j.ckpt") can never be another test's. Linked into every
// GoogleTest binary of tests/ (an object library: nothing calls it, so it
// must not sit in an archive the linker may skip).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace nqueens::test {
namespace {

class own_directory final : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo&) override {
    std::string pattern = (std::filesystem::temp_directory_path() / "nqueens-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    dir_ = pattern;
    home_ = std::filesystem::current_path();
    std::filesystem::current_path(dir_);
  }
  void OnTestEnd(const ::testing::TestInfo&) override {
    std::error_code ignored;  // a test's file still open elsewhere must not fail the next test
    std::filesystem::current_path(home_, ignored);
    std::filesystem::remove_all(dir_, ignored);
  }

 private:
  std::filesystem::path dir_, home_;
};

// Registered before main(): gtest_main then runs every test with it.
const bool registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new own_directory);
  return true;
}();

}  // namespace
}  // namespace nqueens::test
