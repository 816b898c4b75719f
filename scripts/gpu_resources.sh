#!/usr/bin/env bash
# What each GPU kernel takes of an SM, from ptxas (no GPU needed): registers
# a thread, static shared memory and spills a block, and the blocks of 256
# threads an SM of an H100 or H200 (sm_90: 65 536 registers, 228 KiB of
# shared memory with 1 KiB reserved a block, 2 048 threads) keeps resident.
#
#   scripts/gpu_resources.sh [ARCH]   ARCH: a CUDA architecture, default 90
#
# The visit kernel's own bounds are in its source (min_blocks, held by
# __launch_bounds__ and a static_assert): the build refuses what breaks them;
# this prints the figures the occupancy follows from.
set -euo pipefail
NQ_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
for arg in "$@"; do  # wherever it is given, as in every script
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
usage="usage: scripts/gpu_resources.sh [ARCH], ARCH a CUDA architecture such as 90 or 90a"
(($# <= 1)) || { echo "gpu_resources.sh: one ARCH at most; $usage" >&2; exit 2; }
ARCH=${1:-90}
[[ $ARCH =~ ^[0-9]{2,3}[a-z]?$ ]] || { echo "gpu_resources.sh: '$ARCH' is not a CUDA architecture; $usage" >&2; exit 2; }
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [[ ! -x $NVCC ]]; then
  echo "gpu_resources.sh: no nvcc (on PATH or in /usr/local/cuda/bin)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NVCC" -I "$NQ_ROOT/src" -I "$NQ_ROOT/include" -O3 -DNDEBUG -std=c++20 -Xcompiler=-fPIC \
  --generate-code="arch=compute_$ARCH,code=sm_$ARCH" --resource-usage -x cu \
  -c "$NQ_ROOT/src/engines/gpu/gpu_cuda_stream.cu" -o "$work/kernels.o" >"$work/ptxas.txt" 2>&1 || {
  cat "$work/ptxas.txt" >&2
  exit 1
}
# One line per kernel_of<Kernel>: its name, then what ptxas reported of it.
printf '%-32s %9s %12s %8s %14s\n' kernel registers "shared (B)" spills "blocks per SM"
while IFS=$'\t' read -r mangled registers shared spills; do
  name=$(c++filt <<<"$mangled" | sed -E 's/^[^<]*<//; s/ ?>\(.*$//; s/nqueens::detail::gpu:://g')
  by_registers=$((65536 / (((registers * 32 + 255) / 256 * 256) * 8)))
  by_shared=$((233472 / (shared + 1024)))
  by_threads=$((2048 / 256))
  blocks=$by_registers
  ((by_shared < blocks)) && blocks=$by_shared
  ((by_threads < blocks)) && blocks=$by_threads
  printf '%-32s %9d %12d %8d %14d\n' "$name" "$registers" "$shared" "$spills" "$blocks"
done < <(awk '
  /Compiling entry function/ { match($0, /_Z[A-Za-z0-9_]+/); name = substr($0, RSTART, RLENGTH); spills = 0 }
  /bytes spill stores/ { for (i = 1; i <= NF; i++) if ($i == "spill" && $(i + 1) == "stores,") spills = $(i - 2) }
  /Used [0-9]+ registers/ {
    for (i = 1; i <= NF; i++) { if ($i == "registers,") registers = $(i - 1) }
    shared = 0
    if (match($0, /[0-9]+ bytes smem/)) shared = substr($0, RSTART, RLENGTH) + 0
    printf "%s\t%d\t%d\t%d\n", name, registers, shared, spills
  }' "$work/ptxas.txt")
