// Finds and loads the GPU engine's device module (gpu_device.hpp) the first
// time a GPU run asks, and says why none is usable where it cannot: a build
// without CUDA, a module that is not where it was installed, or one that
// another user could have changed (gpu_module_trust.hpp).
//
// The library holds no path of its own: it is static, so it cannot tell
// where it was installed, and a path fixed when it was built names a build
// tree, which may be gone and recreated by anyone. The program that links
// it says where its module is (nqueens_gpu_module_directory below), else
// the module is found from the program's own file.

#include "engines/gpu/gpu_device_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/gpu/gpu_module_trust.hpp"

// The directory of the GPU module, defined (weakly) by the programs that
// link nqueens::nqueens from an installed CMake package, where the package
// lies (cmake/nqueens_gpu_module_directory.cpp, added by nqueensConfig.cmake),
// and by the build tree's tests, where the module is built; undefined in the
// tools, which find it from their own file.
extern "C" __attribute__((weak)) const char* nqueens_gpu_module_directory();

namespace nqueens::detail::gpu {
namespace {

// NQUEENS_GPU_MODULE where set and not empty: the one module to load.
const char* asked_module() noexcept {
  const char* asked = std::getenv("NQUEENS_GPU_MODULE");
  return asked != nullptr && *asked != '\0' ? asked : nullptr;
}

}  // namespace

std::vector<std::filesystem::path> device_module_places() {
  std::vector<std::filesystem::path> places;
  if (const char* asked = asked_module()) {
    places.emplace_back(asked);
    return places;
  }
  if (nqueens_gpu_module_directory != nullptr) {
    if (const char* directory = nqueens_gpu_module_directory(); directory != nullptr && *directory != '\0') {
      places.push_back(std::filesystem::path(directory) / device_module_file);
      return places;
    }
  }
  // Beside the program: the build tree, where the module lies beside the
  // tools; then the tools' way from BINDIR to LIBDIR/nqueens, installed.
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    places.push_back(program.parent_path() / device_module_file);
    places.push_back(program.parent_path() / NQUEENS_TOOLS_TO_GPU_MODULE / device_module_file);
  }
  return places;
}

namespace {

struct loaded_module {
  const device_module* module = nullptr;
  std::string why;  // when none
};

// How a message names `place`: as the file NQUEENS_GPU_MODULE names where
// it is set (the user's, whatever it holds), else as `found` and the path.
std::string named(const std::filesystem::path& place, const std::string& found = "the GPU module ") {
  // Normalised, as the places looked for are ("bin/../lib" named "lib").
  const std::string path = place.lexically_normal().string();
  if (asked_module() == nullptr) return found + path;
  return "the file NQUEENS_GPU_MODULE names, " + path + ",";
}

loaded_module load() {
  if (!NQUEENS_GPU_MODULE_BUILT) {
    return {nullptr,
            "this nqueens was built without CUDA (CMake found no CUDA compiler: install the CUDA toolkit and "
            "configure again)"};
  }
  std::string tried;
  for (const std::filesystem::path& candidate : device_module_places()) {
    std::error_code error;
    if (!std::filesystem::exists(candidate, error)) {
      tried += (tried.empty() ? "" : ", ") + candidate.lexically_normal().string();
      continue;
    }
    const module_trust trust = check_module_place(candidate);
    if (!trust.unusable.empty()) return {nullptr, named(candidate) + " " + trust.unusable};
    if (!trust.refusal.empty()) {
      return {nullptr, "the GPU module " + candidate.lexically_normal().string() +
                           " is refused, since another user could have changed it: " + trust.refusal};
    }
    // The file checked is the file opened, its links resolved; messages
    // name it as it was given.
    void* handle = ::dlopen(trust.resolved.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open: the backends live in it
    if (handle == nullptr) return {nullptr, named(candidate) + " does not load: " + ::dlerror()};
    using entry = const device_module* (*)();
    const auto find = reinterpret_cast<entry>(::dlsym(handle, device_module_symbol));
    if (find == nullptr) {
      return {nullptr, named(candidate, "") + " is not nqueens' GPU module (" + device_module_file + ")"};
    }
    const device_module* module = find();
    if (module->abi != device_module_abi) {
      return {nullptr, named(candidate) + " was built from another version of nqueens"};
    }
    return {module, {}};
  }
  if (const char* asked = asked_module()) {
    return {nullptr,
            named(asked) + " does not exist (it takes the path of nqueens' GPU module, " + device_module_file + ")"};
  }
  return {nullptr, std::string("its device module ") + device_module_file + " is not installed (looked for " + tried +
                       "; set NQUEENS_GPU_MODULE to its path)"};
}

const loaded_module& module_once() {
  static const loaded_module once = load();
  return once;
}

// The loaded module, or std::runtime_error saying why there is none.
const device_module& loaded_module_or_throw() {
  const loaded_module& loaded = module_once();
  if (loaded.module == nullptr) throw std::runtime_error("no usable GPU: " + loaded.why);
  return *loaded.module;
}

}  // namespace

device_probe probe_device() {
  const loaded_module& loaded = module_once();
  if (loaded.module == nullptr) return {false, loaded.why};
  return loaded.module->probe();
}

std::vector<device_identity> visible_devices() { return loaded_module_or_throw().visible(); }

std::string kernel_refusal(int index) { return loaded_module_or_throw().kernel_refusal(index); }

std::unique_ptr<gpu_backend> device_backend(const half_board_tables* tables, dealt_device device, int streams,
                                            std::uint64_t most_stream_bytes) {
  return loaded_module_or_throw().backend(tables, device, streams, most_stream_bytes);
}

}  // namespace nqueens::detail::gpu
