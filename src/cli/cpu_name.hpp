#pragma once

// The processor's marketing name, which a measurement file carries so that
// it says on what machine it was taken.

#include <string>

namespace nqueens::cli {

/// /proc/cpuinfo's first "model name" ("AMD EPYC 9R14 96-Core Processor");
/// "unknown" where the system does not say.
std::string cpu_name();

}  // namespace nqueens::cli
