#pragma once

// Whether this build carries sanitizers: their checks run at exit, and their
// frames are larger. NQUEENS_SANITIZED where CMake's NQUEENS_SANITIZE built
// them, or the compiler's own word.

namespace nqueens::cli {

#if defined(NQUEENS_SANITIZED) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif

}  // namespace nqueens::cli
