#pragma once

/// \file
/// Umbrella header: the whole public API.

#include "nqueens/board.hpp"             // IWYU pragma: export
#include "nqueens/cancelled.hpp"         // IWYU pragma: export
#include "nqueens/check.hpp"             // IWYU pragma: export
#include "nqueens/checkpoint.hpp"        // IWYU pragma: export
#include "nqueens/count.hpp"             // IWYU pragma: export
#include "nqueens/count_types.hpp"       // IWYU pragma: export
#include "nqueens/device_work.hpp"       // IWYU pragma: export
#include "nqueens/engine.hpp"            // IWYU pragma: export
#include "nqueens/enumerate.hpp"         // IWYU pragma: export
#include "nqueens/estimate.hpp"          // IWYU pragma: export
#include "nqueens/execute.hpp"           // IWYU pragma: export
#include "nqueens/first.hpp"             // IWYU pragma: export
#include "nqueens/gpu_options.hpp"       // IWYU pragma: export
#include "nqueens/isa.hpp"               // IWYU pragma: export
#include "nqueens/known_counts.hpp"      // IWYU pragma: export
#include "nqueens/memory.hpp"            // IWYU pragma: export
#include "nqueens/memory_limit.hpp"      // IWYU pragma: export
#include "nqueens/merge.hpp"             // IWYU pragma: export
#include "nqueens/plan.hpp"              // IWYU pragma: export
#include "nqueens/progress.hpp"          // IWYU pragma: export
#include "nqueens/reduce.hpp"            // IWYU pragma: export
#include "nqueens/scaling.hpp"           // IWYU pragma: export
#include "nqueens/shard.hpp"             // IWYU pragma: export
#include "nqueens/subproblem_count.hpp"  // IWYU pragma: export
#include "nqueens/threads.hpp"           // IWYU pragma: export
#include "nqueens/verify.hpp"            // IWYU pragma: export
#include "nqueens/version.hpp"           // IWYU pragma: export
