#!/usr/bin/env bash
# The GPU engine on a machine with an NVIDIA GPU, in one call: build, the
# tests on the device, compute-sanitizer, timings and the CPU's scaling,
# every figure with its command in one file.
#
#   scripts/gpu.sh fetch            here (Debian, with apt): Debian's oneTBB, cxxopts and
#                                   GoogleTest .debs into .gpu-debs/ (git ignores it: the device
#                                   tool's call names it in `carry`), for a GPU machine with no
#                                   package registry
#   scripts/gpu.sh [STEP...]        on the GPU machine; steps, in order:
#       build     unpack .gpu-debs/ (when there) and build build/gpu (tests on the device)
#       test      the GPU engine's tests against the device (ctest -R gpu)
#       sanitize  compute-sanitizer memcheck, racecheck and synccheck on small counts
#       time      Q(18..23) on the GPU (NQ_GPU_SIZES, 12..24), wall seconds and GPU-ns per solution
#       scale     `nqueens scale 20 --threads 1,2,4,8,16` and `scale 22 --threads 16` on the CPU
#     default: build test sanitize time scale
#
# Figures go to $OUT/gpu-figures.txt where OUT is set (the device tool's
# folder), else build/gpu/gpu-figures.txt. A step that passes its time limit
# (NQ_GPU_STEP_SECONDS, default 240) is cut and the file says so: the script
# always ends, with what it measured. Exits non-zero when a test, a check or
# a count fails: a count that differs from the published one is a failure.
set -euo pipefail
NQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$NQ_ROOT"
DEBS=$NQ_ROOT/.gpu-debs
BUILD=$NQ_ROOT/build/gpu
STEP_SECONDS=${NQ_GPU_STEP_SECONDS:-240}

if [[ ${1:-} == fetch ]]; then
  mkdir -p "$DEBS"
  (cd "$DEBS" && apt-get download libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libcxxopts-dev libgtest-dev)
  ls -l "$DEBS"
  exit 0
fi

steps=("$@")
((${#steps[@]} > 0)) || steps=(build test sanitize time scale)
mkdir -p "$BUILD"
FIGURES=${OUT:-$BUILD}/gpu-figures.txt
: >"$FIGURES"
failed=0
note() { echo "$*" | tee -a "$FIGURES"; }
# Runs a command under the step limit; its output goes to the figures file.
measured() {
  note "\$ $*"
  local status=0
  timeout "$STEP_SECONDS" "$@" 2>&1 | tee -a "$FIGURES" || status=$?
  if ((status == 124)); then
    note "(cut after ${STEP_SECONDS} s)"
  elif ((status != 0)); then
    note "(exit $status)"
    failed=1
  fi
  return 0
}

# Debian's packages unpacked beside the build, where the machine has none.
if compgen -G "$DEBS/*.deb" >/dev/null; then
  PREFIX=/tmp/nqueens-gpu-prefix
  mkdir -p "$PREFIX"
  for deb in "$DEBS"/*.deb; do
    if command -v dpkg-deb >/dev/null; then
      dpkg-deb -x "$deb" "$PREFIX"
    else  # a .deb is an ar archive around data.tar.xz (Debian 12's)
      ar p "$deb" data.tar.xz | tar -xJ -C "$PREFIX"
    fi
  done
  export CMAKE_PREFIX_PATH=$PREFIX/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
  export LD_LIBRARY_PATH=$PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export PATH=/usr/local/cuda/bin:$PATH
NQ=$BUILD/nqueens

note "# nqueens GPU figures, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
note "# $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
note "# CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

for step in "${steps[@]}"; do
  case $step in
    build)
      generator=()
      command -v ninja >/dev/null && generator=(-G Ninja)
      cmake -S . -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DNQUEENS_BUILD_BENCH=OFF \
        -DNQUEENS_TEST_GPU=device >"$BUILD/configure.log" 2>&1 || { tail -30 "$BUILD/configure.log"; exit 1; }
      grep -q 'GPU engine device code ON' "$BUILD/configure.log" || { echo "gpu.sh: CMake found no CUDA" >&2; exit 1; }
      cmake --build "$BUILD" --parallel "$(nproc)" --target nqueens_cli nqueens_tests nqueens_cli_test \
        >"$BUILD/build.log" 2>&1 || { tail -40 "$BUILD/build.log"; exit 1; }
      note "built $NQ: $("$NQ" --version | head -1)"
      ;;
    test)
      # Every test that names the GPU engine, now on the device: the engine
      # axis (counts, plans, journals, shards) and the subproblem checks.
      measured ctest --test-dir "$BUILD" -R 'gpu|Gpu' -j 4 --timeout 600 --output-on-failure
      ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        measured compute-sanitizer --tool "$tool" --error-exitcode 9 "$NQ" count 9 --engine gpu --threads 2
      done
      measured compute-sanitizer --tool memcheck --error-exitcode 9 "$NQ" count 12 --engine gpu --threads 4
      ;;
    time)
      declare -A published=([12]=14200 [13]=73712 [14]=365596 [15]=2279184 [16]=14772512 [17]=95815104
        [18]=666090624 [19]=4968057848 [20]=39029188884 [21]=314666222712 [22]=2691008701644
        [23]=24233937684440 [24]=227514171973736)
      for n in ${NQ_GPU_SIZES:-18 19 20 21 22 23}; do
        note "\$ nqueens count $n --engine gpu --json"
        start=$(date +%s.%N)
        status=0
        json=$(timeout "$STEP_SECONDS" "$NQ" count "$n" --engine gpu --json 2>>"$FIGURES") || status=$?
        seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
        note "$json"
        if ((status == 124)); then
          note "Q($n): cut after ${STEP_SECONDS} s"
          break
        elif ((status != 0)) || [[ $json != *"\"total\":${published[$n]},"* ]]; then
          note "Q($n): FAILED (exit $status)"
          failed=1
          break
        fi
        note "Q($n) = ${published[$n]} exact on the GPU in $seconds s wall: $(awk -v s="$seconds" -v q="${published[$n]}" 'BEGIN { printf "%.4f", s * 1e9 / q }') GPU-ns per solution"
      done
      # The CPU engine on the same machine, for the ratio.
      measured "$NQ" count 20 --engine quadrant
      ;;
    scale)
      measured "$NQ" scale 20 --threads 1,2,4,8,16 --repeat 1 --engine quadrant --csv "$BUILD/scale20.csv"
      measured "$NQ" scale 22 --threads 16 --repeat 1 --engine quadrant
      [[ -n ${OUT:-} && -f $BUILD/scale20.csv ]] && cp "$BUILD/scale20.csv" "$OUT/"
      ;;
    *)
      echo "gpu.sh: unknown step '$step' (build, test, sanitize, time, scale, or fetch)" >&2
      exit 2
      ;;
  esac
done
note "# figures in $FIGURES"
exit "$failed"
