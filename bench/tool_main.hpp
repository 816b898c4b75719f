#pragma once

// The main of the measuring programs beside the benchmarks
// (nqueens_reach_sample, nqueens_class_slots, the GPU studies): runs the
// program's body and turns what it throws into one line on stderr and the
// tool's exit statuses, never an uncaught exception's abort. 2 for what the
// caller asked that cannot be done (a word for a number, a board an engine
// does not take, a bound no layout fits, an unknown NQUEENS_ISA); 1 for any
// other failure.

#include <cstdio>
#include <exception>
#include <stdexcept>

#include "cli/arguments.hpp"
#include "nqueens/memory_limit.hpp"

namespace nqueens::bench {

template <typename Body>
int tool_main(const char* program, const Body& body) noexcept {
  const auto fail = [program](const char* what, int status) {
    std::fprintf(stderr, "%s: %s\n", program, what);
    return status;
  };
  try {
    return body();
  } catch (const cli::usage_error& e) {
    return fail(e.what(), 2);
  } catch (const memory_limit_error& e) {
    return fail(e.what(), 2);
  } catch (const std::invalid_argument& e) {  // the library's word for an argument it does not take
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  } catch (...) {
    return fail("an unknown error", 1);
  }
}

}  // namespace nqueens::bench
