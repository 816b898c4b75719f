// The memory bound every engine sizes its tables by (nqueens/memory_limit.hpp):
// below run/, which prices whole runs against it (run/memory.cpp).

#include "nqueens/memory_limit.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace nqueens {

namespace {

// `need`, then "; choose A, B, or C", or "; C" for one remedy.
std::string refusal_text(const std::string& need, const std::vector<memory_limit_error::advice>& remedies) {
  std::string text = need;
  for (std::size_t k = 0; k < remedies.size(); ++k) {
    if (k == 0) {
      text += remedies.size() == 1 ? "; " : "; choose ";
    } else {
      text += k + 1 == remedies.size() ? ", or " : ", ";
    }
    text += remedies[k].words;
  }
  return text;
}

}  // namespace

memory_limit_error::memory_limit_error(const std::string& need, std::vector<advice> remedies, int split_depth,
                                       bool at_least)
    : std::runtime_error(refusal_text(need, remedies)),
      need_(need),
      remedies_(std::move(remedies)),
      split_depth_(split_depth),
      at_least_(at_least) {}

bool memory_limit_error::advises(remedy r) const noexcept {
  return std::ranges::any_of(remedies_, [r](const advice& a) { return a.kind == r; });
}

std::uint64_t default_memory_limit() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t memory = pages > 0 && page_size > 0
                             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
                             : std::uint64_t{8} << 30;  // unknown: assume a small machine
  // In a container the cgroup's limit, not the host's memory, is what a run
  // may use (cgroup v2, then v1; "max" or an absent file means no limit).
  for (const char* file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    if (std::FILE* f = std::fopen(file, "r")) {
      unsigned long long limit = 0;
      if (std::fscanf(f, "%llu", &limit) == 1 && limit > 0) memory = std::min<std::uint64_t>(memory, limit);
      std::fclose(f);
    }
  }
  return memory / 2;
}

std::uint64_t memory_limit_or_default(std::uint64_t max_memory) noexcept {
  return max_memory != 0 ? max_memory : default_memory_limit();
}

std::string format_bytes(std::uint64_t bytes, int decimals, byte_rounding rounding) {
  char text[48];
  const auto value = static_cast<double>(bytes);
  // In units of 2^10 .. 2^60 the value is exact (a dyadic fraction),
  // and so is its product by 10^digits: ceil rounds up only what is past.
  const auto written = [&](double units, int digits) {
    if (rounding == byte_rounding::nearest) return units;
    const double scale = std::pow(10.0, digits);
    return std::ceil(units * scale) / scale;
  };
  decimals = std::max(decimals, 0);  // printf would read a negative precision as none given: six digits
  if (decimals > 3 || bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu byte%s", static_cast<unsigned long long>(bytes), bytes == 1 ? "" : "s");
    return text;
  }
  struct unit {
    double size;
    const char* name;
    int digits;
  };
  const std::array<unit, 6> units = {unit{0x1p10, "KiB", decimals},     unit{0x1p20, "MiB", decimals},
                                     unit{0x1p30, "GiB", 1 + decimals}, unit{0x1p40, "TiB", 1 + decimals},
                                     unit{0x1p50, "PiB", 1 + decimals}, unit{0x1p60, "EiB", 1 + decimals}};
  std::size_t u = 0;
  while (u + 1 < units.size() && value >= units[u + 1].size) ++u;
  // A value just under the next unit would read 1024 of this one once
  // rounded (1048575 bytes: "1024 KiB"): it is written in the next.
  const auto shown = [&](std::size_t k) {
    const double scale = std::pow(10.0, units[k].digits);
    const double x = written(value / units[k].size, units[k].digits);
    return std::round(x * scale) / scale;
  };
  if (u + 1 < units.size() && shown(u) >= 1024.0) ++u;
  std::snprintf(text, sizeof text, "%.*f %s", units[u].digits, written(value / units[u].size, units[u].digits),
                units[u].name);
  return text;
}

int digits_to_tell(std::uint64_t need, std::uint64_t limit) {
  // And two digits of the need at least: 1.02 MiB rounded up to a whole
  // unit reads "2 MiB", twice what it is.
  const auto one_digit = [](const std::string& text) {
    return text.size() > 2 && text[1] == ' ' && text.find("byte") == std::string::npos;
  };
  int decimals = 0;
  while (decimals <= 3 && (format_bytes(need, decimals, byte_rounding::up) == format_bytes(limit, decimals) ||
                           one_digit(format_bytes(need, decimals, byte_rounding::up)))) {
    ++decimals;
  }
  return decimals;
}

}  // namespace nqueens
