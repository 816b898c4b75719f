#include "engines/quadrant/transposed_pairs.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "engines/checked_count.hpp"
#include "engines/join_model/digit_widths.hpp"
#include "engines/join_model/half_masks.hpp"
#include "engines/join_model/quarter_tables.hpp"

namespace nqueens::detail {

namespace {

// Whether the tags `live` would make the count of north and south load one
// table entry more per visit, on groups large enough for the visits to
// outweigh preparing them again: then the ties' pairs are cheaper counted
// apart. Measured (Intel Xeon, 2026-11-25): an n = 24 subproblem whose window
// keeps almost everything took 1.7 s unfiltered, 2.6 s with a digit more,
// 2.0 s apart; at n = 20, whose groups hold tens of thousands of halves,
// tags were 11% faster than apart wherever they add a load.
bool tags_cost_a_load(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south, std::uint64_t live,
                      const pair_scratch& scratch) noexcept {
  const auto n = static_cast<double>(north.size()), s = static_cast<double>(south.size());
  constexpr double pairs_per_half = 1e5;  // |N| |S| / (|N| + |S|): a visit per 512 pairs, a preparation per half
  if (live == 0 || n * s < pairs_per_half * (n + s)) return false;
  std::uint64_t in_north = 0, in_south = 0;
  for (const std::uint64_t x : north) in_north |= x;
  for (const std::uint64_t y : south) in_south |= y;
  const std::uint64_t used = in_north & in_south;
  return loads_per_visit(north.size(), south.size(), used | live, scratch.masks_per_key_class,
                         scratch.widest_digits_from) >
         loads_per_visit(north.size(), south.size(), used, scratch.masks_per_key_class, scratch.widest_digits_from);
}

// Whether the ties are ruled out by tags (else counted apart).
bool use_tags(tie_counting ties, std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
              std::uint64_t live, const pair_scratch& scratch) noexcept {
  return ties == tie_counting::tags ||
         (ties == tie_counting::by_cost && !tags_cost_a_load(north, south, live, scratch));
}

// Each once pair's halves, first group's against the second's.
std::uint64_t once_count(std::span<std::uint64_t> first, std::span<const row_run> first_runs,
                         std::span<std::uint64_t> second, std::span<const row_run> second_runs, const filter_rule& rule,
                         const pair_count& count) {
  const once_pairs once = once_pairs_of(rule);
  std::uint64_t total = 0;
  for (int k = 0; k < 4; ++k) {
    if ((once.valid >> k & 1U) == 0) continue;
    total = checked_sum(total, count(halves_with_rows(first, first_runs, once.first[k], once.first[k]),
                                     halves_with_rows(second, second_runs, once.second[k], once.second[k])));
  }
  return total;
}

}  // namespace

std::uint64_t transposed_pairs(std::span<std::uint64_t> north, std::span<row_run> north_runs,
                               std::span<std::uint64_t> south, std::span<row_run> south_runs, const filter_rule& rule,
                               tie_counting ties, run_sorter& sorter, const pair_count& count) {
  const std::uint32_t c = rule.c, c_bar = rule.c_bar, a = rule.a, a_bar = rule.a_bar;
  // Counted before the north has tags (the south's cannot meet an untagged north).
  const std::uint64_t once = once_count(north, north_runs, south, south_runs, rule, count);
  // A tag only where both sides have its tie (else it would cost a pass
  // and rule out nothing).
  const auto has = [](std::span<const row_run> runs, std::uint32_t rows) {
    return std::any_of(runs.begin(), runs.end(), [rows](const row_run& r) { return r.rows == rows; });
  };
  const std::uint64_t live = (has(north_runs, c) ? tie_tag_c : 0) | (has(north_runs, c_bar) ? tie_tag_c_bar : 0) |
                             (has(south_runs, c) ? tie_tag_low : 0) | (has(south_runs, c_bar) ? tie_tag_high : 0);
  std::uint64_t twice = 0;
  if (use_tags(ties, north, south, live, count.scratch)) {
    tag_runs(north, north_runs, [&](std::uint32_t x) { return north_tie_tags(rule, x) & live; });
    tag_runs(south, south_runs, [&](std::uint32_t y) { return south_tie_tags(rule, y) & live; });
    twice = count(north, south);
  } else {
    // The same pairs as the tags leave, counted apart: the halves strictly
    // inside (c, ~c) on both sides, then each tie run against the other
    // group's runs it counts twice with.
    order_runs(north, north_runs, sorter);
    order_runs(south, south_runs, sorter);
    const auto rows = [](std::span<std::uint64_t> list, std::span<const row_run> runs, std::uint32_t lowest,
                         std::uint32_t highest) {
      return lowest <= highest ? halves_with_rows(list, runs, lowest, highest) : std::span<std::uint64_t>{};
    };
    twice = count(rows(north, north_runs, c + 1, c_bar - 1), rows(south, south_runs, c + 1, c_bar - 1));
    twice = checked_sum(twice, count(rows(north, north_runs, c, c), rows(south, south_runs, a + 1, UINT32_MAX)));
    if (a_bar > 0) {
      twice = checked_sum(twice, count(rows(north, north_runs, c_bar, c_bar), rows(south, south_runs, 0, a_bar - 1)));
    }
    twice = checked_sum(twice, count(rows(south, south_runs, c, c), rows(north, north_runs, a + 1, c_bar - 1)));
    if (a_bar > 0) {
      twice =
          checked_sum(twice, count(rows(south, south_runs, c_bar, c_bar), rows(north, north_runs, c + 1, a_bar - 1)));
    }
  }
  return filtered_share(twice, once);
}

std::size_t partition_by_column_h(std::uint64_t* list, std::vector<row_run>& runs, int tag_shift,
                                  const filter_rule& rule) noexcept {
  const std::uint64_t tag_bits = row_tag_bits(tag_shift);
  constexpr auto twice = static_cast<std::uint64_t>(holder_kind::twice);
  constexpr auto tie_c = static_cast<std::uint64_t>(holder_kind::tie_c);
  constexpr auto tie_c_bar = static_cast<std::uint64_t>(holder_kind::tie_c_bar);
  constexpr auto dropped = static_cast<std::uint64_t>(holder_kind::dropped);
  // The kind of each half, in its tag bits. Counted in locals, not in an
  // array: a std::size_t may alias the list's words, so each increment of
  // an array's element went through memory, one after the other.
  std::size_t twice_count = 0, tie_c_count = 0, tie_c_bar_count = 0, total = 0;
  std::size_t start = 0;
  for (const row_run& r : runs) {
    const holder_kind at_distance = holder_kind_at_distance(rule, r.rows);
    const std::size_t end = r.end;  // read once (see tag_runs)
    for (std::size_t i = start; i < end; ++i) {
      const auto kind =
          static_cast<std::uint64_t>(holder_kind_of(rule, column_h_row_of(list[i], tag_shift), at_distance));
      list[i] = (list[i] & ~tag_bits) | (kind << tag_shift);
      twice_count += kind == twice ? 1 : 0;
      tie_c_count += kind == tie_c ? 1 : 0;
      tie_c_bar_count += kind == tie_c_bar ? 1 : 0;
    }
    total += end - start;
    start = end;
  }
  std::array<std::size_t, 4> sizes{};
  sizes[twice] = twice_count;
  sizes[tie_c] = tie_c_count;
  sizes[tie_c_bar] = tie_c_bar_count;
  sizes[dropped] = total - twice_count - tie_c_count - tie_c_bar_count;
  // In place, by kind: twice, tie c, tie ~c, dropped.
  std::array<std::size_t, 4> next{}, last{};
  const std::array<std::uint64_t, 4> order = {twice, tie_c, tie_c_bar, dropped};
  std::size_t at = 0;
  for (const std::uint64_t kind : order) {
    next[kind] = at;
    at += sizes[kind];
    last[kind] = at;
  }
  for (const std::uint64_t kind : order) {
    while (next[kind] < last[kind]) {
      const std::uint64_t found = (list[next[kind]] >> tag_shift) & 3U;
      if (found == kind) {
        ++next[kind];
      } else {
        std::swap(list[next[kind]], list[next[found]]);
        ++next[found];
      }
    }
  }
  const std::size_t kept = sizes[twice] + sizes[tie_c] + sizes[tie_c_bar];
  for (std::size_t i = 0; i < kept; ++i) list[i] &= ~tag_bits;
  runs.clear();
  for (const auto& [rows, kind] :
       {std::pair{twice_rows, twice}, std::pair{rule.c, tie_c}, std::pair{rule.c_bar, tie_c_bar}}) {
    if (sizes[kind] != 0) runs.push_back({rows, last[kind]});
  }
  return kept;
}

std::uint64_t column_h_pairs(std::span<std::uint64_t> holder, std::span<const row_run> holder_runs,
                             std::span<std::uint64_t> other, std::span<const row_run> other_runs,
                             const filter_rule& rule, tie_counting ties, const pair_count& count) {
  const std::uint32_t c = rule.c, c_bar = rule.c_bar, a_bar = rule.a_bar;
  const std::uint64_t once = once_count(holder, holder_runs, other, other_runs, rule, count);
  const bool has_c = std::any_of(holder_runs.begin(), holder_runs.end(), [c](const row_run& r) { return r.rows == c; });
  const bool has_c_bar =
      std::any_of(holder_runs.begin(), holder_runs.end(), [c_bar](const row_run& r) { return r.rows == c_bar; });
  const std::uint64_t live = (has_c ? tie_tag_c : 0) | (has_c_bar ? tie_tag_c_bar : 0);
  std::uint64_t twice = 0;
  if (use_tags(ties, holder, other, live, count.scratch)) {
    tag_runs(holder, holder_runs, [&](std::uint32_t p) {
      return holder_tie_tags(p == c ? holder_kind::tie_c : p == c_bar ? holder_kind::tie_c_bar : holder_kind::twice);
    });
    tag_runs(other, other_runs, [&](std::uint32_t q) { return other_tie_tags(rule, q) & live; });
    twice = count(holder, other);
  } else {
    // which is walked, which blocked: count decides
    twice = count(halves_with_rows(holder, holder_runs, twice_rows, twice_rows), other);
    twice = checked_sum(twice, count(halves_with_rows(holder, holder_runs, c, c),
                                     halves_with_rows(other, other_runs, rule.above, UINT32_MAX)));
    if (a_bar > 0 || rule.to_a_bar) {
      twice = checked_sum(twice, count(halves_with_rows(holder, holder_runs, c_bar, c_bar),
                                       halves_with_rows(other, other_runs, 0, rule.to_a_bar ? a_bar : a_bar - 1)));
    }
  }
  return filtered_share(twice, once);
}

}  // namespace nqueens::detail
