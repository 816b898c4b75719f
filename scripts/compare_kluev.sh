#!/usr/bin/env bash
# Times nqueens and another counter side by side, alternately, on one board:
#   scripts/compare_kluev.sh OTHER_BINARY N THREADS [ROUNDS]
# OTHER_BINARY is run as `OTHER_BINARY THREADS` (EvgenyKluev/N-Queens-Count-Sol's
# calling convention; its board size is compiled in: build it for N, see
# docs/performance.md). nqueens is build/release/nqueens (in NQ_BUILD_DIR where
# that is set) unless $NQUEENS is set.
# Prints each round (each program first in every other), then the medians,
# their ratio and the median of the rounds' own ratios. Wall times from the
# shell clock, so both programs pay for their own start-up and tables. Each
# round checks that the other's output holds Q(N) as nqueens counted it
# (exit 1 where not: built for another N).
set -euo pipefail
# Numbers read and written with a decimal point, as nqueens writes them,
# whatever the user's locale: under de_DE.UTF-8 awk read "0.72" as 0 and
# printed "0,72".
export LC_ALL=C.UTF-8
usage="usage: scripts/compare_kluev.sh OTHER_BINARY N THREADS [ROUNDS]"
for arg in "$@"; do  # wherever it is given, as in every script
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
if (($# < 3 || $# > 4)); then
  echo "$usage" >&2
  exit 2
fi
other=$1 n=$2 threads=$3 rounds=${4:-3}
# The build folder scripts/run.sh builds (NQ_BUILD_DIR, as every script
# reads it), found through a link to this script too.
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
nqueens=${NQUEENS:-${NQ_BUILD_DIR:-$root/build/release}/nqueens}
for name in N THREADS ROUNDS; do
  case $name in
    N) value=$n ;;
    THREADS) value=$threads ;;
    ROUNDS) value=$rounds ;;
  esac
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "compare_kluev.sh: $name '$value' is not a positive whole number" >&2; exit 2; }
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

outputs=$(mktemp -d)
trap 'rm -rf "$outputs"' EXIT
seconds() {  # seconds FILE COMMAND...: runs it, its output to FILE, and prints its wall time, or fails with it
  local start end out=$1
  shift
  start=$(date +%s.%N)
  # Tested here: inside $(...) bash does not apply set -e, and a failed run
  # must not be timed as if it had counted.
  "$@" >"$out" || { echo "compare_kluev.sh: '$*' failed (exit $?)" >&2; return 1; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ours=() theirs=() ratios=()
for ((r = 1; r <= rounds; ++r)); do
  # Each goes first in every other round: a machine that speeds up or slows
  # down over a round (a neighbour's job, the clock) weighs on both alike.
  if ((r % 2)); then
    a=$(seconds "$outputs/ours" "$nqueens" count "$n" -t "$threads" --no-progress)
    b=$(seconds "$outputs/theirs" "$other" "$threads")
  else
    b=$(seconds "$outputs/theirs" "$other" "$threads")
    a=$(seconds "$outputs/ours" "$nqueens" count "$n" -t "$threads" --no-progress)
  fi
  # The other's answer holds Q(N) as a word: a build of its compiled-in
  # board size for another N timed another board.
  total=$(sed -n 's/^Q([0-9]*) = \([0-9]*\).*/\1/p' "$outputs/ours")
  if [[ -z $total ]]; then
    echo "compare_kluev.sh: $nqueens printed no 'Q($n) = ...' line: is it nqueens?" >&2
    exit 1
  fi
  # A whole number, not the digits of a time ("0.92 s" holds no Q(8)).
  if ! grep -qE -- "(^|[^0-9.])$total([^0-9.]|\$)" "$outputs/theirs"; then
    echo "compare_kluev.sh: $other printed no $total, Q($n) (built for another board size?); it printed:" \
      "'$(tail -c 200 "$outputs/theirs" | tr '\n' ' ')'" >&2
    exit 1
  fi
  ours+=("$a") theirs+=("$b") ratios+=("$(awk -v a="$b" -v b="$a" 'BEGIN { print a / b }')")
  printf 'round %d: nqueens %.2f s, other %.2f s\n' "$r" "$a" "$b"
done
mo=$(printf '%s\n' "${ours[@]}" | median)
mt=$(printf '%s\n' "${theirs[@]}" | median)
# The ratio of the medians, and the median of each round's own ratio (the
# two programs' times taken side by side): far apart, the rounds varied.
printf 'Q(%d) on %d thread(s), medians of %d: nqueens %.2f s, other %.2f s, ratio %.2fx (median of the rounds'"'"' ratios %.2fx)\n' \
  "$n" "$threads" "$rounds" "$mo" "$mt" "$(awk -v a="$mt" -v b="$mo" 'BEGIN { print a / b }')" \
  "$(printf '%s\n' "${ratios[@]}" | median)"
