#pragma once

// CPU time, as the samplers and the scaling runs charge it: what ran, not
// the time spent waiting for a core on a shared machine.

namespace nqueens::detail {

/// The calling thread's CPU time, in seconds.
double thread_cpu_seconds() noexcept;

/// What an interval timed by two thread_cpu_seconds() calls holds beyond
/// the work between them, in seconds: the least of several back-to-back
/// pairs, measured on this thread. Not vDSO-served, the clock is a system
/// call: 2.2 us a reading on a KVM guest (AMD EPYC, 2026-12-06), ten
/// times a light subproblem's count.
double thread_cpu_clock_cost() noexcept;

/// The CPU time this process has used so far, every thread's (page faults
/// included), in seconds; 0 where the system cannot tell.
double process_cpu_seconds() noexcept;

}  // namespace nqueens::detail
