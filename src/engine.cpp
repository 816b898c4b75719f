#include "nqueens/engine.hpp"

namespace nqueens {

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

}  // namespace nqueens
