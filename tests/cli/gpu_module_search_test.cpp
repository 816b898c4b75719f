// Where the tool finds the GPU engine's module: from its own file only,
// beside it in the build tree and in LIBDIR/nqueens once installed, never
// at a path of the tree it was built in; and a module another user could
// have changed is refused in one line.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/cli_run.hpp"
#include "support/scratch_directory.hpp"

namespace nqueens::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* module_file = "libnqueens-gpu.so";

// `TOOL count 8 --engine gpu` on the device backend, NQUEENS_GPU_MODULE
// set to `module` (unset where empty).
cli_run gpu_count(const fs::path& tool, const fs::path& module = {}) {
  const std::string variable =
      module.empty() ? "-u NQUEENS_GPU_MODULE" : "NQUEENS_GPU_MODULE='" + module.string() + "'";
  return run_cli_command("env " + variable + " NQUEENS_GPU=device '" + tool.string() + "' count 8 --engine gpu");
}

// A copy of the tool in a prefix of its own, as `cmake --install` puts it
// (it is installed byte for byte): with no module there it says it looked
// beside itself and in the prefix's LIBDIR/nqueens, and nowhere else (not
// in this build tree, whose module it would have loaded before); with the
// module put there, it loads it.
TEST(CliTest, AnInstalledToolLooksForTheGpuModuleOnlyWhereItWasInstalled) {
  if (!NQUEENS_TEST_GPU_MODULE_BUILT) GTEST_SKIP() << "built without CUDA: no module is looked for";
  const scratch_directory prefix("installed-tool");
  const fs::path bin = prefix.path() / "bin";
  fs::create_directory(bin);
  // Whatever the umask: a folder every user may write would refuse the module.
  fs::permissions(prefix.path(), fs::perms(0755));
  fs::permissions(bin, fs::perms(0755));
  fs::copy_file(NQUEENS_CLI_PATH, bin / "nqueens");
  const fs::path libdir = (bin / NQUEENS_TOOLS_TO_GPU_MODULE).lexically_normal();

  const cli_run missing = gpu_count(bin / "nqueens");
  EXPECT_EQ(missing.status, 2) << missing.err;
  EXPECT_EQ(lines_in(missing.err), 1) << missing.err;
  const std::string places =
      "looked for " + (bin / module_file).string() + ", " + (libdir / module_file).string() + ";";
  EXPECT_NE(missing.err.find(places), std::string::npos) << missing.err;
  EXPECT_EQ(missing.err.find(NQUEENS_BUILD_DIR), std::string::npos) << missing.err;

  // The module's folder lies in the prefix, as a relative install dir puts
  // it; one outside it (an absolute NQUEENS_GPU_MODULE_INSTALL_DIR) is not
  // this test's to make.
  const fs::path inside = libdir.lexically_relative(prefix.path());
  if (inside.empty() || *inside.begin() == "..") GTEST_SKIP() << libdir << " is not in the installed prefix";
  fs::path d = prefix.path();
  for (const fs::path& part : inside) {
    d /= part;
    fs::create_directory(d);
    fs::permissions(d, fs::perms(0755));
  }
  fs::copy_file(NQUEENS_TEST_GPU_MODULE_PATH, libdir / module_file);
  const cli_run found = gpu_count(bin / "nqueens");
  EXPECT_EQ(found.err.find("looked for"), std::string::npos) << found.err;
  EXPECT_EQ(found.err.find("is refused"), std::string::npos) << found.err;
}

// The build tree's tool finds the module built beside it.
TEST(CliTest, TheBuildTreesToolFindsTheGpuModuleBesideIt) {
  if (!NQUEENS_TEST_GPU_MODULE_BUILT) GTEST_SKIP() << "built without CUDA: no module is looked for";
  const cli_run r = gpu_count(NQUEENS_CLI_PATH);
  EXPECT_EQ(r.err.find("looked for"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("is refused"), std::string::npos) << r.err;
}

// NQUEENS_GPU_MODULE naming the module in a folder every user may write:
// refused before it is loaded, in one line naming the folder, exit 2; the
// same module loads once only its owner may write there, and is refused
// again when the file itself is writable by all.
TEST(CliTest, AGpuModuleWritableByOtherUsersIsRefused) {
  if (!NQUEENS_TEST_GPU_MODULE_BUILT) GTEST_SKIP() << "built without CUDA: no module is loaded";
  const scratch_directory scratch("shared-module");
  fs::permissions(scratch.path(), fs::perms(0755));  // whatever the umask
  const fs::path shared = scratch.path() / "shared";
  fs::create_directory(shared);
  const fs::path module = shared / module_file;
  fs::copy_file(NQUEENS_TEST_GPU_MODULE_PATH, module);
  fs::permissions(module, fs::perms(0755));
  fs::permissions(shared, fs::perms(0777));

  const cli_run refused = gpu_count(NQUEENS_CLI_PATH, module);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(lines_in(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("nqueens: --engine gpu needs an NVIDIA GPU: the GPU module " + module.string() +
                             " is refused, since another user could have changed it: " + shared.string() +
                             " is writable by every user (mode 0777)"),
            std::string::npos)
      << refused.err;

  fs::permissions(shared, fs::perms(0755));
  const cli_run loaded = gpu_count(NQUEENS_CLI_PATH, module);
  EXPECT_EQ(loaded.err.find("is refused"), std::string::npos) << loaded.err;

  fs::permissions(module, fs::perms(0777));
  const cli_run writable_file = gpu_count(NQUEENS_CLI_PATH, module);
  EXPECT_EQ(writable_file.status, 2) << writable_file.err;
  EXPECT_NE(writable_file.err.find(module.string() + " is writable by every user (mode 0777)"), std::string::npos)
      << writable_file.err;
}

}  // namespace
}  // namespace nqueens::test
