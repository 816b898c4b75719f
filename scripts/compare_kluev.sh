#!/usr/bin/env bash
# Times nqueens and another counter side by side, alternately, on one board:
#   scripts/compare_kluev.sh OTHER_BINARY N THREADS [ROUNDS]
# OTHER_BINARY is run as `OTHER_BINARY THREADS` (EvgenyKluev/N-Queens-Count-Sol's
# calling convention; its board size is compiled in: build it for N, see
# docs/performance.md). nqueens is build/release/nqueens (in NQ_BUILD_DIR where
# that is set) unless $NQUEENS is set.
# Prints each round, then the medians and their ratio. Wall times from the
# shell clock, so both programs pay for their own start-up and tables.
set -euo pipefail
# Numbers read and written with a decimal point, as nqueens writes them,
# whatever the user's locale: under de_DE.UTF-8 awk read "0.72" as 0 and
# printed "0,72".
export LC_ALL=C.UTF-8
usage="usage: scripts/compare_kluev.sh OTHER_BINARY N THREADS [ROUNDS]"
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
  exit 0
fi
if (($# < 3 || $# > 4)); then
  echo "$usage" >&2
  exit 2
fi
other=$1 n=$2 threads=$3 rounds=${4:-3}
# The build folder scripts/run.sh builds (NQ_BUILD_DIR, as every script
# reads it), found through a link to this script too.
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
nqueens=${NQUEENS:-${NQ_BUILD_DIR:-$root/build/release}/nqueens}
for value in "$n" "$threads" "$rounds"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "compare_kluev.sh: '$value' is not a positive whole number" >&2; exit 2; }
done
# By their digits first: bash's arithmetic wraps past 2^63.
((${#n} <= 2 && n <= 32)) || { echo "compare_kluev.sh: N = $n is past nqueens' boards (1 to 32)" >&2; exit 2; }
((${#threads} <= 4 && threads <= 1024)) || { echo "compare_kluev.sh: $threads threads is past nqueens' 1024" >&2; exit 2; }
((${#rounds} <= 3 && rounds <= 100)) || { echo "compare_kluev.sh: $rounds rounds is more than 100" >&2; exit 2; }
[[ -f $other && -x $other ]] || { echo "compare_kluev.sh: $other is not an executable file" >&2; exit 2; }
[[ $other == */* ]] || other=./$other  # a bare name is the file checked here, not one on PATH
if [[ ! -x $nqueens ]]; then
  if [[ -n ${NQUEENS:-} ]]; then
    echo "compare_kluev.sh: NQUEENS=$nqueens is not an executable" >&2
  else
    echo "compare_kluev.sh: $nqueens is not built (scripts/run.sh builds it)" >&2
  fi
  exit 2
fi

seconds() {  # runs "$@" and prints its wall time in seconds, or fails with it
  local start end
  start=$(date +%s.%N)
  # Tested here: inside $(...) bash does not apply set -e, and a failed run
  # must not be timed as if it had counted.
  "$@" > /dev/null || { echo "compare_kluev.sh: '$*' failed (exit $?)" >&2; return 1; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ours=() theirs=()
for ((r = 1; r <= rounds; ++r)); do
  a=$(seconds "$nqueens" count "$n" -t "$threads" --no-progress)
  b=$(seconds "$other" "$threads")
  ours+=("$a") theirs+=("$b")
  printf 'round %d: nqueens %.2f s, other %.2f s\n' "$r" "$a" "$b"
done
mo=$(printf '%s\n' "${ours[@]}" | median)
mt=$(printf '%s\n' "${theirs[@]}" | median)
printf 'Q(%d) on %d thread(s), medians of %d: nqueens %.2f s, other %.2f s, ratio %.2fx\n' \
  "$n" "$threads" "$rounds" "$mo" "$mt" "$(awk -v a="$mt" -v b="$mo" 'BEGIN { print a / b }')"
