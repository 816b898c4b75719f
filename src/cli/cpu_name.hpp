#pragma once

// The processor's name, which a measurement file carries so that it says on
// what machine it was taken.

#include <istream>
#include <string>

namespace nqueens::cli {

/// cpu_name_from(/proc/cpuinfo).
std::string cpu_name();

/// The first "model name" of a /proc/cpuinfo text ("AMD EPYC 9R14 96-Core
/// Processor"). An ARM kernel writes none: its first "CPU implementer" and
/// "CPU part" then name the core ("Arm Neoverse-V2 (implementer 0x41, part
/// 0xd4f)", or the two numbers alone for a core not listed here); "unknown"
/// where neither is there.
std::string cpu_name_from(std::istream& info);

}  // namespace nqueens::cli
