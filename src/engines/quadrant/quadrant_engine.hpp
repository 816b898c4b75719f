#pragma once

// The quadrant engine's plan (quadrant_engine.cpp): one task per class of
// north column sets (with the middle queen for odd n, in slices where the
// memory bound asks), registered as `quadrant_engine` in the registry. The
// calls below open its tasks to the tests and the benchmarks, which run
// them one by one; the engine itself goes through engine_definition.

#include <cstddef>

#include "engines/join_model/class_slicing.hpp"
#include "engines/join_model/quadrant_task.hpp"

namespace nqueens::detail {

class engine_plan;

/// Task `index` of a quadrant plan. Precondition: `p` is the quadrant
/// engine's plan and index < p.size().
quadrant_task quadrant_task_of(const engine_plan& p, std::size_t index);
/// How a quadrant plan slices its classes. Precondition: as quadrant_task_of.
const class_slicing& quadrant_slicing_of(const engine_plan& p);

}  // namespace nqueens::detail
