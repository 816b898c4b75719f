#include "nqueens/engine.hpp"

#include <array>

#include "nqueens/memory.hpp"

namespace nqueens {

namespace {
constexpr std::array<engine, 3> engines = {engine::symmetric, engine::mirror, engine::quadrant};
}

std::span<const engine> all_engines() noexcept { return engines; }

std::string_view to_string(engine e) noexcept {
  switch (e) {
    case engine::symmetric:
      return "symmetric";
    case engine::mirror:
      return "mirror";
    case engine::quadrant:
      break;
  }
  return "quadrant";
}

std::optional<engine> parse_engine(std::string_view name) noexcept {
  if (name == "symmetric") return engine::symmetric;
  if (name == "mirror") return engine::mirror;
  if (name == "quadrant") return engine::quadrant;
  return std::nullopt;
}

std::string_view engine_names() noexcept { return "symmetric, mirror, quadrant"; }

std::string_view engine_summary(engine e) noexcept { return to_string(e); }

bool counts_unique(engine e) noexcept { return e == engine::symmetric; }

int engine_max_board_size(engine e) noexcept { return e == engine::quadrant ? 24 : 32; }

engine fastest_engine(int n, std::uint64_t max_memory) noexcept {
  if (max_memory == 0) max_memory = default_memory_limit();
  const bool quadrant_wins = n >= 16 && n <= 24;
  return quadrant_wins && memory_estimate(n, engine::quadrant) <= max_memory ? engine::quadrant : engine::symmetric;
}

}  // namespace nqueens
