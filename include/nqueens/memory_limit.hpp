#pragma once

/// \file
/// The memory bound every engine sizes its tables by: this machine's default,
/// the error that refuses a run past it, and how both sizes are written.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace nqueens {

/// A run refused because it would need more memory than allowed.
class memory_limit_error : public std::runtime_error {
 public:
  /// What a refusal can advise.
  enum class remedy : std::uint8_t {
    shallower_split,  ///< a smaller split depth: fewer subproblems in the lists
    fewer_threads,    ///< fewer threads (its words say the most that fit)
    other_engine,     ///< another engine
    more_memory,      ///< a larger bound
  };
  /// A remedy and the words that name it ("fewer --threads (at most 3)").
  struct advice {
    remedy kind;
    std::string words;
  };

  /// A refusal in words of its own, no remedy told apart.
  explicit memory_limit_error(const std::string& what) : std::runtime_error(what), need_(what) {}
  /// `need`: what the run needs against what is allowed; `remedies`, in the
  /// order told: what() is `need`, then "; choose A, B, or C" ("; C" where
  /// there is one). `split_depth`: the split depth of the plan it priced, 0
  /// where no plan was priced; `at_least`: the least it would have had (an
  /// automatic split refused while its plan was built, at that depth).
  memory_limit_error(const std::string& need, std::vector<advice> remedies, int split_depth = 0, bool at_least = false);
  /// What the run needs against what is allowed: what() without its remedies.
  const std::string& need() const noexcept { return need_; }
  /// The remedies what() names, in its order.
  const std::vector<advice>& remedies() const noexcept { return remedies_; }
  /// Whether what() names remedy `r`.
  bool advises(remedy r) const noexcept;
  /// Whether a smaller split depth is a remedy the refusal advises.
  bool shallower_split_helps() const noexcept { return advises(remedy::shallower_split); }
  /// The split depth of the plan refused (the automatic split resolved),
  /// 0 where the refusal priced no plan (the engine's tables alone).
  int split_depth() const noexcept { return split_depth_; }
  /// True where split_depth() is the least the plan would have had.
  bool split_depth_at_least() const noexcept { return at_least_; }

 private:
  std::string need_;
  std::vector<advice> remedies_;
  int split_depth_ = 0;
  bool at_least_ = false;
};

/// How format_bytes rounds its last digit. A need is written rounded up: the
/// figure a refusal gives, passed back as the bound, is then enough.
enum class byte_rounding { nearest, up };

/// `bytes` for a message: "300 KiB", "12 MiB", "1.5 GiB", "8.0 EiB" (KiB
/// and MiB whole, GiB and larger units with one decimal), with `decimals`
/// more digits than that (a negative count reads as 0); "12582912 bytes"
/// past 3 more.
std::string format_bytes(std::uint64_t bytes, int decimals = 0, byte_rounding rounding = byte_rounding::nearest);

/// The fewest extra digits (format_bytes) at which `need`, rounded up, and
/// `limit` read differently, and `need` has two digits at least: a refusal
/// never says "about 12 MiB, more than the 12 MiB", nor "about 2 MiB" for
/// 1.02 MiB.
int digits_to_tell(std::uint64_t need, std::uint64_t limit);

/// Half the physical memory of this machine (or of its cgroup's limit): the
/// default memory bound.
std::uint64_t default_memory_limit() noexcept;

/// `max_memory`, or default_memory_limit() where it is 0 (what every unset
/// bound means: the library's max_memory fields take 0 for it; the CLI's
/// --max-memory takes sizes of 1M and more, and no option for the default).
std::uint64_t memory_limit_or_default(std::uint64_t max_memory) noexcept;

}  // namespace nqueens
