#include "nqueens/verify.hpp"

#include "nqueens/known_counts.hpp"

namespace nqueens {

namespace {
verdict compare(std::optional<std::uint64_t> published, uint128 counted) {
  if (!published) return verdict::unknown;
  return counted == *published ? verdict::match : verdict::mismatch;
}
}  // namespace

verification verify(int n, uint128 total, std::optional<uint128> unique) noexcept {
  verification v;
  v.published_total = published_total(n);
  v.published_unique = published_unique(n);
  v.total = compare(v.published_total, total);
  if (unique) v.unique = compare(v.published_unique, *unique);
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
