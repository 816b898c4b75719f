#!/usr/bin/env bash
# Builds the library, the tool, the tests and the benchmarks for AArch64 (ARM
# servers: AWS Graviton, NVIDIA Grace, Ampere) on this x86-64 machine, with
# Debian's cross compiler and the arm64 libraries beside the native ones
# (multiarch), then runs them under qemu-aarch64: nqueens_tests and
# nqueens_no_alloc_test whole (but the death tests, whose child runs the
# binary without qemu), `--version`, and `verify` 1..15 with every engine
# (the GPU engine emulated, 1..11). There, the portable kernels alone are
# built (src/isa/implementation.hpp): this proves they count right on
# another processor, and that nothing x86 leaks into them. About 8 minutes
# on a 2-core guest (the build 3, the tests 4 to 5), more than CI's budget
# has room for: run it before a change to src/isa/, the kernels or the
# build lands (docs/testing.md).
#   scripts/aarch64.sh               # build/aarch64: build and run
#   scripts/aarch64.sh --build-only  # build, run nothing
#   scripts/aarch64.sh --kernels     # CI's check, seconds: the sources that
#                                    # differ by processor (src/isa/, the
#                                    # portable kernels and their tables)
#                                    # compiled for AArch64, warnings as errors
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"
run=1
if (($# > 1)) || [[ $# == 1 && $1 != --build-only && $1 != --kernels ]]; then
  echo "usage: scripts/aarch64.sh [--build-only | --kernels]" >&2
  exit 2
fi
[[ ${1:-} == --build-only ]] && run=0

if [[ ${1:-} == --kernels ]]; then
  # No library of another architecture is needed: these sources include
  # the project's headers and the standard library's alone.
  nq_ensure_packages g++-aarch64-linux-gnu
  cd "$NQ_ROOT"
  # Each engine's kernel table and portable kernels, by the names
  # src/CMakeLists.txt knows them by: a new engine's are checked too.
  sources=(src/isa/*.cpp src/kernels/search.cpp src/kernels/*_portable.cpp src/engines/*/*_kernels.cpp
    src/engines/*/*_portable.cpp)
  for source in "${sources[@]}"; do
    # The project's warnings (CMakeLists.txt's nqueens_internal_flags), and
    # GCC's note on an ABI change of GCC 10 kept quiet.
    aarch64-linux-gnu-g++ -std=c++20 -O2 -fsyntax-only -Iinclude -Isrc -Wall -Wextra -Wpedantic -Wshadow \
      -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers -Wno-psabi -Werror "$source"
  done
  echo "aarch64.sh: ${#sources[@]} processor-specific sources compile for AArch64"
  exit 0
fi

# The arm64 libraries come from Debian's own archive, as a second
# architecture of this machine's dpkg (once).
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "aarch64.sh: adding arm64 to dpkg's architectures (multiarch), for the arm64 libraries" >&2
  nq_as_root dpkg --add-architecture arm64
  nq_apt_lock
  nq_apt_update
  exec {NQ_APT_LOCK}<&-
fi
nq_ensure_packages cmake ninja-build g++-aarch64-linux-gnu qemu-user libcxxopts-dev \
  libtbb-dev:arm64 libgtest-dev:arm64 libbenchmark-dev:arm64

build=$NQ_ROOT/build/aarch64
mkdir -p "$build"
exec {lock}>"$build/.nq_build.lock"
flock -n "$lock" || {
  echo "aarch64.sh: waiting for another build in $build" >&2
  flock "$lock"
}
# Everything but MPI (Open MPI's compiler wrappers here are the x86-64
# ones; nqueens-mpi has nothing processor-specific) and CUDA (this nvcc
# targets x86-64 hosts).
cmake -S "$NQ_ROOT" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$NQ_ROOT/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DNQUEENS_WITH_CUDA=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DNQUEENS_BUILD_BENCH=ON \
  ${NQ_WERROR:+-DNQUEENS_WERROR=$NQ_WERROR} >&2
cmake --build "$build" >&2
((run)) || exit 0

cd "$build"
emulate() { qemu-aarch64 -L / "$@"; }
version=$(emulate ./nqueens --version)
echo "$version"
grep -qx 'isa: portable' <<<"$version" || {
  echo "aarch64.sh: the AArch64 build does not run the portable kernels" >&2
  exit 1
}
# As CTest gives every test (tests/CMakeLists.txt); the death tests re-run
# the binary itself, which this machine cannot run without qemu.
export NQUEENS_GPU=emulate
for binary in nqueens_tests nqueens_no_alloc_test; do
  echo "aarch64.sh: $binary under qemu-aarch64" >&2
  emulate "./$binary" --gtest_brief=1 --gtest_filter='-*DeathTest*'
done
engines=$(emulate ./nqueens --list engines)  # a failure here stops the script (set -e), not the loop
for engine in $engines; do
  to=15
  [[ $engine == gpu ]] && to=11  # its kernels emulated, then emulated again
  emulate ./nqueens verify --from 1 --to "$to" --engine "$engine" | tail -1
done
echo "aarch64.sh: the AArch64 build counts every engine right (qemu-aarch64)"
