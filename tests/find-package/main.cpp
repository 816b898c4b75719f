// Uses each part of the installed public API once and exits non-zero on any
// wrong answer. `consumer gpu` instead prints what the GPU engine says
// (run.cmake checks where it looked for its module).

#include <cstdio>
#include <exception>
#include <nqueens/nqueens.hpp>
#include <string_view>
#include <vector>

// The package tells the library where its GPU module lies in a source of its
// own: nothing of it reaches the user's code.
#ifdef NQUEENS_GPU_MODULE_DIRECTORY
#error "the nqueens package leaks NQUEENS_GPU_MODULE_DIRECTORY into its users' sources"
#endif

int designated_aggregates();  // designated.cpp

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "gpu") {
    nqueens::count_options options;
    options.kind = nqueens::engine::gpu;
    try {
      const nqueens::count_result r = nqueens::count(8, options);
      std::printf("gpu: Q(8) = %s\n", r.total == 92 ? "92" : "wrong");
      return r.total == 92 ? 0 : 1;
    } catch (const std::exception& e) {
      std::printf("gpu: %s\n", e.what());
      return 0;
    }
  }

  int failures = 0;
  const auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) ++failures;
  };

  nqueens::count_options options;
  options.threads = 2;
  const nqueens::count_result r = nqueens::count(10, options);
  expect(r.total == 724 && r.check.total == nqueens::verdict::match, "count(10) == 724, verified");

  std::size_t listed = 0;
  for (const nqueens::solution_view q : nqueens::solutions(8)) {
    listed += nqueens::check(std::vector<int>(q.begin(), q.end())).is_solution() ? 1 : 0;
  }
  expect(listed == 92, "solutions(8) lists 92 solutions");

  nqueens::enumerate_options unique;
  unique.unique = true;
  const auto classes = nqueens::enumerate(8, unique, [](const nqueens::listed_solution&) { return true; });
  expect(classes.delivered == 12, "enumerate(8, unique) lists 12 classes");

  expect(nqueens::check(nqueens::first_solution(100'000).value()).is_solution(),
         "first_solution(100000) is a solution");

  const nqueens::plan p(12);
  expect(p.size() > 0 && p.board_size() == 12, "plan(12) has subproblems");

  expect(designated_aggregates() == 25, "every public aggregate built with designated initializers");
  std::printf("nqueens %s: %s\n", std::string(nqueens::version()).c_str(), failures == 0 ? "all ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
