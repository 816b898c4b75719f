// nqueens_bench's main: Google Benchmark's, with what the results were
// measured with in the output's context (the kernels a count chooses here,
// the version and commit, the processor, the hardware threads and any CPU
// quota: Google Benchmark 1.7 names none of the last three), so that a
// JSON file read alone says it; a bad
// NQUEENS_ISA ends it with one line and exit 2, as the tool does; a
// benchmark that computed a wrong result ends it with exit 1
// (result_check.hpp), after every benchmark asked for has run.

#include <benchmark/benchmark.h>

#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "cli/cpu_name.hpp"
#include "nqueens/isa.hpp"
#include "nqueens/threads.hpp"
#include "nqueens/version.hpp"
#include "result_check.hpp"

int main(int argc, char** argv) {
  try {
    const nqueens::isa kernels = nqueens::active_isa();
    benchmark::AddCustomContext("nqueens_version", std::string(nqueens::version()));
    benchmark::AddCustomContext("nqueens_isa", std::string(nqueens::to_string(kernels)));
    benchmark::AddCustomContext("nqueens_kernels", std::string(nqueens::kernels_name(kernels)));
    const std::string_view commit = nqueens::build_commit();  // empty: built from a source without git
    benchmark::AddCustomContext("nqueens_commit", commit.empty() ? "none" : std::string(commit));
    benchmark::AddCustomContext("processor", nqueens::cli::cpu_name());
    benchmark::AddCustomContext("hardware_threads", std::to_string(nqueens::hardware_threads()));
    const std::optional<double> quota = nqueens::cpu_quota();
    benchmark::AddCustomContext("cpu_quota", quota ? std::to_string(*quota) : "none");
  } catch (const nqueens::isa_error& e) {
    std::cerr << "nqueens_bench: " << e.what() << '\n';
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (nqueens::bench::any_wrong_result()) {
    std::cerr
        << "nqueens_bench: a benchmark computed a wrong result (ERROR OCCURRED above): its timing means nothing\n";
    return 1;
  }
  return 0;
}
