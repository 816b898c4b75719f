#pragma once

// The CPU time a cgroup's CFS quota lets this process use, read from a
// cgroup tree (cpu_quota() in nqueens/threads.hpp reads the machine's):
// a container started with `--cpus 1.5` sees every hardware thread, yet
// gets 1.5 CPUs of time, so more threads than that only share it.

#include <filesystem>
#include <optional>

namespace nqueens::detail {

/// The CPUs of the tightest quota on the process's cgroup and its
/// ancestors, quota / period (1.5 for "150000 100000"): `self_cgroup`
/// (/proc/self/cgroup) names the process's cgroup, under `root`
/// (/sys/fs/cgroup): cgroup v2's `cpu.max` ("max 100000": none), else v1's
/// cpu controller (`cpu.cfs_quota_us`, -1: none, over `cpu.cfs_period_us`).
/// nullopt where no quota is set, or none can be read.
std::optional<double> cpu_quota_in(const std::filesystem::path& root, const std::filesystem::path& self_cgroup);

}  // namespace nqueens::detail
