#pragma once

/// \file
/// Listing solutions, in lexicographic order of their column tuples: lazily
/// on the calling thread (solutions()), or searched on a oneTBB arena and
/// delivered in order (enumerate()).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <span>

#include "nqueens/isa.hpp"

namespace nqueens {

namespace detail {
class solution_cursor;
}

/// One solution: the column of the queen in each row (n entries, n <= 32).
/// Valid only during the call or until the iterator that produced it moves.
using solution_view = std::span<const std::uint8_t>;

/// The solutions of an n-board as a lazy input range, searched on the calling
/// thread one at a time, smallest tuple first. Allocates once, when built.
/// Every iterator of one range shares its place: a second begin() goes on
/// from the solution the first reached, as a generator does.
///
///     for (nqueens::solution_view s : nqueens::solutions(8)) use(s);
class solution_range {
 public:
  class iterator {
   public:
    using value_type = solution_view;
    using difference_type = std::ptrdiff_t;
    using iterator_concept = std::input_iterator_tag;

    iterator() = default;
    solution_view operator*() const noexcept;
    /// Steps to the next solution; past the last one (or default-constructed),
    /// does nothing.
    iterator& operator++() noexcept;
    void operator++(int) noexcept { ++*this; }
    /// True past the last solution, and for an iterator default-constructed.
    friend bool operator==(const iterator& it, std::default_sentinel_t) noexcept;

   private:
    friend class solution_range;
    explicit iterator(detail::solution_cursor* cursor) noexcept : cursor_(cursor) {}
    detail::solution_cursor* cursor_ = nullptr;
  };

  /// Throws std::invalid_argument for n outside 1..max_board_size.
  explicit solution_range(int n);
  ~solution_range();
  /// A range moved from holds nothing: it may only be destroyed or
  /// assigned to.
  solution_range(solution_range&&) noexcept;
  solution_range& operator=(solution_range&&) noexcept;

  /// The first call finds the first solution; a later one returns the
  /// solution reached so far (an input range is single-pass).
  iterator begin() noexcept;
  std::default_sentinel_t end() const noexcept { return {}; }

 private:
  std::unique_ptr<detail::solution_cursor> cursor_;
};

/// The solutions of an n-board, smallest tuple first (see solution_range).
solution_range solutions(int n);

/// One solution delivered by enumerate().
struct listed_solution {
  solution_view columns{};
  /// With enumerate_options::unique, the size of its symmetry class (1, 2, 4
  /// or 8); otherwise 1.
  int class_size = 1;
};

/// Options for enumerate().
struct enumerate_options {
  /// Worker threads searching ahead of the delivery; 0 means every hardware thread.
  int threads = 0;
  /// One solution per class under the 8 symmetries of the board: the one
  /// with the smallest tuple in its class, delivered with the class size.
  bool unique = false;
  /// Stop after this many solutions; 0 for no limit. The search stops too:
  /// a small limit costs the search up to those solutions, hundredths of a
  /// second up to n = 29, seconds at n = 30 and 32, where the smallest
  /// tuples lie behind long dead ends.
  std::uint64_t limit = 0;
  /// When set and true, the search stops and enumerate() returns.
  const std::atomic<bool>* cancel = nullptr;
  /// The kernels to search with (default: active_isa()), as count_options'.
  std::optional<isa> kernels{};
};

/// What enumerate() did.
struct enumerate_result {
  /// Solutions passed to the visitor.
  std::uint64_t delivered = 0;
  /// True when every solution (or class) was delivered and the search ran to
  /// its end: false when it stopped at the limit (even a limit equal to the
  /// number of solutions: no search past it tells), for the visitor or on
  /// cancellation.
  bool complete = false;
};

/// Called for each solution in lexicographic order, one call at a time (from
/// one of the arena's threads); returns false to stop the enumeration.
using solution_visitor = std::function<bool(const listed_solution&)>;

/// Searches the solutions of an n-board on `options.threads` threads and
/// passes them to `visit` in lexicographic order, the same for every thread
/// count. Memory stays bounded: workers run at most a few batches ahead of
/// the delivery. An exception thrown by `visit` stops the search and
/// propagates. Throws std::invalid_argument for n outside 1..max_board_size,
/// a thread count outside 0..max_threads, an empty `visit` or kernels that
/// name no instruction set; isa_error where the kernels asked for (or
/// NQUEENS_ISA's, for none) are ones this CPU lacks.
enumerate_result enumerate(int n, const enumerate_options& options, const solution_visitor& visit);

}  // namespace nqueens
