// The GPU engine's device where the build found no CUDA compiler: none is
// usable, and the message says how to get one (gpu_device.hpp).

#include <stdexcept>

#include "engines/gpu/gpu_device.hpp"

namespace nqueens::detail::gpu {

device_probe probe_device() {
  return {false,
          "this nqueens was built without CUDA (CMake found no CUDA compiler: install the CUDA toolkit "
          "and configure again)"};
}

std::unique_ptr<gpu_backend> device_backend(const half_board_tables&, int) {
  throw std::runtime_error("this nqueens was built without CUDA");
}

}  // namespace nqueens::detail::gpu
