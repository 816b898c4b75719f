#include "engines/gpu/gpu_device_choice.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <utility>

#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

namespace {

// The items of a list, split at commas (empty ones kept, to be refused).
std::vector<std::string_view> items_of(std::string_view value) {
  std::vector<std::string_view> items;
  for (;;) {
    const std::size_t comma = value.find(',');
    items.push_back(value.substr(0, comma));
    if (comma == std::string_view::npos) return items;
    value.remove_prefix(comma + 1);
  }
}

// An index by plain_number_rule, below max_listed_devices.
std::optional<int> index_of(std::string_view item) {
  const std::optional<long long> index = plain_integer(item, 0, max_listed_devices - 1);
  return index ? std::optional<int>(static_cast<int>(*index)) : std::nullopt;
}

// "GPU-", then hex digits and dashes: a GPU's UUID as nvidia-smi writes it
// (the digits' grouping is its to choose). MIG instances are not GPUs
// here: CUDA_VISIBLE_DEVICES chooses them.
bool is_uuid(std::string_view item) {
  if (item.size() < 5 || !item.starts_with("GPU-")) return false;
  return std::ranges::all_of(item.substr(4),
                             [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == '-'; });
}

// How a message names the GPU an item gives: "GPU 3", or its UUID alone
// (which says "GPU-" itself).
std::string gpu_named(std::string_view item) { return is_uuid(item) ? std::string(item) : "GPU " + std::string(item); }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void check_device_list(std::string_view value) {
  if (value.empty() || value == "all") return;
  const std::vector<std::string_view> items = items_of(value);
  if (items.size() > static_cast<std::size_t>(max_listed_devices)) {
    throw std::invalid_argument("--devices names " + std::to_string(items.size()) + " GPUs: at most " +
                                std::to_string(max_listed_devices));
  }
  std::vector<std::string> keys;
  for (const std::string_view item : items) {
    if (!index_of(item) && !is_uuid(item)) {
      throw std::invalid_argument("--devices item '" + std::string(item) +
                                  "' is no GPU: expected all, or GPU indices (0 to " +
                                  std::to_string(max_listed_devices - 1) + ") and UUIDs (GPU-...) separated by commas");
    }
    std::string key = lower(item);
    if (std::ranges::find(keys, key) != keys.end()) {
      throw std::invalid_argument("--devices names " + gpu_named(item) + " twice");
    }
    keys.push_back(std::move(key));
  }
}

std::vector<dealt_device> choose_devices(std::string_view value, std::span<const device_identity> visible) {
  check_device_list(value);
  if (visible.empty()) throw std::invalid_argument("no GPU is visible");
  const int count = static_cast<int>(visible.size());
  const std::optional<node_deal>& deal = node_deal_set();
  // The visible GPUs in the order of their UUIDs, the same for every
  // process that sees them, whatever order its CUDA_VISIBLE_DEVICES gives:
  // processes that see them rotated would otherwise deal the same GPU.
  std::vector<std::size_t> by_uuid(visible.size());
  for (std::size_t d = 0; d < visible.size(); ++d) by_uuid[d] = d;
  std::ranges::sort(by_uuid, {}, [&](std::size_t d) { return lower(visible[d].uuid); });
  const auto visible_uuid = [&](const std::string& uuid) {
    const auto found =
        std::ranges::find_if(visible, [&](const device_identity& d) { return lower(d.uuid) == lower(uuid); });
    if (found == visible.end()) throw std::invalid_argument(uuid + ", dealt to this process, is not visible");
    return found->index;
  };
  const std::optional<int> asked = asked_sharers();
  if (value.empty()) {
    if (deal) {
      std::vector<dealt_device> taken;
      for (const uuid_share& g : deal->taken) taken.push_back({visible_uuid(g.uuid), asked.value_or(g.sharers)});
      return taken;
    }
    std::vector<dealt_device> dealt = node_devices(count);
    for (dealt_device& d : dealt) d.index = visible[by_uuid[static_cast<std::size_t>(d.index)]].index;
    return dealt;
  }
  // A GPU a list names may be named to every process that sees it.
  const auto sharers_of = [&](int index) {
    if (asked || !deal) return listed_device_sharers();
    const std::string uuid = lower(visible[static_cast<std::size_t>(index)].uuid);
    const auto seen = std::ranges::find_if(deal->seen, [&](const uuid_share& g) { return lower(g.uuid) == uuid; });
    return seen == deal->seen.end() ? 1 : seen->sharers;
  };
  std::vector<dealt_device> out;
  if (value == "all") {
    for (const std::size_t d : by_uuid) out.push_back({visible[d].index, sharers_of(visible[d].index)});
    return out;
  }
  for (const std::string_view item : items_of(value)) {
    int index = index_of(item).value_or(-1);
    if (index >= 0) {
      if (index >= count) {
        throw std::invalid_argument("--devices names GPU " + std::string(item) + ", but " + std::to_string(count) +
                                    (count == 1 ? " GPU is" : " GPUs are") + " visible (0 to " +
                                    std::to_string(count - 1) + ")");
      }
    } else {
      const std::string uuid = lower(item);
      const auto found = std::ranges::find_if(visible, [&](const device_identity& d) { return lower(d.uuid) == uuid; });
      if (found == visible.end()) {
        throw std::invalid_argument("--devices names " + gpu_named(item) + ", which is not visible (" +
                                    std::to_string(count) + (count == 1 ? " GPU is" : " GPUs are") +
                                    ": nvidia-smi -L lists their UUIDs)");
      }
      index = found->index;
    }
    if (std::ranges::find(out, index, &dealt_device::index) != out.end()) {
      throw std::invalid_argument("--devices names GPU " + std::to_string(index) + " twice (by index and UUID)");
    }
    out.push_back({index, sharers_of(index)});
  }
  return out;
}

}  // namespace nqueens::detail::gpu
