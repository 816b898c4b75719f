#pragma once

// The main thread's stack. It runs a share of every count's tasks and the
// engines' table builds (the quadrant engine's takes about 28 KiB of it);
// a stack limit below that (`ulimit -s 20`) ended the process with SIGSEGV.

#include <cstdint>

namespace nqueens::cli {

/// The least stack limit (RLIMIT_STACK) the main thread may run under:
/// about twice the deepest command's need; a sanitized build's frames are
/// larger (ASan's redzones), and it asks for the usual 8 MiB.
#ifdef NQUEENS_SANITIZED
inline constexpr std::uint64_t least_stack_bytes = std::uint64_t{8} << 20;
#else
inline constexpr std::uint64_t least_stack_bytes = 64 * 1024;
#endif

/// Raises the soft stack limit to least_stack_bytes where it is lower and
/// the hard limit allows (the main thread's stack grows to the limit of the
/// moment, and the kernel left 128 MiB for it); where the hard limit does
/// not, prints one line after `prefix` ("nqueens: the stack limit (ulimit
/// -s) is 20 KiB, ...") and returns false: the process must end, with 3.
bool ensure_least_stack(const char* prefix) noexcept;

}  // namespace nqueens::cli
