// Where the GPU engine's module is looked for, and which places are refused
// because another user could have changed the module there
// (engines/gpu/gpu_device_loader.cpp, engines/gpu/gpu_module_trust.hpp).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engines/gpu/gpu_device_loader.hpp"
#include "engines/gpu/gpu_module_trust.hpp"
#include "support/scratch_directory.hpp"

namespace nqueens::detail::gpu {
namespace {

namespace fs = std::filesystem;
using nqueens::test::scratch_directory;

// NQUEENS_GPU_MODULE as given (unset for nullptr) for one scope.
class module_variable {
 public:
  explicit module_variable(const char* value) {
    if (const char* old = std::getenv("NQUEENS_GPU_MODULE"); old != nullptr) old_ = old;
    set(value);
  }
  ~module_variable() { set(old_ ? old_->c_str() : nullptr); }
  module_variable(const module_variable&) = delete;
  module_variable& operator=(const module_variable&) = delete;

 private:
  static void set(const char* value) {
    if (value == nullptr) {
      ::unsetenv("NQUEENS_GPU_MODULE");
    } else {
      ::setenv("NQUEENS_GPU_MODULE", value, 1);
    }
  }
  std::optional<std::string> old_;
};

// This program names where the build tree's module is built (it links
// nqueens::gpu_module_in_build_tree, as a program built against the
// installed package names the package's): the loader looks there alone,
// not beside the program, nor at any path the library was built with.
TEST(GpuModuleTest, LooksOnlyWhereTheProgramSays) {
  const module_variable unset(nullptr);
  const std::vector<fs::path> places = device_module_places();
  ASSERT_EQ(places.size(), 1u);
  EXPECT_EQ(places.front(), fs::path(NQUEENS_GPU_MODULE_DIRECTORY) / device_module_file);
}

TEST(GpuModuleTest, NqueensGpuModuleIsTheOnlyPlaceWhereSet) {
  const module_variable asked("/opt/elsewhere/libnqueens-gpu.so");
  EXPECT_EQ(device_module_places(), std::vector<fs::path>{"/opt/elsewhere/libnqueens-gpu.so"});
}

// A file system of made-up owners and modes, for the cases this machine's
// user cannot make (another user's directory, root's).
class made_up_tree {
 public:
  made_up_tree& directory(const std::string& path, ::mode_t permissions, ::uid_t owner) {
    entries_[path] = {S_IFDIR | permissions, owner};
    return *this;
  }
  made_up_tree& file(const std::string& path, ::mode_t permissions, ::uid_t owner) {
    entries_[path] = {S_IFREG | permissions, owner};
    return *this;
  }
  // Why the module at `path` is refused, the user and the program's owner trusted.
  std::string distrust(const std::string& path, std::vector<::uid_t> trusted) const {
    return module_distrust(path, trusted, [this](const fs::path& p, std::string& error) -> std::optional<path_status> {
      const auto found = entries_.find(p.string());
      if (found == entries_.end()) {
        error = "No such file or directory";
        return std::nullopt;
      }
      return found->second;
    });
  }

 private:
  std::map<std::string, path_status> entries_;
};

constexpr ::uid_t root = 0;
constexpr ::uid_t you = 1000;
constexpr ::uid_t someone_else = 1001;

TEST(GpuModuleTest, AnInstalledModuleOfRootIsLoaded) {
  made_up_tree tree;
  tree.directory("/", 0755, root).directory("/usr", 0755, root).directory("/usr/lib", 0755, root);
  tree.directory("/usr/lib/nqueens", 0755, root).file("/usr/lib/nqueens/libnqueens-gpu.so", 0644, root);
  EXPECT_EQ(tree.distrust("/usr/lib/nqueens/libnqueens-gpu.so", {you}), "");
}

// Group write is allowed (a user's own group under umask 002, Debian's
// staff for /usr/local), and so is /tmp, sticky, above the user's own folder.
TEST(GpuModuleTest, YourOwnBuildTreeIsLoadedEvenUnderTmp) {
  made_up_tree tree;
  tree.directory("/", 0755, root).directory("/home", 0755, root).directory("/home/you", 0750, you);
  tree.directory("/home/you/build", 0775, you).file("/home/you/build/libnqueens-gpu.so", 0775, you);
  EXPECT_EQ(tree.distrust("/home/you/build/libnqueens-gpu.so", {you}), "");
  tree.directory("/tmp", 01777, root).directory("/tmp/build", 0755, you);
  tree.file("/tmp/build/libnqueens-gpu.so", 0755, you);
  EXPECT_EQ(tree.distrust("/tmp/build/libnqueens-gpu.so", {you}), "");
}

// The case this check is for: a build tree under /tmp deleted, its path
// made again by another user, who put a module of their own in it. Its
// modes are ordinary; its owner is not one the user trusts.
TEST(GpuModuleTest, ABuildPathRecreatedByAnotherUserIsRefused) {
  made_up_tree tree;
  tree.directory("/", 0755, root).directory("/tmp", 01777, root).directory("/tmp/build", 0755, someone_else);
  tree.directory("/tmp/build/release", 0755, someone_else);
  tree.file("/tmp/build/release/libnqueens-gpu.so", 0755, someone_else);
  EXPECT_EQ(tree.distrust("/tmp/build/release/libnqueens-gpu.so", {you}),
            "/tmp/build belongs to user 1001, neither root, you nor the owner of this program");
}

TEST(GpuModuleTest, AModuleOrFolderWritableByEveryUserIsRefused) {
  made_up_tree tree;
  tree.directory("/", 0755, root).directory("/srv", 0777, root).directory("/srv/lib", 0755, you);
  tree.file("/srv/lib/libnqueens-gpu.so", 0644, you);
  EXPECT_EQ(tree.distrust("/srv/lib/libnqueens-gpu.so", {you}), "/srv is writable by every user (mode 0777)");
  tree.directory("/srv", 0755, root).file("/srv/lib/libnqueens-gpu.so", 0666, you);
  EXPECT_EQ(tree.distrust("/srv/lib/libnqueens-gpu.so", {you}),
            "/srv/lib/libnqueens-gpu.so is writable by every user (mode 0666)");
  // The sticky bit spares a directory only: a file has no entries to keep.
  tree.file("/srv/lib/libnqueens-gpu.so", 01666, you);
  EXPECT_EQ(tree.distrust("/srv/lib/libnqueens-gpu.so", {you}),
            "/srv/lib/libnqueens-gpu.so is writable by every user (mode 1666)");
  // A sticky directory that is not root's or the user's is not trusted.
  tree.directory("/srv", 01777, someone_else).file("/srv/lib/libnqueens-gpu.so", 0644, you);
  EXPECT_EQ(tree.distrust("/srv/lib/libnqueens-gpu.so", {you}),
            "/srv belongs to user 1001, neither root, you nor the owner of this program");
}

// Root running a user's build tree: the tree's owner owns the program too,
// so trusting the module trusts no one more than running the program does.
TEST(GpuModuleTest, TheProgramsOwnerIsTrusted) {
  made_up_tree tree;
  tree.directory("/", 0755, root).directory("/home", 0755, root).directory("/home/you", 0755, you);
  tree.file("/home/you/libnqueens-gpu.so", 0755, you);
  EXPECT_EQ(tree.distrust("/home/you/libnqueens-gpu.so", {root, you}), "");
  EXPECT_EQ(tree.distrust("/home/you/libnqueens-gpu.so", {root}),
            "/home/you belongs to user 1000, neither root, you nor the owner of this program");
}

TEST(GpuModuleTest, APathThatCannotBeExaminedIsRefused) {
  made_up_tree tree;
  tree.directory("/", 0755, root);
  EXPECT_EQ(tree.distrust("/gone/libnqueens-gpu.so", {you}), "/gone cannot be examined: No such file or directory");
}

// The same on this machine's files: modes set here, the user's own.
TEST(GpuModuleTest, AModuleInAFolderWritableByEveryUserIsRefusedOnDisk) {
  const scratch_directory scratch("module-trust");
  const fs::path shared = scratch.path() / "shared";
  fs::create_directory(shared);
  const fs::path module = shared / device_module_file;
  std::ofstream(module) << "not a module: the check comes before loading\n";
  fs::permissions(module, fs::perms(0644));
  fs::permissions(shared, fs::perms(0777));
  module_trust trust = check_module_place(module);
  EXPECT_EQ(trust.resolved, module);
  EXPECT_EQ(trust.refusal, shared.string() + " is writable by every user (mode 0777)");

  fs::permissions(shared, fs::perms(0755));
  EXPECT_EQ(check_module_place(module).refusal, "");

  // Reached through a link from a trusted folder, the file linked to is
  // what is checked and what would be loaded.
  const fs::path link = scratch.path() / "link.so";
  fs::create_symlink(module, link);
  fs::permissions(shared, fs::perms(0777));
  trust = check_module_place(link);
  EXPECT_EQ(trust.resolved, module);
  EXPECT_EQ(trust.refusal, shared.string() + " is writable by every user (mode 0777)");
  fs::permissions(shared, fs::perms(0755));
}

// A module path that is no regular file (a FIFO, whose open would wait for
// a writer and not hear a stop signal; a folder) or does not resolve is
// unusable, said as such, before any open and without a word of trust.
TEST(GpuModuleTest, AModulePathThatIsNoRegularFileIsUnusable) {
  const scratch_directory scratch("module-kind");
  const fs::path fifo = scratch.path() / "fifo.so";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  module_trust trust = check_module_place(fifo);
  EXPECT_EQ(trust.unusable, "is not a regular file");
  EXPECT_EQ(trust.refusal, "");
  EXPECT_EQ(check_module_place(scratch.path()).unusable, "is not a regular file");
  trust = check_module_place(scratch.path() / "gone" / "libnqueens-gpu.so");
  EXPECT_EQ(trust.unusable.rfind("cannot be resolved to a file: ", 0), 0U) << trust.unusable;
  EXPECT_EQ(trust.refusal, "");
  std::ofstream(scratch.path() / "file.so") << "a file\n";
  EXPECT_EQ(check_module_place(scratch.path() / "file.so").unusable, "");
}

}  // namespace
}  // namespace nqueens::detail::gpu
