#!/usr/bin/env bash
# Installs what is missing, builds Release with tests and benchmarks, runs every
# test with CTest. Extra arguments go to ctest (e.g. -R Cli; an option it does
# not list is refused: ctest would ignore it). The tests run in
# random order with more jobs than cores: a test that shares a file with
# another, or counts on the machine's speed, fails here, not on a user's run.
#   scripts/test.sh              # every test
#   scripts/test.sh -R Cli -j 4  # ctest's options
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"  # the rest go to ctest, which would take --help for its own
nq_check_ctest_options "$@"
NQ_WITH_TESTS=1 nq_build
nq_check_ctest_options "$@"  # where ctest came with the build's packages
cd "$NQ_BUILD_DIR"
jobs=$(($(nproc) * 2))
((jobs < 8)) && jobs=8
# Under the build folder's lock (nq_run_locked): another script's build does
# not replace the binaries under the tests, and a second test.sh waits,
# saying so, rather than sharing the folder's test files. A -R that selects
# nothing fails rather than passing.
nq_run_locked ctest --output-on-failure --no-tests=error -j "$jobs" --schedule-random "$@"
