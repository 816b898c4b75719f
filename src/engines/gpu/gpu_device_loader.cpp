// Finds and loads the GPU engine's device module (gpu_device.hpp) the first
// time a GPU run asks, and says why none is usable where it cannot: a build
// without CUDA, or a module that is not where it was installed.

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engines/gpu/gpu_device.hpp"

namespace nqueens::detail::gpu {

namespace {

struct loaded_module {
  const device_module* module = nullptr;
  std::string why;  // when none
};

// Where the module may be, in order: NQUEENS_GPU_MODULE; beside the running
// program (the build tree); ../LIBDIR/nqueens from it (the installed
// tools); the install prefix's LIBDIR/nqueens (programs built against the
// installed library); where it was built (programs of a project that built
// nqueens as a subdirectory).
std::vector<std::filesystem::path> module_places() {
  std::vector<std::filesystem::path> places;
  if (const char* asked = std::getenv("NQUEENS_GPU_MODULE"); asked != nullptr && *asked != '\0') {
    places.emplace_back(asked);
    return places;
  }
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    places.push_back(program.parent_path() / device_module_file);
    places.push_back(program.parent_path() / ".." / NQUEENS_INSTALL_LIBDIR / "nqueens" / device_module_file);
  }
  places.push_back(std::filesystem::path(NQUEENS_INSTALL_FULL_LIBDIR) / "nqueens" / device_module_file);
  if (const std::string_view built_at = NQUEENS_GPU_MODULE_BUILT_AT; !built_at.empty()) places.emplace_back(built_at);
  return places;
}

// How a message names `place`: as the file NQUEENS_GPU_MODULE names where
// it is set (the user's, whatever it holds), else as `found` and the path.
std::string named(const std::filesystem::path& place, const std::string& found = "the GPU module ") {
  const char* asked = std::getenv("NQUEENS_GPU_MODULE");
  if (asked == nullptr || *asked == '\0') return found + place.string();
  return "the file NQUEENS_GPU_MODULE names, " + place.string() + ",";
}

loaded_module load() {
  if (!NQUEENS_GPU_MODULE_BUILT) {
    return {nullptr,
            "this nqueens was built without CUDA (CMake found no CUDA compiler: install the CUDA toolkit and "
            "configure again)"};
  }
  std::string tried;
  for (const std::filesystem::path& place : module_places()) {
    std::error_code error;
    if (!std::filesystem::exists(place, error)) {
      tried += (tried.empty() ? "" : ", ") + place.lexically_normal().string();
      continue;
    }
    void* handle = ::dlopen(place.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open: the backends live in it
    if (handle == nullptr) return {nullptr, named(place) + " does not load: " + ::dlerror()};
    using entry = const device_module* (*)();
    const auto find = reinterpret_cast<entry>(::dlsym(handle, device_module_symbol));
    if (find == nullptr) {
      return {nullptr, named(place, "") + " is not nqueens' GPU module (" + device_module_file + ")"};
    }
    const device_module* module = find();
    if (module->abi != device_module_abi) {
      return {nullptr, named(place) + " was built from another version of nqueens"};
    }
    return {module, {}};
  }
  if (const char* asked = std::getenv("NQUEENS_GPU_MODULE"); asked != nullptr && *asked != '\0') {
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

}  // namespace

device_probe probe_device() {
  const loaded_module& loaded = module_once();
  if (loaded.module == nullptr) return {false, loaded.why};
  return loaded.module->probe();
}

std::unique_ptr<gpu_backend> device_backend(const half_board_tables& tables, int streams,
                                            std::uint64_t most_stream_bytes) {
  const loaded_module& loaded = module_once();
  if (loaded.module == nullptr) throw std::runtime_error("no usable GPU: " + loaded.why);
  return loaded.module->backend(tables, streams, most_stream_bytes);
}

}  // namespace nqueens::detail::gpu
