#!/usr/bin/env bash
# Every instruction set's kernels compile with Clang, as they do with GCC:
# Clang ignores GCC's target pragmas, and the AVX kernels built without
# their target region fail (an always_inline intrinsic in a baseline
# function), so isa/target.hpp gives Clang a region of its own. Each kernel
# source (*_<id>.cpp, as src/CMakeLists.txt knows them) and each kernel
# table is compiled at -O0 with the project's warnings as errors. Skipped
# where no clang++ is installed.
#   clang_kernels_test.sh SOURCE_DIR
set -euo pipefail
repo=${1:?usage: clang_kernels_test.sh SOURCE_DIR}
command -v clang++ >/dev/null || { echo "clang_kernels: no clang++, skipped"; exit 77; }
[[ $(uname -m) == x86_64 ]] || { echo "clang_kernels: not x86-64, skipped"; exit 77; }
cd "$repo"
sources=(src/kernels/search.cpp src/kernels/search_*.cpp src/engines/*/*_kernels.cpp src/engines/*/*_kernel_*.cpp)
for source in "${sources[@]}"; do
  clang++ -std=c++20 -O0 -Iinclude -Isrc -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion \
    -Wno-missing-field-initializers -Werror -c "$source" -o /dev/null ||
    { echo "FAIL: $source does not compile with $(clang++ --version | head -1)" >&2; exit 1; }
done
echo "clang_kernels: ${#sources[@]} kernel sources compile with Clang"
