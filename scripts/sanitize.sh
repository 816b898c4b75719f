#!/usr/bin/env bash
# Builds and runs the whole test suite under a sanitizer.
#   scripts/sanitize.sh asan    # AddressSanitizer + UndefinedBehaviorSanitizer, build/asan
#   scripts/sanitize.sh tsan    # ThreadSanitizer, build/tsan
# Debian's prebuilt oneTBB is not instrumented and makes TSan report false
# races inside the scheduler, so `tsan` first builds oneTBB from Debian's own
# source package with -DTBB_SANITIZE=thread (once, about a minute; kept in
# build/tbb-tsan) and points CMake at it. Extra arguments go to ctest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
kind=${1:-}
shift || true
case $kind in
  asan) sanitize="address,undefined" ;;
  tsan) sanitize="thread" ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan [ctest options]" >&2; exit 2 ;;
esac
nq_ensure_packages "${NQ_PACKAGES[@]}"

cmake_extra=()
if [[ $kind == tsan ]]; then
  tbb_prefix=$NQ_ROOT/build/tbb-tsan
  if [[ ! -f $tbb_prefix/lib/cmake/TBB/TBBConfig.cmake ]]; then
    # apt-get source needs a deb-src entry; add Debian's for this release once.
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$codename" > /etc/apt/sources.list.d/nqueens-deb-src.sources
      apt-get update -qq >&2
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

build_dir=$NQ_ROOT/build/$kind
# Open MPI is not instrumented (it would report its own leaks and races): no nqueens-mpi here.
cmake -S "$NQ_ROOT" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQUEENS_SANITIZE="$sanitize" \
  -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
  -DNQUEENS_BUILD_BENCH=OFF "${cmake_extra[@]}" >&2
cmake --build "$build_dir" >&2
cd "$build_dir"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
ctest --output-on-failure -j "$(nproc)" --schedule-random "$@"
