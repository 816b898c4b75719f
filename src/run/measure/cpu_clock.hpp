#pragma once

// CPU time, as the samplers and the scaling runs charge it: what ran, not
// the time spent waiting for a core on a shared machine.

namespace nqueens::detail {

/// The calling thread's CPU time, in seconds.
double thread_cpu_seconds() noexcept;

/// The CPU time this process has used so far, every thread's (page faults
/// included), in seconds; 0 where the system cannot tell.
double process_cpu_seconds() noexcept;

}  // namespace nqueens::detail
