#include "nqueens/enumerate.hpp"

#include <tbb/parallel_pipeline.h>

#include <algorithm>
#include <array>
#include <atomic>
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
#include "run/worker_arena.hpp"

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

namespace detail {

// The search and where the range's iterators stand in it: shared by them,
// so that one begin() after another goes on rather than skipping.
class solution_cursor {
 public:
  explicit solution_cursor(int n) noexcept : search_(n, solution_view{}, n, n - 1) {}

  void start() noexcept {
    if (started_) return;
    started_ = true;
    advance();
  }
  void advance() noexcept { at_end_ = !search_.next(); }
  bool at_end() const noexcept { return at_end_; }
  solution_view queens() const noexcept { return search_.queens(); }

 private:
  lexicographic_search search_;
  bool started_ = false;
  bool at_end_ = true;
};

}  // namespace detail

bool operator==(const solution_range::iterator& it, std::default_sentinel_t) noexcept {
  return it.cursor_ == nullptr || it.cursor_->at_end();
}

solution_view solution_range::iterator::operator*() const noexcept { return cursor_->queens(); }

solution_range::iterator& solution_range::iterator::operator++() noexcept {
  // One default-constructed is past the end, as one exhausted is: stepping
  // it does nothing.
  if (cursor_ != nullptr) cursor_->advance();
  return *this;
}

solution_range::solution_range(int n) {
  require_valid_board_size(n);
  cursor_ = std::make_unique<detail::solution_cursor>(n);
}

solution_range::~solution_range() = default;
solution_range::solution_range(solution_range&&) noexcept = default;
solution_range& solution_range::operator=(solution_range&&) noexcept = default;

solution_range::iterator solution_range::begin() noexcept {
  cursor_->start();
  return iterator(cursor_.get());
}

solution_range solutions(int n) { return solution_range(n); }

namespace {

// One enumeration: a pipeline that cuts prefixes into batches in order
// (cut), searches the batches in parallel (search) and hands their
// solutions to the visitor in order (deliver).
class enumeration {
 public:
  enumeration(int n, const enumerate_options& options, const solution_visitor& visit)
      : n_(n),
        options_(options),
        visit_(visit),
        kernels_(runnable_isa(options.kernels)),
        // The canonical member of a class has the smallest first entry, and
        // the left-right mirror maps q[0] to n - 1 - q[0]: so q[0] <= (n - 1) / 2.
        max_first_column_(options.unique ? (n - 1) / 2 : n - 1),
        // Tasks search the last 10 rows below a prefix: small enough (< 1 ms,
        // a few thousand solutions per batch at most n) that memory stays
        // bounded and a stop takes effect at once, large enough that the
        // serial prefix search above them is a few percent of the work.
        prefix_rows_(std::max(0, n - 10)),
        prefixes_per_batch_(prefix_rows_ <= 1   ? 1
                            : prefix_rows_ == 2 ? 4
                            : prefix_rows_ == 3 ? 16
                                                : 64),
        prefix_search_(n, solution_view{}, prefix_rows_, max_first_column_) {
    static_assert(10 <= detail::max_packed_rows);
  }

  enumerate_result run(detail::worker_arena& arena) {
    // A few batches in flight per thread keep every worker busy while the
    // delivery waits for the oldest; more would only hold memory.
    const auto tokens = static_cast<std::size_t>(arena.threads()) * 4;
    arena.execute([&] {
      tbb::parallel_pipeline(
          tokens,
          tbb::make_filter<void, batch*>(tbb::filter_mode::serial_in_order,
                                         [this](tbb::flow_control& fc) { return cut(fc); }) &
              tbb::make_filter<batch*, batch*>(tbb::filter_mode::parallel, [this](batch* b) { return search(b); }) &
              tbb::make_filter<batch*, void>(tbb::filter_mode::serial_in_order, [this](batch* b) { deliver(b); }));
    });
    result_.complete = !stop_.load() && prefixes_exhausted_;
    return result_;
  }

 private:
  // Batches are recycled (cut takes, deliver gives back): the pool owns them
  // all, so none leaks when a visitor throws mid-pipeline.
  batch* take_batch() {
    const std::lock_guard lock(pool_mutex_);
    if (idle_.empty()) return pool_.emplace_back(std::make_unique<batch>()).get();
    batch* b = idle_.back();
    idle_.pop_back();
    b->prefixes.clear();
    b->queens.clear();
    b->class_sizes.clear();
    return b;
  }

  void return_batch(batch* b) {
    const std::lock_guard lock(pool_mutex_);
    idle_.push_back(b);
  }

  bool should_stop() {
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
      stop_.store(true, std::memory_order_relaxed);
    }
    return stop_.load(std::memory_order_relaxed);
  }

  batch* cut(tbb::flow_control& fc) {
    if (should_stop() || prefixes_exhausted_) {
      fc.stop();
      return nullptr;
    }
    batch* b = take_batch();
    b->prefixes.reserve(prefixes_per_batch_ * static_cast<std::size_t>(prefix_rows_));
    std::size_t taken = 0;
    while (taken < prefixes_per_batch_) {
      if (!prefix_search_.next(&stop_)) {
        prefixes_exhausted_ = true;
        break;
      }
      const auto prefix = prefix_search_.queens();
      b->prefixes.insert(b->prefixes.end(), prefix.begin(), prefix.end());
      ++taken;
    }
    if (taken == 0) {
      return_batch(b);
      fc.stop();
      return nullptr;
    }
    if (prefix_rows_ == 0) b->prefixes.clear();  // the one empty prefix
    return b;
  }

  bool keep(batch* b, solution_view q) const {
    if (options_.unique) {
      const int class_size = class_size_if_canonical(q);
      if (class_size == 0) return false;
      b->class_sizes.push_back(static_cast<std::uint8_t>(class_size));
    }
    b->queens.insert(b->queens.end(), q.begin(), q.end());
    return true;
  }

  batch* search(batch* b) {
    const auto rows = static_cast<std::size_t>(prefix_rows_);
    if (rows == 0) {  // a small board: one ordered search does it all
      detail::lexicographic_search completions(n_, solution_view{}, n_, max_first_column_);
      std::uint64_t found = 0;
      while (completions.next(&stop_)) {
        if (keep(b, completions.queens()) && ++found == options_.limit) break;
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
    for (std::size_t i = 0; i < count && !stop_.load(std::memory_order_relaxed); ++i) {
      const solution_view prefix = solution_view(b->prefixes).subspan(i * rows, rows);
      std::copy(prefix.begin(), prefix.end(), queens.begin());
      b->keys.clear();
      detail::collect_completions(n_, prefix, b->keys, kernels_);
      std::sort(b->keys.begin(), b->keys.end());
      for (const std::uint64_t key : b->keys) {
        detail::unpack_completion(key, n_, prefix_rows_, queens);
        // No batch can contribute more than the limit.
        if (keep(b, solution_view(queens.data(), static_cast<std::size_t>(n_))) && ++found == options_.limit) {
          return b;
        }
      }
    }
    return b;
  }

  void deliver(batch* b) {
    const auto width = static_cast<std::size_t>(n_);
    const std::size_t count = b->queens.size() / width;
    for (std::size_t i = 0; i < count && !should_stop(); ++i) {
      const listed_solution s{solution_view(b->queens).subspan(i * width, width),
                              options_.unique ? b->class_sizes[i] : 1};
      ++result_.delivered;  // passed to the visitor, whatever it answers
      if (!visit_(s) || result_.delivered == options_.limit) {
        stop_.store(true, std::memory_order_relaxed);
        break;
      }
    }
    return_batch(b);
  }

  int n_;
  const enumerate_options& options_;
  const solution_visitor& visit_;
  isa kernels_;
  int max_first_column_;
  int prefix_rows_;
  std::size_t prefixes_per_batch_;
  detail::lexicographic_search prefix_search_;
  std::atomic<bool> stop_{false};
  bool prefixes_exhausted_ = false;
  enumerate_result result_;
  std::vector<std::unique_ptr<batch>> pool_;
  std::vector<batch*> idle_;
  std::mutex pool_mutex_;
};

}  // namespace

enumerate_result enumerate(int n, const enumerate_options& options, const solution_visitor& visit) {
  require_valid_board_size(n);
  if (!visit) throw std::invalid_argument("enumerate: the visitor is empty");  // not bad_function_call, mid-search
  detail::worker_arena arena(options.threads);
  enumeration e(n, options, visit);
  return e.run(arena);
}

}  // namespace nqueens
