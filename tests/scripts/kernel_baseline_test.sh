#!/usr/bin/env bash
# src/CMakeLists.txt knows an instruction set's kernels by their name alone
# (*_<id>.cpp, <id> in NQUEENS_EACH_IMPLEMENTATION): configured with
# NQUEENS_ARCH=native, every such source, a new engine's planted in a copy
# of the tree included, is compiled on the baseline -march (its last one),
# and no other source is, so that a build machine's -march never reaches
# the kernels the program chooses among when it starts.
#   kernel_baseline_test.sh [GENERATOR CXX_COMPILER TBB_DIR CXXOPTS_DIR]
#   (the build's own, so that the copy configures as it did)
set -euo pipefail
generator=${1:-Ninja} compiler=${2:-} tbb_dir=${3:-} cxxopts_dir=${4:-}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[[ $(uname -m) == x86_64 ]] || { echo "kernel_baseline: not x86-64, skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$repo/CMakeLists.txt" "$repo/src" "$repo/include" "$repo/cmake" "$repo/packaging" "$work/"
mkdir "$work/src/engines/planted"
for id in portable avx2 avx512_vpopcntdq; do
  echo "int planted_$id();" > "$work/src/engines/planted/planted_kernel_$id.cpp"
done
echo "int planted_table();" > "$work/src/engines/planted/planted_kernels.cpp"
hints=()
[[ -n $compiler ]] && hints+=("-DCMAKE_CXX_COMPILER=$compiler")
[[ -n $tbb_dir ]] && hints+=("-DTBB_DIR=$tbb_dir")
[[ -n $cxxopts_dir ]] && hints+=("-Dcxxopts_DIR=$cxxopts_dir")
cmake -S "$work" -B "$work/build" -G "$generator" "${hints[@]}" -DNQUEENS_BUILD_TESTS=OFF -DNQUEENS_BUILD_BENCH=OFF \
  -DNQUEENS_WITH_CUDA=OFF -DNQUEENS_ARCH=native -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; echo "FAIL: the copy did not configure" >&2; exit 1; }
# compile_commands.json as CMake writes it: each entry's "command" line
# before its "file" line.
ids='portable|avx2_no_pdep|avx2|avx512|avx512_vpopcntdq'
failed=0 kernels=0
while IFS=$'\t' read -r source march; do
  [[ $source == "$work/src/"* ]] || continue
  if [[ $source =~ _($ids)\.cpp$ ]]; then
    kernels=$((kernels + 1))
    [[ $march == x86-64 ]] && continue
    echo "FAIL: $source: a kernel source built with -march=$march, not the baseline x86-64" >&2
  else
    [[ $march == native ]] && continue
    echo "FAIL: $source: built with -march=$march, not NQUEENS_ARCH's native" >&2
  fi
  failed=1
done < <(awk '/"command":/ { n = split($0, w, "-march="); split(w[n], last, " "); march = (n > 1 ? last[1] : "none") }
  /"file":/ { sub(/.*"file": "/, ""); sub(/".*/, ""); print $0 "\t" march }' "$work/build/compile_commands.json")
for id in portable avx2 avx512_vpopcntdq; do
  grep -q "\"file\": \"$work/src/engines/planted/planted_kernel_$id.cpp\"" "$work/build/compile_commands.json" ||
    { echo "FAIL: planted_kernel_$id.cpp is not built" >&2; failed=1; }
done
((kernels >= 13)) || { echo "FAIL: $kernels kernel sources built: expected the tree's 10 and 3 planted" >&2; failed=1; }
((failed == 0)) || exit 1
echo "kernel_baseline: every kernel source on the baseline -march, a planted engine's too"
