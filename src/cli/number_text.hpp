#pragma once

// Numbers written for the eye: durations, counts with an SI prefix, digits
// grouped by thousands, and the seconds a report gives.

#include <cstdint>
#include <string>

namespace nqueens::cli {

/// Seconds as "8.2s", "1m12s", "3h05m" or "2d03h".
std::string format_duration(double seconds);

/// A count for the eye, three significant digits: "950", "14.8 k", "4.97 G".
std::string format_scaled(double value);

/// Digits grouped by thousands: "13,070".
std::string format_grouped(std::uint64_t value);

/// Seconds with three decimals and a unit: "0.123 s".
std::string format_seconds(double seconds);

}  // namespace nqueens::cli
