#include "nqueens/plan.hpp"

#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "engines/fingerprint.hpp"
#include "engines/registry.hpp"
#include "engines/rotation/rotation_plan.hpp"
#include "nqueens/cancelled.hpp"

namespace nqueens {

namespace {
// Bumped whenever the meaning of an index could change for the same options.
constexpr std::string_view plan_format = "nqueens-plan/4";
}  // namespace

plan::plan(int n, const plan_options& options) : plan(n, options, nullptr) {}

plan::plan(int n, const plan_options& options, std::shared_ptr<const detail::engine_plan> built)
    : n_(n), kind_(options.kind), scope_(options.scope) {
  const detail::engine_definition& engine = detail::definition_of(options.kind);
  require_valid_board_size(n);
  if (scope_ != plan_scope::all && scope_ != plan_scope::rotational) {
    throw std::invalid_argument("plan scope " + std::to_string(static_cast<int>(scope_)) +
                                " is none: expected all or rotational");
  }
  if (scope_ == plan_scope::all) detail::require_board_taken(engine, n);
  if (options.split_depth < 0 || options.split_depth > max_split_depth) {
    throw std::invalid_argument("split depth " + std::to_string(options.split_depth) +
                                " is out of range: expected 0 (automatic) to " + std::to_string(max_split_depth));
  }
  detail::fnv1a hash;
  hash.add_text(plan_format);
  hash.add_u64(static_cast<std::uint64_t>(n));
  if (scope_ == plan_scope::all) {
    if (built != nullptr) {
      impl_ = std::move(built);
    } else {
      const std::size_t target = options.target_subproblems != 0 ? options.target_subproblems : automatic_target(n);
      detail::throw_if_cancelled(options.cancel);
      impl_ = engine.make_plan(n, options.split_depth, target, options.max_memory, options.cancel);
    }
    engine_size_ = impl_->size();
    hash.add_text(engine.name);
    hash.add_u64(static_cast<std::uint64_t>(impl_->split_depth()));
    hash.add_u64(impl_->size());
    impl_->add_to_fingerprint(hash, options.cancel);
  } else {
    hash.add_text("rotational");
  }
  rotation_ = std::make_shared<const std::vector<detail::rotation_task>>(detail::rotation_tasks(n));
  rotation_size_ = rotation_->size();
  // Journals, shards and MPI records write a subproblem's index in 32 bits
  // (journal_layout.hpp): a plan past that is refused, whatever its engine.
  if (engine_size_ + rotation_size_ > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("a plan of " + std::to_string(engine_size_ + rotation_size_) +
                                " subproblems is more than a journal can index (2^32)");
  }
  detail::add_to_fingerprint(hash, *rotation_);
  fingerprint_ = hash.value();
}

int plan::split_depth() const noexcept { return impl_ != nullptr ? impl_->split_depth() : 0; }

// The rotation subproblems take a few hundredths of a percent of a count's
// time from n = 18 on: they weigh 1, the least any estimate gives (the
// quadrant engine's estimates are all 1 too, so there they count as much as
// its subproblems in the progress fraction: 21% of the plan at n = 16, 5% at
// n = 20).
bool plan::uniform_work() const noexcept { return impl_ == nullptr || impl_->uniform_work(); }

std::uint64_t plan::estimated_work(std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("plan::estimated_work: subproblem " + std::to_string(index) + " is outside the plan of " +
                            std::to_string(size()));
  }
  return index < engine_size_ ? impl_->estimated_work(index) : 1;
}

std::string format_fingerprint(std::uint64_t fingerprint) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fingerprint));
  return text;
}

}  // namespace nqueens
