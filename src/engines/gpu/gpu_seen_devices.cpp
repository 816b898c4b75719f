#include "engines/gpu/gpu_seen_devices.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engines/gpu/gpu_device_loader.hpp"
#include "engines/gpu/gpu_emulator.hpp"
#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

int emulated_devices() {
  const char* asked = std::getenv("NQUEENS_GPU");
  const std::string_view value = asked == nullptr ? "" : asked;
  if (value.empty() || value == "device") return 0;
  if (value == "emulate") return 1;
  if (value.starts_with("emulate:")) {
    if (const auto devices = plain_integer(value.substr(8), 1, max_emulated_devices)) {
      return static_cast<int>(*devices);
    }
  }
  throw std::invalid_argument("NQUEENS_GPU='" + std::string(value) +
                              "' names no GPU backend: expected device, emulate, or emulate:N (N from 1 to " +
                              std::to_string(max_emulated_devices) + ")");
}

std::vector<device_identity> seen_devices() {
  const int emulated = emulated_devices();
  return emulated > 0 ? emulated_node(emulated) : visible_devices();
}

}  // namespace nqueens::detail::gpu
