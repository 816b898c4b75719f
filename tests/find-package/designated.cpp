// Every public aggregate built as users write them, with designated
// initializers that name only its last member: compiled with -Wall
// -Wextra -Werror (CMakeLists.txt), so a member without a default of its
// own fails the build here (GCC's -Wmissing-field-initializers), as it
// would fail a user's warning-clean build.

#include <nqueens/nqueens.hpp>

namespace {

template <typename... T>
constexpr int count_of(const T&...) {
  return static_cast<int>(sizeof...(T));
}

}  // namespace

int designated_aggregates() {
  const nqueens::attack a{.line = nqueens::attack_line::column};
  const nqueens::check_result c{.attack_count = 0};
  const nqueens::count_options co{.gpu = {.memory = 1}};
  const nqueens::run_phases rp{.release = 0.0};
  const nqueens::count_result cr{.cpu_seconds = 0.0};
  const nqueens::device_work dw{.staged_list_bytes = 0};
  const nqueens::engine_choice ec{.split_depth = 0};
  const nqueens::listed_solution ls{.class_size = 1};
  const nqueens::enumerate_options eo{.kernels = {}};
  const nqueens::enumerate_result er{.complete = false};
  const nqueens::estimate_options es{.cancel = nullptr};
  const nqueens::cost_estimate ce{.device = {}};
  const nqueens::execute_options xo{.keep_results = true};
  const nqueens::execution x{.counting_began = false};
  const nqueens::gpu_options g{.memory = 1};
  const nqueens::gpu_taken gt{.sharers = 1};
  const nqueens::plan_options po{.max_memory = 0};
  const nqueens::progress p{.last = false};
  const nqueens::totals t{.subproblems = 0};
  const nqueens::scaling_row sr{.gpus = 0};
  const nqueens::scaling_result sres{.complete = true};
  const nqueens::scaling_step ss{.threads = 1};
  const nqueens::shard_spec sh{.count = 1};
  const nqueens::subproblem_count sc{.symmetric_90 = 0};
  const nqueens::verification v{.has_symmetric_90 = false};
  return count_of(a, c, co, rp, cr, dw, ec, ls, eo, er, es, ce, xo, x, g, gt, po, p, t, sr, sres, ss, sh, sc, v);
}
