#include "engines/registry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

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
#undef NQUEENS_REGISTERED_ENGINES  // a unity build's next files have no use for it
}  // namespace

std::span<const engine_definition* const> registered_engines() noexcept { return engines; }

std::span<const engine> registered_engine_ids() noexcept {
  static const auto ids = [] {
    std::array<engine, engines.size()> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = engines[i]->id;
    return out;
  }();
  return ids;
}

bool auto_takes(const engine_definition& d, int n) noexcept {
  return d.auto_from != 0 && d.auto_from <= n && n <= d.max_board_size;
}

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
  if (e == engine::automatic) {
    throw std::invalid_argument("engine auto is a choice count() makes (choose_engine() says which): name one of " +
                                std::string(engine_names()) + " here");
  }
  throw std::invalid_argument("no engine has number " + std::to_string(static_cast<int>(e)) +
                              " (engines: " + std::string(engine_names()) + ")");
}

std::vector<const engine_definition*> auto_candidates(int n) {
  std::vector<const engine_definition*> candidates;
  for (const engine_definition* d : engines) {
    if (auto_takes(*d, n)) candidates.push_back(d);
  }
  std::ranges::stable_sort(candidates, std::ranges::greater{}, &engine_definition::auto_from);
  return candidates;
}

}  // namespace nqueens::detail
