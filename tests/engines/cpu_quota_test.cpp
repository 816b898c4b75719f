#include "engines/cpu_quota.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace nqueens::detail {
namespace {

namespace fs = std::filesystem;

// A cgroup tree of the test's own: /proc/self/cgroup's lines in `self`,
// the controllers' files under `root`.
class CpuQuotaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nqueens-cgroup-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(root());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path root() const { return dir_ / "cgroup"; }
  fs::path self() const { return dir_ / "self"; }
  void write(const fs::path& file, const std::string& text) const {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  std::optional<double> quota() const { return cpu_quota_in(root(), self()); }

  fs::path dir_;
};

TEST_F(CpuQuotaTest, CgroupTwoReadsCpuMaxOfTheCgroupAndItsAncestors) {
  write(self(), "0::/docker/abc\n");
  EXPECT_EQ(quota(), std::nullopt);  // no file: no quota
  write(root() / "docker/abc/cpu.max", "max 100000\n");
  EXPECT_EQ(quota(), std::nullopt);
  write(root() / "docker/abc/cpu.max", "150000 100000\n");
  EXPECT_DOUBLE_EQ(*quota(), 1.5);
  write(root() / "docker/cpu.max", "50000 100000\n");  // a tighter one above it bounds it too
  EXPECT_DOUBLE_EQ(*quota(), 0.5);
}

// Inside a container the path may name the host's cgroup, absent here: the
// namespace's root, the container's own cgroup, still counts.
TEST_F(CpuQuotaTest, APathThatIsNotThereFallsBackToTheRoot) {
  write(self(), "0::/system.slice/elsewhere.scope\n");
  write(root() / "cpu.max", "200000 100000\n");
  EXPECT_DOUBLE_EQ(*quota(), 2.0);
}

TEST_F(CpuQuotaTest, CgroupOneReadsTheCpuControllersQuotaOverItsPeriod) {
  write(self(), "4:memory:/x\n3:cpu,cpuacct:/job/7\n2:cpuset:/\n");
  write(root() / "cpu,cpuacct/job/7/cpu.cfs_quota_us", "-1\n");
  write(root() / "cpu,cpuacct/job/7/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(quota(), std::nullopt);  // -1: none
  write(root() / "cpu,cpuacct/job/7/cpu.cfs_quota_us", "250000\n");
  EXPECT_DOUBLE_EQ(*quota(), 2.5);
  // Mounted as "cpu" alone, the controller's own line naming it so.
  fs::remove_all(root());
  write(self(), "1:cpu:/job\n");
  write(root() / "cpu/job/cpu.cfs_quota_us", "75000\n");
  write(root() / "cpu/job/cpu.cfs_period_us", "100000\n");
  EXPECT_DOUBLE_EQ(*quota(), 0.75);
}

// Damage reads as no quota, never as a guess: a quota of 0, words, signs,
// a period missing, a path that climbs out of the tree.
TEST_F(CpuQuotaTest, WhatIsNotAQuotaIsNone) {
  write(self(), "0::/a\n");
  for (const char* text : {"0 100000", "abc 100000", "-5 100000", "150000", "150000 0", "150000 x", ""}) {
    write(root() / "a/cpu.max", text);
    EXPECT_EQ(quota(), std::nullopt) << "'" << text << "'";
  }
  write(self(), "0::/../../etc\n");
  write(root() / "cpu.max", "100000 100000\n");
  EXPECT_DOUBLE_EQ(*quota(), 1.0);  // the root's, not a file outside it
  write(self(), "garbage without colons\n");
  EXPECT_EQ(quota(), std::nullopt);
  EXPECT_EQ(cpu_quota_in(root(), dir_ / "absent"), std::nullopt);
}

}  // namespace
}  // namespace nqueens::detail
