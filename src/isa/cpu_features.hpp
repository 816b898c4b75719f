#pragma once

// CPU features beyond an instruction set's baseline, which one kernel uses
// where present. Every CPUID test of the project is in src/isa/isa.cpp.

namespace nqueens::detail {

/// AVX-512 VPOPCNTDQ (Ice Lake, Zen 4 and later), with the avx512 set: the
/// quadrant kernel counts each block with vpopcntq instead of an adder tree.
bool cpu_has_avx512_vpopcntdq() noexcept;

}  // namespace nqueens::detail
