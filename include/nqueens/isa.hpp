#pragma once

/// \file
/// Instruction sets the hot kernels are compiled for. Every build holds all of
/// them; one is chosen once, when the program first counts, from what the CPU
/// reports (or from the environment variable NQUEENS_ISA), so a binary built
/// on one machine runs at full speed on another, and on any x86-64. Builds
/// for other processors (AArch64, say) hold the portable kernels alone.

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nqueens {

/// A set of kernels, by the instructions it uses.
enum class isa {
  /// Baseline x86-64 (SSE2): no POPCNT, BMI or AVX assumed; on another
  /// processor, its baseline (AArch64: NEON).
  portable,
  /// AVX2 with BMI1/BMI2 and POPCNT (Intel Haswell, AMD Zen and later).
  avx2,
  /// AVX-512 F/BW/VL/DQ (and FMA) on top of avx2; the quadrant kernel also uses
  /// VPOPCNTDQ, VBMI and GFNI where the CPU has all three (Intel Ice Lake,
  /// AMD Zen 4 and later).
  avx512,
};

/// Every instruction set this build has kernels for, narrowest first (on
/// x86-64 all three, elsewhere portable alone): the one list
/// (src/isa/isa.cpp) that help, tests and the tool's `--list isas` read.
std::span<const isa> all_isas() noexcept;

/// "portable", "avx2" or "avx512".
std::string_view to_string(isa kernels) noexcept;

/// Every name of all_isas(), comma-separated ("portable, avx2, avx512"),
/// for help and error messages.
std::string isa_names();

/// Parses a name produced by to_string(isa); nullopt for anything else.
std::optional<isa> parse_isa(std::string_view name) noexcept;

/// True when this CPU (and its operating system) can run `kernels`.
bool cpu_supports(isa kernels) noexcept;

/// Every instruction set this CPU can run, portable first.
std::vector<isa> supported_isas();

/// Kernels this CPU lacks, asked for by NQUEENS_ISA (or an unknown name
/// there) or by a caller (count_options::kernels, run_context,
/// estimate_options::kernels, enumerate_options::kernels).
class isa_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// `kernels` where this CPU runs them, else active_isa() for none: what a
/// count, a run_context or an enumeration asked for `kernels` counts with.
/// Throws std::invalid_argument for a value that names no instruction set,
/// isa_error where the CPU lacks it (or NQUEENS_ISA is bad, for none).
isa runnable_isa(std::optional<isa> kernels);

/// The kernels every count uses unless told otherwise: NQUEENS_ISA when set,
/// else the widest set the CPU supports. Decided on the first call.
/// Throws isa_error (on every call) when NQUEENS_ISA is unknown or unsupported.
isa active_isa();

/// The name of the kernels that run `kernels` on this CPU ("avx2", or
/// "avx2-no-pdep" where pdep and pext are slow; --version prints it):
/// several builds of one set may exist, the fastest here is chosen.
/// Precondition: cpu_supports(kernels).
std::string_view kernels_name(isa kernels) noexcept;

}  // namespace nqueens
