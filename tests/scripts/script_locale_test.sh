#!/usr/bin/env bash
# compare_kluev.sh writes its times and ratio with a decimal point, as
# nqueens writes its own, under a locale whose decimal sign is a comma
# (de_DE.UTF-8, built here into a folder of the test's own: LOCPATH). There
# mawk read a "0.72" of its input as 0 and wrote "0,72"; the scripts that
# compute with times (compare_kluev.sh, gpu.sh, scaling.sh) now run in
# C.UTF-8. $1: the nqueens binary. Exit 77 (skipped) where no such locale
# can be built: the locales package, which scripts/test.sh installs, is missing.
set -euo pipefail
nqueens=$1
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

if ! localedef -i de_DE -f UTF-8 "$work/de_DE.UTF-8" >"$work/localedef.out" 2>&1; then
  echo "skipped: localedef could not build de_DE.UTF-8 (the locales package): $(tail -1 "$work/localedef.out")"
  exit 77
fi
# The locale goes to the commands run, through env: this shell cannot take
# it (bash's setlocale reads no LOCPATH it exported itself: it warned, and
# the check below failed where de_DE.UTF-8 was not installed system-wide).
export LOCPATH=$work
german=(env LC_ALL=de_DE.UTF-8)
# The locale is in force, or this test would prove nothing (bash's printf
# writes the locale's decimal sign; gawk, unlike mawk, reads a point anyway).
# shellcheck disable=SC2016 # expanded by the inner bash
decimal=$("${german[@]}" bash -c 'printf "%.1f" 1' 2>&1)
[[ $decimal == "1,0" ]] || fail "de_DE.UTF-8 is not in force: printf wrote '$decimal'"

printf '#!/bin/sh\nsleep 0.2\necho "Result: 92"\n' >"$work/other"  # Q(8), as Kluev's counter says it
chmod +x "$work/other"
out=$(NQUEENS=$nqueens "${german[@]}" bash "$repo/scripts/compare_kluev.sh" "$work/other" 8 1 2)
last=$(tail -1 <<<"$out")
# Two rounds: the medians are means of two, computed by awk.
[[ $last =~ ^Q\(8\)\ on\ 1\ thread\(s\),\ medians\ of\ 2:\ nqueens\ [0-9]+\.[0-9]{2}\ s,\ other\ [0-9]+\.[0-9]{2}\ s,\ ratio\ [0-9.e+-]+x\ \(median\ of\ the\ rounds\'\ ratios\ [0-9.e+-]+x\)$ ]] ||
  fail "compare_kluev.sh under de_DE.UTF-8 wrote: $out"
[[ $out != *,[0-9]* ]] || fail "a figure written with a decimal comma: $out"
# A counter built for another board (its size is compiled in) timed
# another count: refused, not given a ratio.
printf '#!/bin/sh\necho "Result: 352"\necho "Elapsed time: 0.92 s"\n' >"$work/other-board"  # 92, but a time's
chmod +x "$work/other-board"
status=0
out=$(NQUEENS=$nqueens "${german[@]}" bash "$repo/scripts/compare_kluev.sh" "$work/other-board" 8 1 1 2>&1) || status=$?
[[ $status == 1 && $out == *"printed no 92, Q(8) (built for another board size?)"* && $out != *ratio* ]] ||
  fail "a counter of another board gave exit $status: $out"
echo "compare_kluev.sh under de_DE.UTF-8: $last"
