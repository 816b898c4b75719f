#!/usr/bin/env bash
# What the scripts refuse, they refuse at once, in one line, with exit 2,
# before any install or build: a bad N or a --csv of its own to
# scaling.sh, a board, thread or round count past its bounds to
# compare_kluev.sh, --quick out of place to sanitize.sh, an option ctest
# does not know to the scripts that run it, a build folder
# that cannot be made or written, a folder as the other counter. Their --help runs
# nothing either, wherever it is given.
# The build lock: a wait for it is said, and a TERM to the script holding
# it ends the command run under it, children too.
# And nq_build refuses a build folder of the user's (NQ_BUILD_DIR) that
# was configured for another tree, rather than build that tree's sources
# and report this one's as built.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)  # as common.sh names it
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT  # replaced below, once a lock holder runs

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
expect_refusal "N is a board size, a whole number from 1 to 32 (not '0')" bash "$repo/scripts/scaling.sh" 0
expect_refusal "N is a board size, a whole number from 1 to 32 (not '33')" bash "$repo/scripts/scaling.sh" 33
expect_refusal "N is a board size, a whole number from 1 to 32 (not '012')" bash "$repo/scripts/scaling.sh" 012
expect_refusal "give no --csv" bash "$repo/scripts/scaling.sh" 12 --repeat 1 --csv "$work/out.csv"
expect_refusal "give no --csv" bash "$repo/scripts/scaling.sh" 12 --csv="$work/out.csv"
printf '#!/bin/sh\nexit 0\n' >"$work/other" && chmod +x "$work/other"
expect_refusal "past nqueens' boards" bash "$repo/scripts/compare_kluev.sh" "$work/other" 40 1
expect_refusal "past nqueens' 1024" bash "$repo/scripts/compare_kluev.sh" "$work/other" 12 5000
expect_refusal "rounds is more than 100" bash "$repo/scripts/compare_kluev.sh" "$work/other" 12 1 99999999999999999999
expect_refusal "usage: scripts/compare_kluev.sh" bash "$repo/scripts/compare_kluev.sh" "$work/other" 12 1 3 extra
expect_refusal "THREADS '0' is not a positive whole number" bash "$repo/scripts/compare_kluev.sh" "$work/other" 12 0
expect_refusal "usage: scripts/check_layers.sh [ROOT]" bash "$repo/scripts/check_layers.sh" --bogus  # not a ROOT
expect_refusal "usage: scripts/check_doc_paths.sh [ROOT]" bash "$repo/scripts/check_doc_paths.sh" "$repo" extra
expect_refusal "is not an executable file" bash "$repo/scripts/compare_kluev.sh" "$work" 12 1 1  # a folder
expect_refusal "--quick comes right after the kind" bash "$repo/scripts/sanitize.sh" asan -R x --quick
expect_refusal "fetch is a step of its own" bash "$repo/scripts/gpu.sh" price fetch
expect_refusal "fetch is a step of its own" bash "$repo/scripts/gpu.sh" fetch price  # not ignored
expect_refusal "NQ_GPU_SECONDS='abc' is not a whole number" env NQ_GPU_SECONDS=abc bash "$repo/scripts/gpu.sh" --emulate
expect_refusal "'spinn' is not a candidate (candidates: whole " env NQ_GPU_AB=whole,spinn bash "$repo/scripts/gpu.sh" --emulate ab
expect_refusal "'graphs' is named twice" env NQ_GPU_AB=graphs,graphs bash "$repo/scripts/gpu.sh" --emulate ab
expect_refusal "not a CUDA architecture" bash "$repo/scripts/gpu_resources.sh" --arch
expect_refusal "one ARCH at most" bash "$repo/scripts/gpu_resources.sh" 90 80
expect_refusal "--benchmark_out_format is json, csv or console" bash "$repo/scripts/bench.sh" --benchmark_out_format=xml
expect_refusal "usage: scripts/aarch64.sh [--build-only | --kernels]" bash "$repo/scripts/aarch64.sh" --quick
expect_refusal "usage: scripts/pgo.sh (no arguments)" bash "$repo/scripts/pgo.sh" 20
# An option ctest does not know: ctest ignored it and ran every test.
expect_refusal "test.sh: ctest has no option '--rerun-faild'" bash "$repo/scripts/test.sh" -R Cli --rerun-faild
expect_refusal "ctest has no option '-RCli'" bash "$repo/scripts/test.sh" -RCli  # ctest reads no attached -R
expect_refusal "ctest has no option '-R=Cli'" bash "$repo/scripts/test.sh" -R=Cli  # nor -R=
expect_refusal "load_test.sh: ctest has no option '--bogus'" bash "$repo/scripts/load_test.sh" 1 -E -x --bogus
expect_refusal "sanitize.sh: ctest has no option '--bogus'" bash "$repo/scripts/sanitize.sh" asan -j4 --bogus
# A word that is no option's value, or a value missing at the end: ctest
# ran every test.
expect_refusal "test.sh: 'Cli' is no ctest option (tests by name: -R 'Cli'" bash "$repo/scripts/test.sh" Cli
expect_refusal "test.sh: ctest's option '-R' needs a value after it" bash "$repo/scripts/test.sh" -j 2 -R
expect_refusal "load_test.sh: 'abc' is no ctest option" bash "$repo/scripts/load_test.sh" abc
expect_refusal "sanitize.sh: ctest's option '-E' needs a value" bash "$repo/scripts/sanitize.sh" tsan -E
expect_refusal "usage: .ci/run (no arguments)" bash "$repo/.ci/run" --quick  # CI's 20 minutes, not started
# Values ctest's help does not show are still values: --test-load 4 is not
# refused as a word.
bash -c 'source "$1/scripts/common.sh"; nq_check_ctest_options -j 2 --test-load 4 --tests-information 1,5 -R x' _ "$repo" ||
  { echo "FAIL: ctest options with values its help does not show were refused" >&2; exit 1; }
: >"$work/a-file"
expect_refusal "cannot write the build folder NQ_BUILD_DIR=$work/a-file" \
  env NQ_BUILD_DIR="$work/a-file" bash "$repo/scripts/run.sh" 8
# A folder that cannot be written: immutable where root and the file system
# allow it (root writes through a mode), read-only to anyone else. It was a
# bare "Permission denied" from bash, exit 1.
mkdir "$work/read-only"
if chattr +i "$work/read-only" 2>/dev/null || { ((EUID != 0)) && chmod a-w "$work/read-only"; }; then
  status=0
  out=$(env NQ_BUILD_DIR="$work/read-only" bash "$repo/scripts/run.sh" 8 2>&1 >/dev/null) || status=$?
  gpu_status=0
  gpu_out=$(env NQ_BUILD_DIR="$work/read-only" bash "$repo/scripts/gpu.sh" --emulate price 2>&1 >/dev/null) ||
    gpu_status=$?
  # The results folder, before the build (a stub cmake here would fail it).
  scaling_status=0
  scaling_out=$(env NQ_RESULTS_DIR="$work/read-only" bash "$repo/scripts/scaling.sh" 8 2>&1 >/dev/null) ||
    scaling_status=$?
  chattr -i "$work/read-only" 2>/dev/null || chmod u+w "$work/read-only"
  if [[ $status != 2 || $out != *"cannot write the build folder NQ_BUILD_DIR=$work/read-only"* ||
    $(wc -l <<<"$out") != 1 ]]; then
    echo "FAIL: a read-only NQ_BUILD_DIR gave exit $status: $out" >&2
    exit 1
  fi
  if [[ $gpu_status != 2 || $gpu_out != *"cannot write the build folder $work/read-only"* ||
    $(wc -l <<<"$gpu_out") != 1 ]]; then
    echo "FAIL: gpu.sh --emulate with a read-only NQ_BUILD_DIR gave exit $gpu_status: $gpu_out" >&2
    exit 1
  fi
  if [[ $scaling_status != 2 || $scaling_out != *"cannot write the results folder $work/read-only"* ||
    $(wc -l <<<"$scaling_out") != 1 ]]; then
    echo "FAIL: scaling.sh with a read-only NQ_RESULTS_DIR gave exit $scaling_status: $scaling_out" >&2
    exit 1
  fi
fi

# --help (or -h) prints the script's usage and exits 0, and runs nothing.
for script in scaling.sh compare_kluev.sh gpu.sh sanitize.sh package.sh load_test.sh test.sh format.sh check_layers.sh \
  check_doc_paths.sh gpu_resources.sh bench.sh aarch64.sh pgo.sh; do
  args=(--help)
  [[ $script == scaling.sh ]] && args=(12 --repeat 1 -h)  # anywhere after N too
  # After their own arguments too: ctest would take --help (sanitize.sh
  # built for 20 minutes first; load_test.sh reported a run "passed").
  [[ $script == sanitize.sh ]] && args=(asan --help)
  [[ $script == load_test.sh ]] && args=(1 --help)
  [[ $script == bench.sh ]] && args=(--benchmark_filter=Engine -h)
  [[ $script == test.sh ]] && args=(-R Cli --help)  # ctest's usage came after a build
  # And where the script's own arguments are plain words: as an argument
  # after them, it was refused ("'--help' is not a positive whole number").
  [[ $script == compare_kluev.sh ]] && args=(other 12 1 --help)
  [[ $script == package.sh ]] && args=(--check --help)
  [[ $script == format.sh ]] && args=(--check -h)
  [[ $script == check_layers.sh ]] && args=("$repo" --help)
  status=0
  out=$(bash "$repo/scripts/$script" "${args[@]}" 2>&1) || status=$?
  if [[ $status != 0 || $out != *"scripts/$script"* || $out == *" was run"* ]]; then
    echo "FAIL: '$script ${args[*]}' gave exit $status: $out" >&2
    exit 1
  fi
done

# A build folder named relative to where the script is run is made absolute
# before a script cds into it: test.sh then looked for its lock under
# build/release/build/release.
relative=$(cd "$work" && NQ_BUILD_DIR=b bash -c 'source "$1/scripts/common.sh"; echo "$NQ_BUILD_DIR"' _ "$repo")
[[ $relative == "$work/b" ]] || { echo "FAIL: NQ_BUILD_DIR=b from $work read as '$relative'" >&2; exit 1; }

# A script that waits for the build folder's lock says so (test.sh holds it
# for minutes: run.sh beside it looked hung), then runs once it is free.
# The holder keeps it until the word is seen: no time is assumed.
mkdir "$work/b"
wait_for() {  # wait_for WHAT COMMAND...: until COMMAND succeeds, 120 s at most
  local what=$1 deadline=$((SECONDS + 120))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || { echo "FAIL: no $what within 120 s" >&2; exit 1; }
    sleep 0.1
  done
}
trap ': >"$work/release"; rm -rf "$work"' EXIT  # the holder ends whatever happens
flock "$work/b/.nq_build.lock" sh -c ": >'$work/held'; until [ -e '$work/release' ]; do sleep 0.1; done" &
holder=$!
wait_for "lock held" test -e "$work/held"
NQ_BUILD_DIR=$work/b bash -c 'source "$1/scripts/common.sh"; nq_run_locked true && echo ran' _ "$repo" \
  >"$work/locked.out" 2>"$work/locked.err" &
locked=$!
said_waiting() { grep -qs "scripts: waiting for another build or test run in $work/b" "$work/locked.err"; }
wait_for "word of the wait for the lock" said_waiting
[[ ! -s $work/locked.out ]] || { echo "FAIL: it ran while the lock was held" >&2; exit 1; }
: >"$work/release"
wait "$holder"
status=0
wait "$locked" || status=$?
[[ $status == 0 && $(<"$work/locked.out") == ran ]] || { echo "FAIL: once free, exit $status" >&2; exit 1; }

# A TERM sent to the script alone (`kill PID` of test.sh) ends the command
# it runs under the lock and that command's children, as ctest's tests: ctest
# does not end them itself. The lock is held meanwhile, by none of them.
# (A script, as test.sh is: bash -c, given a TERM in a function's trap,
# prints a complaint of its own.)
cat >"$work/runner.sh" <<'EOF'
source "$1/scripts/common.sh"
nq_run_locked sh -c "sleep 600 & echo \$! >'$2'; wait"
EOF
NQ_BUILD_DIR=$work/b bash "$work/runner.sh" "$repo" "$work/child" &
runner=$!
child=
# A failure below leaves neither running (they would hold CTest's pipe).
trap 'kill -KILL "$runner" ${child:+"$child"} 2>/dev/null || true; rm -rf "$work"' EXIT
wait_for "child of the locked command" test -s "$work/child"
child=$(<"$work/child")
if flock -n "$work/b/.nq_build.lock" true; then
  echo "FAIL: the lock is free while the locked command runs" >&2
  exit 1
fi
for fd in "/proc/$child/fd/"*; do
  if [[ $(readlink "$fd" 2>/dev/null) == *nq_build.lock ]]; then
    echo "FAIL: the locked command's child holds the lock" >&2
    exit 1
  fi
done
kill -TERM "$runner"
status=0
wait "$runner" || status=$?
[[ $status == 143 ]] || { echo "FAIL: the runner ended with $status after a TERM, expected 143" >&2; exit 1; }
child_gone() { ! kill -0 "$child" 2>/dev/null; }
wait_for "end of the locked command's child after a TERM" child_gone
echo "script usage: refusals in one line and exit 2, help with exit 0, before any install or build; the lock"

