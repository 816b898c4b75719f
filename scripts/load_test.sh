#!/usr/bin/env bash
# Runs the whole Release suite under full load, as a busy shared machine
# would: one CPU hog per core beside CTest, the suite RUNS times in a row
# (default 3). A test that fails here asserts on timing, not on a defect.
#   scripts/load_test.sh [RUNS] [ctest options]
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"
runs=3
if [[ ${1:-} =~ ^[0-9]+$ ]]; then  # else the options are ctest's alone (load_test.sh -R Cli)
  runs=$1
  shift
fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/load_test.sh [RUNS] [ctest options] (RUNS from 1)" >&2; exit 2; }
nq_check_ctest_options "$@"
NQ_WITH_TESTS=1 nq_build
nq_check_ctest_options "$@"
cores=$(nproc)
jobs=$((cores * 2))
((jobs < 8)) && jobs=8
hogs=()
stop_hogs() { ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for ((k = 0; k < cores; ++k)); do
  (while :; do :; done) &
  hogs+=($!)
done
echo "load_test: $cores CPU hogs beside the suite, $runs runs of ctest -j $jobs --schedule-random" >&2
cd "$NQ_BUILD_DIR"
status=0
for ((run = 1; run <= runs; ++run)); do
  start=$(date +%s)
  # As CI runs it (scripts/test.sh): random order, more jobs than cores.
  # Under the build folder's lock, as scripts/test.sh runs it (a wait for
  # it said here, not only in the log); a -R that selects nothing fails.
  # The log is opened inside the lock: opened before it, a second
  # load_test.sh emptied the log the first one's ctest was writing.
  if nq_run_locked sh -c 'log=$1; shift; exec "$@" >"$log" 2>&1' sh "load-test-$run.log" \
    ctest --output-on-failure --no-tests=error -j "$jobs" --schedule-random "$@"; then
    summary=$(grep -o 'tests passed, [0-9]* tests failed out of [0-9]*' "load-test-$run.log" | tail -1 || true)
    # ctest options that run nothing (-N, --help) pass no test: no run to report.
    [[ -n $summary ]] || { echo "load_test: run $run ran no tests (ctest $*): see $NQ_BUILD_DIR/load-test-$run.log" >&2; exit 2; }
    echo "load_test: run $run passed in $(($(date +%s) - start)) s ($summary)" >&2
  else
    status=1
    echo "load_test: run $run FAILED in $(($(date +%s) - start)) s; see $NQ_BUILD_DIR/load-test-$run.log:" >&2
    grep -A30 'The following tests FAILED' "load-test-$run.log" >&2 || tail -20 "load-test-$run.log" >&2
  fi
done
exit $status
