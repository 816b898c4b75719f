#pragma once

// The one list of engines (registry.cpp), which the public queries of
// nqueens/engine.hpp (engine.cpp) read. Adding an engine: a folder
// src/engines/<name>/ defining an engine_definition with its own number, and
// one line in registry.cpp's list; the build picks up the folder's sources
// and the tests' engine axis covers it.

#include <span>
#include <vector>

#include "engines/engine_definition.hpp"

namespace nqueens::detail {

/// Every engine, in the order help text lists them.
std::span<const engine_definition* const> registered_engines() noexcept;

/// Every engine's number, in the same order.
std::span<const engine> registered_engine_ids() noexcept;

/// Whether `--engine auto` may pick `d` for n (auto_candidates' test).
bool auto_takes(const engine_definition& d, int n) noexcept;

/// The definition of engine number `e`, or null when no engine has it.
const engine_definition* find_definition(engine e) noexcept;

/// The definition of `e`; throws std::invalid_argument when no engine has it.
const engine_definition& definition_of(engine e);

/// Throws std::invalid_argument ("the E engine handles n up to N") when
/// `engine` takes no board of size n.
void require_board_taken(const engine_definition& engine, int n);

/// The engines `--engine auto` may pick for n, fastest first (the largest
/// auto_from first; the list's order among equals): the shared plan takes
/// the first, a count the first whose memory fits.
std::vector<const engine_definition*> auto_candidates(int n);

}  // namespace nqueens::detail
