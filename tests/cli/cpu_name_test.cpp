#include "cli/cpu_name.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace nqueens::cli {
namespace {

std::string name_of(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  return cpu_name_from(in);
}

// x86's kernels write the marketing name; the first processor's is taken.
TEST(CpuNameTest, TheFirstModelNameIsTaken) {
  EXPECT_EQ(name_of("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 17\n"
                    "model name\t: AMD EPYC 9R14 96-Core Processor  \r\nprocessor\t: 1\nmodel name\t: other\n"),
            "AMD EPYC 9R14 96-Core Processor");
  EXPECT_EQ(name_of("model name2 : no\nmodel\t: 85\n"), "unknown");  // other keys, no name
  EXPECT_EQ(name_of(""), "unknown");
  EXPECT_EQ(name_of("model name\t:   \n"), "unknown");  // empty: nothing to say
}

// ARM's kernels write the core's numbers instead: Arm's own cores are named.
TEST(CpuNameTest, AnArmCoreIsNamedFromItsNumbers) {
  const std::string grace =
      "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd sve2\nCPU implementer\t: 0x41\n"
      "CPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 0\n\n"
      "processor\t: 1\nCPU implementer\t: 0x61\nCPU part\t: 0x022\n";
  EXPECT_EQ(name_of(grace), "Arm Neoverse-V2 (implementer 0x41, part 0xd4f)");
  EXPECT_EQ(name_of("CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"), "Arm Neoverse-N1 (implementer 0x41, part 0xd0c)");
  // Another maker's core, or one not listed: its numbers, which still tell machines apart.
  EXPECT_EQ(name_of("CPU implementer\t: 0xc0\nCPU part\t: 0xac3\n"), "ARM implementer 0xc0, part 0xac3");
  EXPECT_EQ(name_of("CPU implementer\t: 0x41\nCPU part\t: 0xfff\n"), "ARM implementer 0x41, part 0xfff");
  EXPECT_EQ(name_of("CPU implementer\t: 0x41\n"), "unknown");  // half the numbers: no name
}

}  // namespace
}  // namespace nqueens::cli
