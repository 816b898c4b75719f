// A test binary run by hand (not through CTest, which sets NQUEENS_GPU for
// every test: tests/CMakeLists.txt) runs the GPU engine's kernels where
// CTest would, emulated on the CPU in a build whose tests emulate them:
// without it, every test on the engine axis failed for want of a GPU, as
// if the engine under test were at fault. A NQUEENS_GPU of the caller's
// own is kept; where it is set here, CUDA_VISIBLE_DEVICES goes too, as
// CTest unsets it (a batch job's would hide the emulated node's GPUs).

#include <cstdlib>

namespace nqueens::test {
namespace {

#ifdef NQUEENS_TESTS_EMULATE_GPU
const bool emulated = [] {
  if (std::getenv("NQUEENS_GPU") != nullptr) return false;
  return ::setenv("NQUEENS_GPU", "emulate", 1) == 0 && ::unsetenv("CUDA_VISIBLE_DEVICES") == 0;
}();
#endif

}  // namespace
}  // namespace nqueens::test
