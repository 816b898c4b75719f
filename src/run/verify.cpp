#include "nqueens/verify.hpp"

#include "nqueens/known_counts.hpp"

namespace nqueens {

namespace {
verdict compare(std::optional<std::uint64_t> published, uint128 counted) {
  if (!published) return verdict::unknown;
  return counted == *published ? verdict::match : verdict::mismatch;
}
}  // namespace

verification verify(int n, std::optional<uint128> total, std::optional<uint128> unique,
                    std::optional<uint128> symmetric_180, std::optional<uint128> symmetric_90) noexcept {
  verification v;
  v.published_total = published_total(n);
  v.published_unique = published_unique(n);
  v.published_symmetric_180 = published_symmetric_180(n);
  v.published_symmetric_90 = published_symmetric_90(n);
  v.has_total = total.has_value();
  v.has_unique = unique.has_value();
  v.has_symmetric_180 = symmetric_180.has_value();
  v.has_symmetric_90 = symmetric_90.has_value();
  if (total) v.total = compare(v.published_total, *total);
  if (unique) v.unique = compare(v.published_unique, *unique);
  if (symmetric_180) v.symmetric_180 = compare(v.published_symmetric_180, *symmetric_180);
  if (symmetric_90) v.symmetric_90 = compare(v.published_symmetric_90, *symmetric_90);
  return v;
}

const char* to_string(verdict v) noexcept {
  switch (v) {
    case verdict::match:
      return "match";
    case verdict::mismatch:
      return "mismatch";
    case verdict::unknown:
      break;
  }
  return "unknown";
}

}  // namespace nqueens
