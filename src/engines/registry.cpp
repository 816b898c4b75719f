#include "engines/registry.hpp"

#include <tbb/info.h>

#include <array>
#include <stdexcept>
#include <string>

namespace nqueens::detail {

// The one list: help text, `--engine` choices and `auto` follow it. One line
// per engine, naming the engine_definition its folder defines.
#define NQUEENS_REGISTERED_ENGINES(ENGINE) \
  ENGINE(symmetric_engine)                 \
  ENGINE(mirror_engine)                    \
  ENGINE(quadrant_engine)                  \
  ENGINE(gpu_engine)

#define NQUEENS_DECLARE_ENGINE(definition) extern const engine_definition definition;
NQUEENS_REGISTERED_ENGINES(NQUEENS_DECLARE_ENGINE)
#undef NQUEENS_DECLARE_ENGINE

namespace {
#define NQUEENS_ENGINE_ADDRESS(definition) &(definition),
const std::array engines = {NQUEENS_REGISTERED_ENGINES(NQUEENS_ENGINE_ADDRESS)};
#undef NQUEENS_ENGINE_ADDRESS
}  // namespace

std::span<const engine_definition* const> registered_engines() noexcept { return engines; }

const engine_definition* find_definition(engine e) noexcept {
  for (const engine_definition* d : engines) {
    if (d->id == e) return d;
  }
  return nullptr;
}

void require_board_taken(const engine_definition& engine, int n) {
  if (n > engine.max_board_size) {
    throw std::invalid_argument("the " + std::string(engine.name) + " engine handles n up to " +
                                std::to_string(engine.max_board_size));
  }
}

const engine_definition& definition_of(engine e) {
  if (const engine_definition* d = find_definition(e)) return *d;
  throw std::invalid_argument("no engine has number " + std::to_string(static_cast<int>(e)) +
                              " (engines: " + std::string(engine_names()) + ")");
}

}  // namespace nqueens::detail

namespace nqueens {

std::span<const engine> all_engines() noexcept {
  static const auto ids = [] {
    std::array<engine, detail::engines.size()> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = detail::engines[i]->id;
    return out;
  }();
  return ids;
}

std::string_view to_string(engine e) noexcept {
  const detail::engine_definition* d = detail::find_definition(e);
  return d != nullptr ? d->name : "unknown";
}

bool is_registered(engine e) noexcept { return detail::find_definition(e) != nullptr; }

std::optional<engine> parse_engine(std::string_view name) noexcept {
  for (const detail::engine_definition* d : detail::engines) {
    if (d->name == name) return d->id;
  }
  return std::nullopt;
}

std::string_view engine_names() noexcept {
  static const std::string names = [] {
    std::string out;
    for (const detail::engine_definition* d : detail::engines) out += (out.empty() ? "" : ", ") + std::string(d->name);
    return out;
  }();
  return names;
}

void check_runnable(engine e, int n, int threads, const gpu_options& gpu) {
  const detail::engine_definition& d = detail::definition_of(e);
  if (d.check_runnable != nullptr) {
    d.check_runnable(n, threads > 0 ? threads : tbb::info::default_concurrency(), gpu);
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

engine shared_plan_engine(int n) noexcept {
  const detail::engine_definition* best = nullptr;
  for (const detail::engine_definition* d : detail::engines) {
    if (d->auto_from == 0 || d->auto_from > n || n > d->max_board_size) continue;
    if (best == nullptr || d->auto_from > best->auto_from) best = d;
  }
  return best != nullptr ? best->id : default_engine;
}

}  // namespace nqueens
