#pragma once

// Formatting shared by the sub-commands.

#include <string>

#include "nqueens/count.hpp"

namespace nqueens::cli {

/// "verified", "MISMATCH (published N)" or "not verified (no published value)".
std::string describe_check(const verification& check);

/// Seconds with three decimals and a unit: "0.123 s".
std::string format_seconds(double seconds);

/// One JSON object describing a count (see README, "JSON output").
std::string count_json(const count_result& r);

/// Engine option help text: "mirror" plus any other engines.
std::string engine_help();

/// Parses --engine's value or throws usage_error naming the valid engines.
engine parse_engine_option(const std::string& name);

}  // namespace nqueens::cli
