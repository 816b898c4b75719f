#pragma once

// Which GPUs a GPU run counts on: by default those the node's launcher deals
// this process (gpu_node_ranks.hpp: every GPU it sees where it is alone on
// its node); else those `--devices` names, "all" of them or a list of
// indices and UUIDs, each shared as gpu_node_ranks.hpp says. Host code: the
// device (gpu_device.hpp) and the emulator (gpu_emulator.hpp) describe
// their devices alike, and the tests choose among them without a GPU.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engines/gpu/gpu_node_ranks.hpp"

namespace nqueens::detail::gpu {

/// A GPU as a backend sees it: its index among those visible, its UUID
/// ("GPU-" and 32 hex digits in dashed groups, as nvidia-smi prints it),
/// its name and its memory.
struct device_identity {
  int index = 0;
  std::string uuid;
  std::string name;
  std::uint64_t memory = 0;  ///< bytes (0: not known, as an emulated GPU's)
};

/// The most GPUs a list names, and the largest index it may give.
inline constexpr int max_listed_devices = 1024;

/// Checks a --devices value's form: empty (the launcher's deal), "all", or
/// indices and UUIDs separated by commas, none twice. Throws
/// std::invalid_argument naming the item that is neither.
void check_device_list(std::string_view value);

/// The GPUs to count on, of `visible`, for --devices `value`
/// (check_device_list's forms); a UUID matches whatever its letters' case.
/// An empty value takes what set_node_deal dealt this process, else the
/// launchers' deal (gpu_node_ranks.hpp) over the GPUs in the order of their
/// UUIDs, so that processes that see the same GPUs in other orders agree;
/// "all" lists them in that order too.
/// Throws std::invalid_argument where a listed GPU is not visible, or none is.
std::vector<dealt_device> choose_devices(std::string_view value, std::span<const device_identity> visible);

}  // namespace nqueens::detail::gpu
