// A stand-in for the CUDA driver, built as libcuda.so.1 in a folder of its
// own (never on a search path): a death test loads it to see that the
// tools' end, which skips what exit() runs, still runs it where the driver
// is loaded. Its end says so on stderr.

#include <unistd.h>

namespace {

[[gnu::destructor]] void driver_end() {
  constexpr char line[] = "the driver's end ran\n";
  static_cast<void>(::write(2, line, sizeof line - 1) >= 0);
}

}  // namespace
