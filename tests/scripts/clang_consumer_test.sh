#!/usr/bin/env bash
# A Clang program calling the GCC-built library gets the counts it passed:
# a 128-bit count by value that straddles the registers and the stack is
# passed one way by GCC and another by Clang before 18 (a known LLVM bug),
# so the public functions take such counts by reference. The call is made
# with the stack slot beside the arguments dirty, where a count read from
# the wrong place shows. Skipped where no clang++ is installed.
#   clang_consumer_test.sh LIBNQUEENS_A INCLUDE_DIR [LIBTBB]
set -euo pipefail
library=$1 include=$2 tbb=${3:--ltbb}
command -v clang++ >/dev/null || { echo "clang_consumer: no clang++, skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/consumer.cpp" <<'CPP'
#include <cstdio>
#include <nqueens/count_types.hpp>
// Its last two arguments go on the stack, where the call below passes its
// own: one of them is left there for a count read from the wrong slot.
[[gnu::noinline]] long eight(long a, long b, long c, long d, long e, long f, long g, long h) {
  return a + b + c + d + e + f + g + h;
}
int main() {
  if (eight(1, 2, 3, 4, 5, 6, 7, 7) != 35) return 2;
  const nqueens::uint128 unique = nqueens::fundamental_count(8, 92, 4, 0);
  const nqueens::uint128 sum = nqueens::checked_add(nqueens::uint128{1} << 100, 5);
  std::printf("%s %s\n", nqueens::to_string(unique).c_str(), nqueens::to_string(sum).c_str());
  return 0;
}
CPP
clang++ -std=c++20 -O2 -I"$include" "$work/consumer.cpp" "$library" "$tbb" -o "$work/consumer"
out=$("$work/consumer")
[[ $out == "12 1267650600228229401496703205381" ]] || { echo "FAIL: a Clang program got '$out'" >&2; exit 1; }
echo "clang_consumer: a Clang program gets Q(8)'s fundamental count, 12"
