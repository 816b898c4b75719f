#include "isa/implementation.hpp"

#include <array>
#include <vector>

namespace nqueens::detail {

// Defined by kernels/search_<isa>.cpp and engines/quadrant/quadrant_kernel_<isa>.cpp.
extern const search_kernels portable_search_kernels;
extern const search_kernels avx2_search_kernels;
extern const search_kernels avx512_search_kernels;
extern const quadrant_kernels portable_quadrant_kernels;
extern const quadrant_kernels avx2_quadrant_kernels;
extern const quadrant_kernels avx512_quadrant_kernels;
extern const quadrant_kernels avx512_vpopcntdq_quadrant_kernels;

namespace {

// The CPUID checks are GCC's (libgcc's cpu model, which also asks the
// operating system, via XGETBV, whether it saves the AVX and AVX-512
// registers). Every CPUID test of the project is here.
bool runs_anywhere() noexcept { return true; }

bool runs_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
}

bool runs_avx512() noexcept {
  return runs_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

// VPOPCNTDQ, VBMI and GFNI (Ice Lake, Zen 4 and later: every CPU with the
// first has the others but the Xeon Phi): the quadrant kernel counts each
// block with vpopcntq instead of an adder tree, and transposes its blocks
// with byte shuffles and affine transforms.
bool runs_avx512_vpopcntdq() noexcept {
  return runs_avx512() && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vbmi") &&
         __builtin_cpu_supports("gfni");
}

constexpr std::array<implementation, 4> every_implementation = {{
    {"portable", isa::portable, runs_anywhere, &portable_search_kernels, &portable_quadrant_kernels},
    {"avx2", isa::avx2, runs_avx2, &avx2_search_kernels, &avx2_quadrant_kernels},
    {"avx512", isa::avx512, runs_avx512, &avx512_search_kernels, &avx512_quadrant_kernels},
    {"avx512+vpopcntdq", isa::avx512, runs_avx512_vpopcntdq, &avx512_search_kernels,
     &avx512_vpopcntdq_quadrant_kernels},
}};

}  // namespace

std::span<const implementation> implementations() noexcept { return every_implementation; }

const implementation& implementation_for(isa kernels) noexcept {
  // Decided once: CPUID does not change under a running program.
  static const std::vector<const implementation*> widest = [] {
    std::vector<const implementation*> best(all_isas().size(), nullptr);  // by the public set's number
    for (const implementation& i : every_implementation) {
      const auto k = static_cast<std::size_t>(i.kernels);
      if (k < best.size() && i.cpu_runs()) best[k] = &i;
    }
    return best;
  }();
  const auto k = static_cast<std::size_t>(kernels);
  const implementation* chosen = k < widest.size() ? widest[k] : nullptr;
  return chosen != nullptr ? *chosen : every_implementation.front();
}

}  // namespace nqueens::detail
