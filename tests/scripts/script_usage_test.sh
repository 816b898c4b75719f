#!/usr/bin/env bash
# What the scripts refuse, they refuse at once, in one line, with exit 2,
# before any install or build: a bad N or a --csv of its own to
# scaling.sh, a board or thread count past nqueens' to compare_kluev.sh.
# And nq_build refuses a build folder of the user's (NQ_BUILD_DIR) that
# was configured for another tree, rather than build that tree's sources
# and report this one's as built.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)  # as common.sh names it
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# expect_refusal TEXT COMMAND...: exit 2 and one line holding TEXT.
expect_refusal() {
  local text=$1 status=0 out
  shift
  out=$("$@" 2>&1 >/dev/null) || status=$?
  if [[ $status != 2 || $out != *"$text"* || $(wc -l <<<"$out") != 1 ]]; then
    echo "FAIL: '$*' gave exit $status, expected 2 and one line with '$text': $out" >&2
    exit 1
  fi
}

# No apt-get and no cmake: a refusal that reached either fails here.
mkdir "$work/bin"
for tool in apt-get cmake ninja; do
  printf '#!/bin/sh\necho "%s was run" >&2\nexit 99\n' "$tool" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
export PATH=$work/bin:$PATH

expect_refusal "N is a board size" bash "$repo/scripts/scaling.sh" abc
expect_refusal "give no --csv" bash "$repo/scripts/scaling.sh" 12 --repeat 1 --csv "$work/out.csv"
expect_refusal "give no --csv" bash "$repo/scripts/scaling.sh" 12 --csv="$work/out.csv"
printf '#!/bin/sh\nexit 0\n' >"$work/other" && chmod +x "$work/other"
expect_refusal "past nqueens' boards" bash "$repo/scripts/compare_kluev.sh" "$work/other" 40 1
expect_refusal "past nqueens' 1024" bash "$repo/scripts/compare_kluev.sh" "$work/other" 12 5000

# A build folder configured for another tree, given as NQ_BUILD_DIR. The
# packages nq_build would install are taken as there (this test runs where
# they were installed to build it); its cmake is the stand-in above, which
# the refusal must come before.
mkdir -p "$work/elsewhere-build"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$work/another-tree" >"$work/elsewhere-build/CMakeCache.txt"
status=0
out=$(NQ_BUILD_DIR=$work/elsewhere-build bash -c 'source "$1/scripts/common.sh"; nq_installed() { return 0; }; nq_build' _ "$repo" 2>&1) ||
  status=$?
if [[ $status != 2 || $out != *"was configured for $work/another-tree, not $repo"* ]]; then
  echo "FAIL: a build folder of another tree gave exit $status: $out" >&2
  exit 1
fi
echo "script usage: refusals in one line and exit 2, before any install or build"
