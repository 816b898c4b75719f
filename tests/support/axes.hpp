#pragma once

// The test suite's axes: every registered engine and every instruction set,
// so that a new engine or kernel is tested by being registered.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nqueens/engine.hpp"
#include "nqueens/isa.hpp"

namespace nqueens::testing {

/// Every instruction set the build has kernels for (the library's one
/// list); a test skips (with a message) those this CPU lacks.
inline std::vector<isa> all_isas() {
  const auto isas = nqueens::all_isas();
  return {isas.begin(), isas.end()};
}

/// Every registered engine.
inline std::vector<engine> registered_engines() {
  const auto engines = all_engines();
  return {engines.begin(), engines.end()};
}

inline std::string name_of(isa kernels) { return std::string(to_string(kernels)); }
inline std::string name_of(engine e) { return std::string(to_string(e)); }

}  // namespace nqueens::testing

/// Skips the current test for the GPU engine with any instruction set but
/// the portable one: its kernels are the same whichever set the CPU runs
/// (only the plan's rotation tasks use one, which every other engine's
/// tests cover on each set), and emulated they are the suite's slowest.
#define NQUEENS_SKIP_GPU_UNLESS_PORTABLE(kind, kernels)                                               \
  do {                                                                                                \
    if ((kind) == ::nqueens::engine::gpu && (kernels) != ::nqueens::isa::portable) {                  \
      GTEST_SKIP() << "the GPU engine's kernels do not depend on the instruction set: portable only"; \
    }                                                                                                 \
  } while (false)

/// Skips the current test when this CPU cannot run `kernels`.
#define NQUEENS_SKIP_UNLESS_SUPPORTED(kernels)                                                   \
  do {                                                                                           \
    if (!::nqueens::cpu_supports(kernels)) {                                                     \
      GTEST_SKIP() << "this CPU lacks the " << ::nqueens::to_string(kernels) << " instructions"; \
    }                                                                                            \
  } while (false)
