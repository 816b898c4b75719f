#pragma once

// Scripts whose commands share one CPU: a busy loop beside a run on the
// same CPU leaves the run about half of it (the scheduler's fair share),
// which is how the tests make a machine "busy" without timing anything.

#include <sched.h>

#include <string>

namespace nqueens::test {

/// "taskset -c CPU " for the first CPU this process may run on: a script's
/// commands so prefixed run on one CPU.
inline std::string on_one_cpu() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return "false && ";
  int cpu = 0;
  while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed)) ++cpu;
  return "taskset -c " + std::to_string(cpu) + " ";
}

/// A script's first line: exit 77 (the test then skips) where there is no
/// taskset, or one this container does not let set the CPUs.
inline std::string on_one_cpu_or_77() {
  return "command -v taskset >/dev/null && " + on_one_cpu() + "true 2>/dev/null || exit 77\n";
}

/// A script's start: a busy loop on the CPU on_one_cpu() names, ended with
/// the script (or at worst by its own timeout); the script goes on with
/// the commands to run beside it, each prefixed with on_one_cpu().
inline std::string busy_loop_on_one_cpu() {
  return on_one_cpu_or_77() + on_one_cpu() +
         "timeout --foreground 900 sh -c 'while :; do :; done' & loop=$!; trap 'kill $loop' EXIT; trap 'exit 143' "
         "INT TERM; ";
}

}  // namespace nqueens::test
