#include "nqueens/threads.hpp"

#include <tbb/info.h>

#include <stdexcept>
#include <string>

namespace nqueens {

int hardware_threads() noexcept { return tbb::info::default_concurrency(); }

int threads_or_hardware(int threads) noexcept { return threads == 0 ? hardware_threads() : threads; }

int resolve_threads(int threads) {
  if (threads < 0 || threads > max_threads) {
    throw std::invalid_argument("thread count " + std::to_string(threads) + " is out of range: expected 1 to " +
                                std::to_string(max_threads));
  }
  return threads_or_hardware(threads);
}

}  // namespace nqueens
