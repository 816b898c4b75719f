#include "nqueens/verify.hpp"

#include "nqueens/known_counts.hpp"

namespace nqueens {

verification verify(int n, uint128 total) noexcept {
  verification v;
  v.published_total = published_total(n);
  if (v.published_total) v.total = total == *v.published_total ? verdict::match : verdict::mismatch;
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
