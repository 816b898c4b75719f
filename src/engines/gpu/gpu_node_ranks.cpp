#include "engines/gpu/gpu_node_ranks.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/plain_number.hpp"

namespace nqueens::detail::gpu {

namespace {

// A launcher's variable and the number it holds.
struct launcher_value {
  const char* name;
  int value;
};

std::optional<launcher_value> launcher_rank_named() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const auto rank = environment_integer(name, 0, std::numeric_limits<int>::max())) {
      return launcher_value{name, static_cast<int>(*rank)};
    }
  }
  return std::nullopt;
}

std::optional<launcher_value> launcher_node_ranks_named() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (const auto ranks = environment_integer(name, 1, std::numeric_limits<int>::max())) {
      return launcher_value{name, static_cast<int>(*ranks)};
    }
  }
  if (const std::optional<int> tasks = slurm_step_node_tasks())
    return launcher_value{"SLURM_STEP_TASKS_PER_NODE", *tasks};
  return std::nullopt;
}

}  // namespace

std::optional<int> launcher_rank() {
  const std::optional<launcher_value> rank = launcher_rank_named();
  return rank ? std::optional<int>(rank->value) : std::nullopt;
}

std::optional<int> slurm_step_node_tasks() {
  const char* value = std::getenv("SLURM_STEP_TASKS_PER_NODE");
  if (value == nullptr || *value == '\0') return std::nullopt;
  // -1: not said (the most on any node then).
  const long long node = environment_integer("SLURM_NODEID", 0, std::numeric_limits<int>::max()).value_or(-1);
  const auto malformed = [value] {
    return std::invalid_argument("SLURM_STEP_TASKS_PER_NODE='" + shown_value(value) +
                                 "' is not a Slurm list of tasks per node, such as 2(x3),1");
  };
  std::string_view rest = value;
  int most = 0;
  std::optional<int> here;
  long long first_node = 0;  // the step's index of the item's first node
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (comma != std::string_view::npos && rest.empty()) throw malformed();  // "2,": a list cut short
    long long nodes = 1;
    if (const std::size_t times = item.find("(x"); times != std::string_view::npos && item.ends_with(')')) {
      const auto repeat =
          plain_integer(item.substr(times + 2, item.size() - times - 3), 1, std::numeric_limits<int>::max());
      if (!repeat) throw malformed();
      nodes = *repeat;
      item = item.substr(0, times);
    }
    const std::optional<long long> tasks = plain_integer(item, 1, std::numeric_limits<int>::max());
    if (!tasks) throw malformed();
    most = std::max(most, static_cast<int>(*tasks));
    if (node >= first_node && node < first_node + nodes) here = static_cast<int>(*tasks);
    first_node += nodes;
  }
  return here ? here : std::optional<int>(most);
}

std::optional<int> launcher_node_ranks() {
  const std::optional<launcher_value> ranks = launcher_node_ranks_named();
  return ranks ? std::optional<int>(ranks->value) : std::nullopt;
}

std::optional<node_deal>& node_deal_set() {
  static std::optional<node_deal> deal;
  return deal;
}

void set_node_deal(std::optional<node_deal> deal) { node_deal_set() = std::move(deal); }

std::optional<int> node_rank() { return node_deal_set() ? node_deal_set()->rank : launcher_rank(); }

std::optional<int> asked_sharers() {
  if (const auto asked = environment_integer("NQUEENS_GPU_SHARERS", 1, max_gpu_sharers)) {
    return static_cast<int>(*asked);
  }
  return std::nullopt;
}

std::vector<dealt_device> deal_devices(int visible, std::optional<int> rank, std::optional<int> ranks) {
  std::vector<dealt_device> out;
  if (!rank || !ranks) {
    for (int d = 0; d < visible; ++d) out.push_back({d, 1});
    return out;
  }
  const int r = *rank % *ranks, n = *ranks;
  if (n <= visible) {
    for (int d = r; d < visible; d += n) out.push_back({d, 1});
    return out;
  }
  const int device = r % visible;
  return {{device, n / visible + (device < n % visible ? 1 : 0)}};
}

std::vector<dealt_device> node_devices(int visible) {
  const std::optional<int> sharers = asked_sharers();
  const bool alone = sharers == 1;
  std::optional<int> rank, ranks;
  if (!alone) {
    const std::optional<launcher_value> named_rank = launcher_rank_named(), named_ranks = launcher_node_ranks_named();
    // A place past the node's ranks is no launcher's: dealt modulo them, it
    // would take another rank's GPUs as if its own.
    if (named_rank && named_ranks && named_rank->value >= named_ranks->value) {
      throw std::invalid_argument(std::string(named_rank->name) + "=" + std::to_string(named_rank->value) +
                                  " is not a rank of the " + std::to_string(named_ranks->value) + " on this node (" +
                                  named_ranks->name + "): expected 0 to " + std::to_string(named_ranks->value - 1));
    }
    if (named_rank) rank = named_rank->value;
    if (named_ranks) ranks = named_ranks->value;
  }
  std::vector<dealt_device> out = deal_devices(visible, rank, ranks);
  if (sharers) {
    for (dealt_device& d : out) d.sharers = *sharers;
  }
  return out;
}

int listed_device_sharers() {
  if (const std::optional<int> sharers = asked_sharers()) return *sharers;
  return std::min(launcher_node_ranks().value_or(1), max_gpu_sharers);
}

}  // namespace nqueens::detail::gpu
