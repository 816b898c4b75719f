// nqueens_bench's main: Google Benchmark's, with what the results were
// measured with in the output's context (the kernels a count chooses here
// and the version), so that a JSON file read alone says it; a bad
// NQUEENS_ISA ends it with one line and exit 2, as the tool does; a
// benchmark that computed a wrong result ends it with exit 1
// (result_check.hpp), after every benchmark asked for has run.

#include <benchmark/benchmark.h>

#include <iostream>
#include <string>

#include "nqueens/isa.hpp"
#include "nqueens/version.hpp"
#include "result_check.hpp"

int main(int argc, char** argv) {
  try {
    const nqueens::isa kernels = nqueens::active_isa();
    benchmark::AddCustomContext("nqueens_version", std::string(nqueens::version()));
    benchmark::AddCustomContext("nqueens_isa", std::string(nqueens::to_string(kernels)));
    benchmark::AddCustomContext("nqueens_kernels", std::string(nqueens::kernels_name(kernels)));
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
