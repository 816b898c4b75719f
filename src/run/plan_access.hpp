#pragma once

// The library's view into a plan, which users do not get: the engine's own
// plan (what each index holds) and the rotation search's tasks.

#include <memory>
#include <utility>
#include <vector>

#include "nqueens/plan.hpp"

namespace nqueens::detail {

struct plan_access {
  /// The engine's plan; null for a rotational plan.
  static const engine_plan* engine(const plan& p) noexcept { return p.impl_.get(); }
  static std::shared_ptr<const engine_plan> shared_engine(const plan& p) noexcept { return p.impl_; }
  /// The plan of `options` around `built`, the engine plan make_plan gave for
  /// them (null for a rotational plan): its fingerprint computed here.
  static plan around(int n, const plan_options& options, std::shared_ptr<const engine_plan> built) {
    return plan(n, options, std::move(built));
  }
  /// The rotation-symmetric search's subproblems, after the engine's.
  static std::shared_ptr<const std::vector<rotation_task>> rotation(const plan& p) noexcept { return p.rotation_; }
};

}  // namespace nqueens::detail
