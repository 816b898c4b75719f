#!/usr/bin/env bash
# Builds and runs the whole test suite under a sanitizer.
#   scripts/sanitize.sh asan    # AddressSanitizer + UndefinedBehaviorSanitizer, build/asan,
#                               # with clang (installed where missing): its UBSan checks more
#                               # (a step past a null pointer, which GCC 12's let pass) and it
#                               # builds the suite in about four fifths of GCC's time
#   scripts/sanitize.sh tsan    # ThreadSanitizer, build/tsan
#   scripts/sanitize.sh asan --quick
#       the library and its in-process tests alone (nqueens_tests,
#       nqueens_no_alloc_test: engines, kernels, plans, journals, the GPU
#       engine emulated), the library at -O1 and the tests' and command
#       line's own code at -Og (GCC's took half the time of -O1; clang
#       takes it as -O1), without debug information, each binary run
#       whole in one shard per core: about 4 minutes on a 2-core guest where
#       the whole suite took about three times as long (docs/testing.md), so
#       that CI has room for it (.ci/run). The
#       tools' and fault tests, which start processes, are left to the full run.
# Debian's prebuilt oneTBB is not instrumented and makes TSan report false
# races inside the scheduler, so `tsan` first builds oneTBB from Debian's own
# source package with -DTBB_SANITIZE=thread (once, about a minute; kept in
# build/tbb-tsan) and points CMake at it. Extra arguments go to ctest.
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"
kind=${1:-}
shift || true
case $kind in
  asan) sanitize="address,undefined" ;;
  tsan) sanitize="thread" ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan [--quick] [ctest options]" >&2; exit 2 ;;
esac
quick=0
# Said before a build of minutes: --quick in ctest's options would be
# lost, and would not make the run quick.
for arg in "${@:2}"; do
  [[ $arg == --quick ]] && { echo "sanitize.sh: --quick comes right after the kind: scripts/sanitize.sh $kind --quick" >&2; exit 2; }
done
if [[ ${1:-} == --quick ]]; then
  quick=1
  shift
  # --quick runs two test binaries itself, not ctest: options for ctest would be lost.
  (($# == 0)) || { echo "sanitize.sh: --quick takes no ctest options ('$1')" >&2; exit 2; }
fi
nq_check_ctest_options "$@"
nq_ensure_packages "${NQ_PACKAGES[@]}"
nq_check_ctest_options "$@"  # where ctest came with the packages
# One sanitizer run at a time builds here (the TSan oneTBB and the build
# folders are shared): a second waits, as nq_build makes a second build wait.
mkdir -p "$NQ_ROOT/build"
exec {sanitize_lock}>"$NQ_ROOT/build/.nq_sanitize.lock"
flock -n "$sanitize_lock" || {
  echo "sanitize.sh: waiting for another sanitizer run in this tree" >&2
  flock "$sanitize_lock"
}

cmake_extra=()
if [[ $kind == asan ]]; then
  nq_ensure_packages clang
  # CMake keeps a folder's first compiler: one configured with another starts over.
  for folder in "$NQ_ROOT/build/asan" "$NQ_ROOT/build/asan-quick"; do
    if [[ -f $folder/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:FILEPATH=.*clang++' "$folder/CMakeCache.txt"; then
      rm -rf "$folder/CMakeCache.txt" "$folder/CMakeFiles"
    fi
  done
  cmake_extra+=(-DCMAKE_CXX_COMPILER=clang++)
fi
if [[ $kind == tsan ]]; then
  tbb_prefix=$NQ_ROOT/build/tbb-tsan
  if [[ ! -f $tbb_prefix/lib/cmake/TBB/TBBConfig.cmake ]]; then
    # apt-get source needs a deb-src entry (Debian's for this release,
    # added once) and its index: updated until the index has onetbb, so
    # that an update that failed once is tried again, not taken as done.
    if ! apt-cache showsrc onetbb 2>/dev/null | grep -q '^Package: onetbb'; then
      nq_apt_lock
      if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
        echo "sanitize.sh: adding Debian's deb-src entry for $codename (apt-get source needs it)" >&2
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
          "$codename" | nq_as_root tee /etc/apt/sources.list.d/nqueens-deb-src.sources >/dev/null
      fi
      nq_apt_update
      exec {NQ_APT_LOCK}<&-
    fi
    nq_ensure_packages dpkg-dev
    src_dir=$NQ_ROOT/build/tbb-src
    rm -rf "$src_dir" && mkdir -p "$src_dir"
    (cd "$src_dir" && apt-get source -qq onetbb >&2)
    tbb_source=$(find "$src_dir" -maxdepth 1 -mindepth 1 -type d -name 'onetbb-*' | head -1)
    cmake -S "$tbb_source" -B "$src_dir/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF \
      -DCMAKE_INSTALL_PREFIX="$tbb_prefix" >&2
    cmake --build "$src_dir/build" >&2
    cmake --install "$src_dir/build" >&2
  fi
  cmake_extra+=(-DTBB_DIR="$tbb_prefix/lib/cmake/TBB" -DCMAKE_BUILD_RPATH="$tbb_prefix/lib")
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
# Quoted: the sanitizers split their options at a colon or a space. A
# suppressed leak is not announced: its "Suppressions used" table on stderr
# broke tests that read a tool's stderr whole (`list 16 | head -n 1`, where
# a oneTBB worker asleep at exit leaves the suppressed proxy).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=\"$NQ_ROOT/scripts/lsan-suppressions.txt\":print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
# Open MPI is not instrumented (it would report its own leaks and races): no nqueens-mpi here.
common=(-G Ninja -DNQUEENS_SANITIZE="$sanitize" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DNQUEENS_BUILD_BENCH=OFF
  ${NQ_WERROR:+-DNQUEENS_WERROR=$NQ_WERROR})

if ((quick)); then
  build_dir=$NQ_ROOT/build/$kind-quick
  cmake -S "$NQ_ROOT" -B "$build_dir" "${common[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DNQUEENS_UNTIMED_CODE_FLAGS=-Og \
    "${cmake_extra[@]}" >&2
  binaries=(nqueens_tests nqueens_no_alloc_test)
  cmake --build "$build_dir" --target "${binaries[@]}" >&2
  cd "$build_dir"
  # What CTest gives every test (tests/CMakeLists.txt); one process per
  # shard, not per test: a sanitized binary's start costs a quarter second.
  NQUEENS_GPU=$(sed -n 's/^NQUEENS_TEST_GPU:STRING=//p' CMakeCache.txt)
  export NQUEENS_GPU
  shards=$(nproc)
  pids=()
  # `timeout` puts each shard in a process group of its own, which a Ctrl-C
  # to this script's group never reaches: they are stopped here (timeout
  # passes the TERM on), not left to run their 20 minutes.
  stop_shards() {
    local entry
    for entry in "${pids[@]}"; do kill -TERM "${entry%%:*}" 2>/dev/null || true; done
    wait || true
  }
  trap 'stop_shards; exit 130' INT
  trap 'stop_shards; exit 143' TERM
  trap 'stop_shards; exit 129' HUP
  for binary in "${binaries[@]}"; do
    for ((shard = 0; shard < shards; ++shard)); do
      # A deadline, as CTest gives every test: a hang fails here, not at CI's
      # limit, and the log's last "[ RUN ]" names the test that hung.
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$shard timeout 1200 "./$binary" --gtest_shuffle \
        >"$binary.shard$shard.log" 2>&1 &
      pids+=("$!:$binary.shard$shard.log")
    done
  done
  failed=0
  for entry in "${pids[@]}"; do
    if ! wait "${entry%%:*}"; then
      failed=1
      cat "$build_dir/${entry#*:}" >&2
    fi
  done
  ((failed == 0)) || { echo "sanitize.sh: $kind --quick failed (logs in $build_dir)" >&2; exit 1; }
  echo "sanitize.sh: $kind --quick: ${binaries[*]} passed in $shards shards each"
  exit 0
fi

build_dir=$NQ_ROOT/build/$kind
cmake -S "$NQ_ROOT" -B "$build_dir" "${common[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cmake_extra[@]}" >&2
cmake --build "$build_dir" >&2
cd "$build_dir"
# As test.sh runs it: ctest does not end its tests on TERM, so a stopped
# script would leave them running, holding the sanitizer lock.
NQ_BUILD_DIR=$build_dir nq_run_locked ctest --output-on-failure --no-tests=error -j "$(nproc)" --schedule-random "$@"
