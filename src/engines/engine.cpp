#include "nqueens/engine.hpp"

#include <stdexcept>
#include <string>

#include "engines/registry.hpp"
#include "nqueens/gpu_options.hpp"
#include "nqueens/threads.hpp"

namespace nqueens {

std::span<const engine> all_engines() noexcept { return detail::registered_engine_ids(); }

std::string_view to_string(engine e) noexcept {
  if (e == engine::automatic) return "auto";
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr ? d->name : "unknown";
}

bool is_registered(engine e) noexcept { return detail::find_definition(e) != nullptr; }

std::optional<engine> parse_engine(std::string_view name) noexcept {
  for (const detail::engine_definition* d : detail::registered_engines()) {
    if (d->name == name) return d->id;
  }
  return std::nullopt;
}

std::string_view engine_names() noexcept {
  static const std::string names = [] {
    std::string out;
    for (const detail::engine_definition* d : detail::registered_engines())
      out += (out.empty() ? "" : ", ") + std::string(d->name);
    return out;
  }();
  return names;
}

void check_runnable(engine e, int n, int threads, const gpu_options& gpu) {
  if (e == engine::automatic) {  // it never picks the GPU engine (count.hpp's choose_engine)
    if (!gpu.is_default()) {
      throw std::invalid_argument(
          "--devices and --gpu-memory choose and bound GPUs, and the automatic choice never counts on one: they "
          "apply to --engine gpu only");
    }
    return;
  }
  const detail::engine_definition& d = detail::definition_of(e);
  if (d.check_runnable != nullptr) {
    d.check_runnable(n, threads > 0 ? threads : hardware_threads(), gpu);
  } else if (!gpu.devices.empty()) {
    throw std::invalid_argument("--devices chooses GPUs, and the " + std::string(d.name) +
                                " engine counts on the CPU: it applies to --engine gpu only");
  } else if (gpu.memory != 0) {
    throw std::invalid_argument("--gpu-memory bounds what a count takes of each GPU, and the " + std::string(d.name) +
                                " engine counts on the CPU: it applies to --engine gpu only");
  }
}

std::string_view engine_summary(engine e) noexcept {
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr ? d->summary : "";
}

bool counts_unique(engine e) noexcept {
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr && d->counts_unique;
}

int engine_max_board_size(engine e) noexcept {
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr ? d->max_board_size : 0;
}

bool counts_on_gpus(engine e) noexcept {
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr && d->counts_on_gpus;
}

engine shared_plan_engine(int n) noexcept {
  // auto_candidates' first, found without its list (nothing to allocate).
  const detail::engine_definition* best = nullptr;
  for (const detail::engine_definition* d : detail::registered_engines()) {
    if (detail::auto_takes(*d, n) && (best == nullptr || d->auto_from > best->auto_from)) best = d;
  }
  return best != nullptr ? best->id : default_engine;
}

}  // namespace nqueens
