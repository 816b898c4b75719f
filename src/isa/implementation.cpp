#include "isa/implementation.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "isa/features.hpp"

namespace nqueens::detail {
namespace {

// Every CPUID test of the project: GCC's (libgcc's cpu model, which also
// asks the operating system, via XGETBV, whether it saves the AVX and
// AVX-512 registers), one per feature name the lists in features.hpp use.
// __builtin_cpu_supports takes only a literal, hence a test per name.
struct feature_test {
  std::string_view name;
  bool (*present)() noexcept;
};

#if defined(__x86_64__)
#define NQUEENS_FEATURE(literal)                                            \
  feature_test {                                                            \
    literal, []() noexcept { return __builtin_cpu_supports(literal) != 0; } \
  }
constexpr std::array<feature_test, 12> feature_tests = {{
    NQUEENS_FEATURE("avx2"),
    NQUEENS_FEATURE("bmi"),
    NQUEENS_FEATURE("bmi2"),
    NQUEENS_FEATURE("popcnt"),
    NQUEENS_FEATURE("fma"),
    NQUEENS_FEATURE("avx512f"),
    NQUEENS_FEATURE("avx512bw"),
    NQUEENS_FEATURE("avx512vl"),
    NQUEENS_FEATURE("avx512dq"),
    NQUEENS_FEATURE("avx512vpopcntdq"),
    NQUEENS_FEATURE("avx512vbmi"),
    NQUEENS_FEATURE("gfni"),
}};
#undef NQUEENS_FEATURE
void init_cpu_model() noexcept { __builtin_cpu_init(); }
#else
// Elsewhere the portable kernels alone are built, and they need no feature.
constexpr std::array<feature_test, 0> feature_tests = {};
void init_cpu_model() noexcept {}
#endif

constexpr implementation entry(std::string_view name, isa kernels, std::string_view features) {
  return {name, kernels, features, implementation_index(name)};
}

#define NQUEENS_IMPLEMENTATION_ENTRY(id, name, kernels) entry(name, isa::kernels, NQUEENS_FEATURES_##id),
constexpr std::array<implementation, implementation_count> every_implementation = {
    {NQUEENS_EACH_IMPLEMENTATION(NQUEENS_IMPLEMENTATION_ENTRY)}};
#undef NQUEENS_IMPLEMENTATION_ENTRY

constexpr bool indices_are_places() {
  for (std::size_t k = 0; k < every_implementation.size(); ++k) {
    if (every_implementation[k].index != k) return false;
  }
  return true;
}
static_assert(indices_are_places(), "the list follows implementation_names");

}  // namespace

bool cpu_has(std::string_view feature) noexcept {
  init_cpu_model();
  for (const feature_test& t : feature_tests) {
    if (t.name == feature) return t.present();
  }
  return false;
}

bool feature_known(std::string_view feature) noexcept {
  return std::ranges::any_of(feature_tests, [&](const feature_test& t) { return t.name == feature; });
}

bool implementation::cpu_runs() const noexcept {
  for (std::string_view rest = features; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    if (!cpu_has(rest.substr(0, comma))) return false;
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return true;
}

bool slow_bmi2() noexcept {
#if defined(__x86_64__)
  init_cpu_model();
  return __builtin_cpu_is("znver1") != 0 || __builtin_cpu_is("znver2") != 0;
#else
  return false;
#endif
}

bool implementation::cpu_prefers() const noexcept {
  return cpu_runs() && !(lists_feature(features, "bmi2") && slow_bmi2());
}

std::span<const implementation> implementations() noexcept { return every_implementation; }

const implementation& implementation_for(isa kernels) noexcept {
  // Decided once: CPUID does not change under a running program.
  static const std::vector<const implementation*> widest = [] {
    std::vector<const implementation*> best(all_isas().size(), nullptr);  // by the public set's number
    for (const implementation& i : every_implementation) {                // narrowest first: the widest preferred stays
      const auto k = static_cast<std::size_t>(i.kernels);
      if (k < best.size() && i.cpu_prefers()) best[k] = &i;
    }
    // A set the CPU runs but prefers in no implementation (none today):
    // its narrowest that runs, rather than none.
    for (const implementation& i : every_implementation) {
      const auto k = static_cast<std::size_t>(i.kernels);
      if (k < best.size() && best[k] == nullptr && i.cpu_runs()) best[k] = &i;
    }
    return best;
  }();
  const auto k = static_cast<std::size_t>(kernels);
  const implementation* chosen = k < widest.size() ? widest[k] : nullptr;
  return chosen != nullptr ? *chosen : every_implementation.front();
}

}  // namespace nqueens::detail
