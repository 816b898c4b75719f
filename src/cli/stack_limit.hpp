#pragma once

// The stacks the tools' threads run on. The main thread runs a share of
// every count's tasks and the engines' table builds (the quadrant engine's
// takes about 28 KiB of it); glibc sizes every std::thread's stack from the
// stack limit at start. A small limit (`ulimit -s 24`, or 512 for a
// thread's) ended the process with SIGSEGV.

#include <cstdint>

#include "cli/sanitized_build.hpp"

namespace nqueens::cli {

/// The usual stack limit (8 MiB): what a limit too small is raised to, and
/// the least stack a thread of the tools' own is given.
inline constexpr std::uint64_t usual_stack_bytes = std::uint64_t{8} << 20;

/// The least stack limit (RLIMIT_STACK) the main thread may run under:
/// about ten times the deepest command's need; a sanitized build's frames
/// are larger (ASan's redzones), and it asks for the usual.
inline constexpr std::uint64_t least_stack_bytes = sanitized_build ? usual_stack_bytes : std::uint64_t{256} << 10;

/// Called first in main, before any thread starts: gives the threads
/// started later without a size of their own (std::thread) the usual stack
/// at least; raises a soft stack limit under least_stack_bytes towards the
/// usual, as far as the hard limit allows (the main thread's stack grows to
/// the limit of the moment, and the kernel left 128 MiB for it). Where the
/// hard limit is under least_stack_bytes, or the raise fails, writes one
/// line after `prefix` ("nqueens: the stack's hard limit ...") and returns
/// false: the process must end, with 3.
bool ensure_least_stack(const char* prefix) noexcept;

}  // namespace nqueens::cli
