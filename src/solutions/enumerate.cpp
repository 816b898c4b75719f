#include "nqueens/enumerate.hpp"

#include <tbb/parallel_pipeline.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/completions.hpp"
#include "kernels/lexicographic.hpp"
#include "kernels/symmetry.hpp"
#include "nqueens/board.hpp"
#include "nqueens/isa.hpp"
#include "run/arena.hpp"

namespace nqueens {

namespace {

// Size of the symmetry class of solution q when q is its smallest member,
// else 0. The first entry of each image is found without building it, and
// only an image that ties on it is built and compared in full: almost every
// non-canonical solution is rejected after a few loads.
int class_size_if_canonical(solution_view q) noexcept {
  const int n = static_cast<int>(q.size());
  const int m = n - 1;
  int row_of_column_0 = 0, row_of_last_column = 0;
  for (int r = 0; r < n; ++r) {
    if (q[static_cast<std::size_t>(r)] == 0) row_of_column_0 = r;
    if (q[static_cast<std::size_t>(r)] == m) row_of_last_column = r;
  }
  // Image of row 0 under each symmetry but the identity, in symmetry.hpp's order.
  const std::array<int, 7> first_entries = {
      m - row_of_column_0,    // rotate 90: (r, c) -> (c, m - r)
      m - q.back(),           // rotate 180
      row_of_last_column,     // rotate 270: (r, c) -> (m - c, r)
      m - q[0],               // flip columns
      q.back(),               // flip rows
      row_of_column_0,        // transpose
      m - row_of_last_column  // anti-transpose: (r, c) -> (m - c, m - r)
  };
  int stabiliser = 1;
  std::array<std::uint8_t, max_board_size> buffer{};
  const std::span<std::uint8_t> image(buffer.data(), q.size());
  for (int g = 0; g < 7; ++g) {
    if (first_entries[static_cast<std::size_t>(g)] > q[0]) continue;
    if (first_entries[static_cast<std::size_t>(g)] < q[0]) return 0;
    detail::apply(static_cast<detail::symmetry>(g + 1), q, image);  // the maps in the order above
    const auto order = std::lexicographical_compare_three_way(image.begin(), image.end(), q.begin(), q.end());
    if (order < 0) return 0;
    if (order == 0) ++stabiliser;
  }
  return 8 / stabiliser;
}

// A run of consecutive prefixes, searched by one task; the pipeline hands
// these to the visitor in the order they were cut.
struct batch {
  std::vector<std::uint8_t> prefixes;  // prefix_rows entries each
  std::vector<std::uint8_t> queens;    // n entries per solution
  std::vector<std::uint8_t> class_sizes;
  std::vector<std::uint64_t> keys;  // scratch: one prefix's completions
};

}  // namespace

solution_range::iterator::iterator(detail::lexicographic_search* search) noexcept : search_(search) {
  at_end_ = !search_->next();
}

solution_view solution_range::iterator::operator*() const noexcept { return search_->queens(); }

solution_range::iterator& solution_range::iterator::operator++() noexcept {
  at_end_ = !search_->next();
  return *this;
}

solution_range::solution_range(int n) {
  require_valid_board_size(n);
  search_ = std::make_unique<detail::lexicographic_search>(n, solution_view{}, n, n - 1);
}

solution_range::~solution_range() = default;
solution_range::solution_range(solution_range&&) noexcept = default;
solution_range& solution_range::operator=(solution_range&&) noexcept = default;

solution_range::iterator solution_range::begin() noexcept { return iterator(search_.get()); }

solution_range solutions(int n) { return solution_range(n); }

enumerate_result enumerate(int n, const enumerate_options& options, const solution_visitor& visit) {
  require_valid_board_size(n);
  detail::worker_arena arena(options.threads);
  const int threads = arena.threads();
  const isa kernels = active_isa();
  // The canonical member of a class has the smallest first entry, and the
  // left-right mirror maps q[0] to n - 1 - q[0]: so q[0] <= (n - 1) / 2.
  const int max_first_column = options.unique ? (n - 1) / 2 : n - 1;
  // Tasks search the last 10 rows below a prefix: small enough (< 1 ms, a
  // few thousand solutions per batch at most n) that memory stays bounded
  // and a stop takes effect at once, large enough that the serial prefix
  // search above them is a few percent of the work.
  const int prefix_rows = std::max(0, n - 10);
  static_assert(10 <= detail::max_packed_rows);
  const std::size_t prefixes_per_batch = prefix_rows <= 1 ? 1 : prefix_rows == 2 ? 4 : prefix_rows == 3 ? 16 : 64;
  const auto width = static_cast<std::size_t>(n);

  detail::lexicographic_search prefix_search(n, solution_view{}, prefix_rows, max_first_column);
  std::atomic<bool> stop{false};
  enumerate_result result;
  bool prefixes_exhausted = false;

  // Batches are recycled (cut takes, deliver gives back): the pool owns them
  // all, so none leaks when a visitor throws mid-pipeline.
  std::vector<std::unique_ptr<batch>> pool;
  std::vector<batch*> idle;
  std::mutex pool_mutex;
  const auto take_batch = [&]() -> batch* {
    const std::lock_guard lock(pool_mutex);
    if (idle.empty()) return pool.emplace_back(std::make_unique<batch>()).get();
    batch* b = idle.back();
    idle.pop_back();
    b->prefixes.clear();
    b->queens.clear();
    b->class_sizes.clear();
    return b;
  };
  const auto return_batch = [&](batch* b) {
    const std::lock_guard lock(pool_mutex);
    idle.push_back(b);
  };
  const auto should_stop = [&] {
    if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
      stop.store(true, std::memory_order_relaxed);
    }
    return stop.load(std::memory_order_relaxed);
  };

  const auto cut = [&](tbb::flow_control& fc) -> batch* {
    if (should_stop() || prefixes_exhausted) {
      fc.stop();
      return nullptr;
    }
    batch* b = take_batch();
    b->prefixes.reserve(prefixes_per_batch * static_cast<std::size_t>(prefix_rows));
    std::size_t taken = 0;
    while (taken < prefixes_per_batch) {
      if (!prefix_search.next(&stop)) {
        prefixes_exhausted = true;
        break;
      }
      const auto prefix = prefix_search.queens();
      b->prefixes.insert(b->prefixes.end(), prefix.begin(), prefix.end());
      ++taken;
    }
    if (taken == 0) {
      return_batch(b);
      fc.stop();
      return nullptr;
    }
    if (prefix_rows == 0) b->prefixes.clear();  // the one empty prefix
    return b;
  };

  const auto keep = [&](batch* b, solution_view q) {
    if (options.unique) {
      const int class_size = class_size_if_canonical(q);
      if (class_size == 0) return false;
      b->class_sizes.push_back(static_cast<std::uint8_t>(class_size));
    }
    b->queens.insert(b->queens.end(), q.begin(), q.end());
    return true;
  };

  const auto search = [&](batch* b) -> batch* {
    const auto rows = static_cast<std::size_t>(prefix_rows);
    if (rows == 0) {  // a small board: one ordered search does it all
      detail::lexicographic_search completions(n, solution_view{}, n, max_first_column);
      std::uint64_t found = 0;
      while (completions.next(&stop)) {
        if (keep(b, completions.queens()) && ++found == options.limit) break;
      }
      return b;
    }
    // Below each prefix the lane-parallel kernel visits the completions in
    // its own order, about 4x faster per node than the ordered search here;
    // sorting the few dozen completions of a prefix, packed into integers,
    // restores the order.
    std::uint64_t found = 0;
    std::array<std::uint8_t, max_board_size> queens{};
    const std::size_t count = b->prefixes.size() / rows;
    for (std::size_t i = 0; i < count && !stop.load(std::memory_order_relaxed); ++i) {
      const solution_view prefix = solution_view(b->prefixes).subspan(i * rows, rows);
      std::copy(prefix.begin(), prefix.end(), queens.begin());
      b->keys.clear();
      detail::collect_completions(n, prefix, b->keys, kernels);
      std::sort(b->keys.begin(), b->keys.end());
      for (const std::uint64_t key : b->keys) {
        detail::unpack_completion(key, n, prefix_rows, queens);
        // No batch can contribute more than the limit.
        if (keep(b, solution_view(queens.data(), width)) && ++found == options.limit) return b;
      }
    }
    return b;
  };

  const auto deliver_all = [&](const batch* b) {
    const std::size_t count = b->queens.size() / width;
    for (std::size_t i = 0; i < count; ++i) {
      if (should_stop()) return;
      const listed_solution s{solution_view(b->queens).subspan(i * width, width),
                              options.unique ? b->class_sizes[i] : 1};
      if (!visit(s)) {
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      if (++result.delivered == options.limit) {
        stop.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };
  const auto deliver = [&](batch* b) {
    deliver_all(b);
    return_batch(b);
  };

  // A few batches in flight per thread keep every worker busy while the
  // delivery waits for the oldest; more would only hold memory.
  const auto tokens = static_cast<std::size_t>(threads) * 4;
  arena.execute([&] {
    tbb::parallel_pipeline(tokens, tbb::make_filter<void, batch*>(tbb::filter_mode::serial_in_order, cut) &
                                       tbb::make_filter<batch*, batch*>(tbb::filter_mode::parallel, search) &
                                       tbb::make_filter<batch*, void>(tbb::filter_mode::serial_in_order, deliver));
  });
  result.complete = !stop.load() && prefixes_exhausted;
  return result;
}

}  // namespace nqueens
