#pragma once

// What a command prints, as one value: the command builds it, and the writer
// of the format the user asked for writes all of it (google/benchmark's
// shape: a run's results, one console and one JSON reporter). count, plan,
// merge, rotational and scale build one; verify, whose rows show as they
// are counted, picks one streamed writer per format (verify_command.cpp);
// list, first and check print placements in their own formats
// (placement_io.hpp). Each text and JSON is written in one place, and a
// caller with more to say (nqueens-mpi's ranks) adds it to the value, never
// to the finished text.

#include <ostream>

#include "cli/io/json.hpp"

namespace nqueens::cli {

class report {
 public:
  virtual ~report() = default;
  /// The lines a person reads, each ending in '\n'.
  virtual void write_text(std::ostream& out) const = 0;
  /// The one JSON object a program reads (README, "Commands").
  virtual json_object json() const = 0;
};

enum class output_format { text, json };

/// output_format::json when `json` (the --json flag), else text.
constexpr output_format format_for(bool json) noexcept { return json ? output_format::json : output_format::text; }

/// Writes `r` to standard output in `format`: text, or the JSON object on
/// one line. (Whether it arrived is close_standard_output's to check.)
void write_report(const report& r, output_format format);

}  // namespace nqueens::cli
