#pragma once

// The one list of engines (registry.cpp). Adding an engine: a folder
// src/engines/<name>/ defining an engine_definition, a value in the public
// enum (include/nqueens/engine.hpp), and one line in registry.cpp; the tests'
// engine axis then covers it.

#include <span>

#include "engines/engine.hpp"

namespace nqueens::detail {

/// Every engine, in the order help text lists them.
std::span<const engine_definition* const> registered_engines() noexcept;

/// The definition of `e`. Precondition: `e` is registered.
const engine_definition& definition_of(engine e) noexcept;

}  // namespace nqueens::detail
