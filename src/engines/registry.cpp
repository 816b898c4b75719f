#include "engines/registry.hpp"

#include <array>
#include <limits>
#include <string>

#include "nqueens/memory.hpp"

namespace nqueens::detail {

// Defined in each engine's folder.
extern const engine_definition symmetric_engine;
extern const engine_definition mirror_engine;
extern const engine_definition quadrant_engine;

namespace {
// The one list: help text, `--engine` choices and `auto` follow it.
const std::array<const engine_definition*, 3> engines = {&symmetric_engine, &mirror_engine, &quadrant_engine};
}  // namespace

std::span<const engine_definition* const> registered_engines() noexcept { return engines; }

const engine_definition& definition_of(engine e) noexcept {
  for (const engine_definition* d : engines) {
    if (d->id == e) return *d;
  }
  return *engines.front();  // unreachable for a registered engine
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

std::string_view to_string(engine e) noexcept { return detail::definition_of(e).name; }

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

std::string_view engine_summary(engine e) noexcept { return detail::definition_of(e).summary; }

bool counts_unique(engine e) noexcept { return detail::definition_of(e).counts_unique; }

int engine_max_board_size(engine e) noexcept { return detail::definition_of(e).max_board_size; }

engine shared_plan_engine(int n) noexcept { return fastest_engine(n, std::numeric_limits<std::uint64_t>::max()); }

engine fastest_engine(int n, std::uint64_t max_memory) noexcept {
  if (max_memory == 0) max_memory = default_memory_limit();
  const detail::engine_definition* best = nullptr;
  for (const detail::engine_definition* d : detail::engines) {
    if (d->auto_from == 0 || d->auto_from > n || n > d->max_board_size) continue;
    if (memory_estimate(n, d->id, 0, max_memory) > max_memory) continue;
    if (best == nullptr || d->auto_from > best->auto_from) best = d;
  }
  return best != nullptr ? best->id : detail::engines.front()->id;
}

}  // namespace nqueens
