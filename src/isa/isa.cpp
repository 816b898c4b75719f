#include "nqueens/isa.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "isa/implementation.hpp"

namespace nqueens {
namespace {

// "portable, avx2, avx512": the names of `sets`, as every message lists them.
std::string names_of(std::span<const isa> sets) {
  std::string names;
  for (const isa k : sets) names += (names.empty() ? "" : ", ") + std::string(to_string(k));
  return names;
}

// Each public set and its name, narrowest first: the one table a new set
// takes its line in (and its value in nqueens::isa).
struct named_isa {
  isa kernels;
  std::string_view name;
};
constexpr std::array<named_isa, 3> named_isas = {
    {{isa::portable, "portable"}, {isa::avx2, "avx2"}, {isa::avx512, "avx512"}}};

// cpu_supports and implementation_for index by the enum's value.
constexpr bool named_in_enum_order() {
  for (std::size_t k = 0; k < named_isas.size(); ++k) {
    if (static_cast<std::size_t>(named_isas[k].kernels) != k) return false;
  }
  return true;
}
static_assert(named_in_enum_order(), "named_isas lists nqueens::isa's values in order");

// The public sets this build has kernels for, narrowest first: all three on
// x86-64, the portable one elsewhere (isa/implementation.hpp).
#define NQUEENS_IMPLEMENTED_SET(id, name, kernels) isa::kernels,
constexpr auto implemented_sets = std::to_array<isa>({NQUEENS_EACH_IMPLEMENTATION(NQUEENS_IMPLEMENTED_SET)});
#undef NQUEENS_IMPLEMENTED_SET
constexpr bool implemented(isa kernels) {
  return std::ranges::find(implemented_sets, kernels) != implemented_sets.end();
}
constexpr std::size_t implemented_count =
    std::ranges::count_if(named_isas, [](const named_isa& n) { return implemented(n.kernels); });

constexpr std::array<isa, implemented_count> every_isa = [] {
  std::array<isa, implemented_count> sets{};
  std::size_t k = 0;
  for (const named_isa& n : named_isas) {
    if (implemented(n.kernels)) sets[k++] = n.kernels;
  }
  return sets;
}();

// True when the CPU runs some implementation of `kernels` (the CPUID
// checks are each implementation's, isa/implementation.cpp).
bool detect(isa kernels) noexcept {
  return std::ranges::any_of(detail::implementations(),
                             [&](const detail::implementation& i) { return i.kernels == kernels && i.cpu_runs(); });
}

struct choice {
  std::optional<isa> kernels;
  std::string error;  // set when NQUEENS_ISA cannot be honoured
};

choice choose() {
  const char* forced = std::getenv("NQUEENS_ISA");
  if (forced == nullptr || *forced == '\0') {
    isa best = isa::portable;
    for (const isa k : every_isa) {
      if (detect(k)) best = k;
    }
    return {best, {}};
  }
  const std::optional<isa> wanted = parse_isa(forced);
  if (!wanted) {
    return {std::nullopt,
            "NQUEENS_ISA='" + std::string(forced) + "' is not an instruction set: expected one of " + isa_names()};
  }
  if (!detect(*wanted)) {
    return {std::nullopt, "NQUEENS_ISA=" + std::string(forced) + " is not supported by this CPU (it supports " +
                              names_of(supported_isas()) + ")"};
  }
  return {wanted, {}};
}

}  // namespace

std::span<const isa> all_isas() noexcept { return every_isa; }

std::string_view to_string(isa kernels) noexcept {
  for (const named_isa& n : named_isas) {
    if (n.kernels == kernels) return n.name;
  }
  return "unknown";  // only a cast makes such a value, and count refuses it
}

std::string isa_names() { return names_of(every_isa); }

// Every set's name parses, built here or not: NQUEENS_ISA=avx2 on an AArch64
// is a set this CPU does not run, not a typing error.
std::optional<isa> parse_isa(std::string_view name) noexcept {
  for (const named_isa& n : named_isas) {
    if (n.name == name) return n.kernels;
  }
  return std::nullopt;
}

bool cpu_supports(isa kernels) noexcept {
  static const std::array<bool, named_isas.size()> supported = [] {
    std::array<bool, named_isas.size()> s{};
    for (std::size_t i = 0; i < named_isas.size(); ++i) s[i] = detect(named_isas[i].kernels);
    return s;
  }();
  const auto k = static_cast<std::size_t>(kernels);
  return k < supported.size() && supported[k];  // a value cast from outside the enum runs on no CPU
}

std::vector<isa> supported_isas() {
  std::vector<isa> out;
  for (const isa k : every_isa) {
    if (cpu_supports(k)) out.push_back(k);
  }
  return out;
}

isa active_isa() {
  static const choice chosen = choose();
  if (!chosen.kernels) throw isa_error(chosen.error);
  return *chosen.kernels;
}

isa runnable_isa(std::optional<isa> kernels) {
  if (!kernels) return active_isa();
  if (std::ranges::none_of(named_isas, [&](const named_isa& n) { return n.kernels == *kernels; })) {
    throw std::invalid_argument("kernels " + std::to_string(static_cast<int>(*kernels)) +
                                " name no instruction set: expected one of " + isa_names());
  }
  if (!cpu_supports(*kernels)) {
    throw isa_error("this CPU cannot run the " + std::string(to_string(*kernels)) + " kernels");
  }
  return *kernels;
}

std::string_view kernels_name(isa kernels) noexcept { return detail::implementation_for(kernels).name; }

}  // namespace nqueens
