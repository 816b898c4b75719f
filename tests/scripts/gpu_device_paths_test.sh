#!/usr/bin/env bash
# scripts/gpu.sh's paths that only a device takes (CI runs it --emulate),
# run here with stand-ins: cmake, ctest and nvidia-smi that build and run
# nothing, and build/gpu/nqueens a wrapper around the tool with the kernels
# emulated. Its ab step, on a copy of the scripts in a tree of its own:
# a candidate that did not build is named and skipped, one that fails is
# left out of the medians and not run again, one that hangs is cut at its
# cap (4 times the head's run, 30 s at least) and the others are
# still timed; a stop mid-step prints the medians of the runs so far and
# exits 143.
#   tests/scripts/gpu_device_paths_test.sh NQUEENS
set -euo pipefail
tool=$(readlink -f "${1:?usage: gpu_device_paths_test.sh NQUEENS}")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree/scripts" "$work/bin" "$work/out"
cp "$repo/scripts/gpu.sh" "$repo/scripts/common.sh" "$repo/scripts/gpu_resources.sh" "$work/tree/scripts/"

# The stand-ins. cmake: a configure that finds CUDA and keeps the
# candidates asked for; a build that writes the wrapper and the modules,
# all but `wide` among the candidates (as if ptxas refused it).
cat >"$work/bin/cmake" <<EOF
#!/usr/bin/env bash
if [[ \$1 == --build ]]; then
  build=\$2
  if [[ " \$* " == *" nqueens_gpu_candidates "* ]]; then
    IFS=';' read -ra entries <"$work/candidates"
    for entry in "\${entries[@]}"; do
      [[ \${entry%%=*} == wide ]] || : >"\$build/libnqueens-gpu-\${entry%%=*}.so"
    done
    [[ \$* != *"-k 0"* ]] || exit 1  # kept going past the one that failed
    exit 0
  fi
  cp "$work/wrapper" "\$build/nqueens"
  : >"\$build/libnqueens-gpu.so"
  exit 0
fi
for arg; do
  [[ \$arg != -DNQUEENS_GPU_CANDIDATES=* ]] || printf '%s' "\${arg#*=}" >"$work/candidates"
done
echo "-- nqueens: GPU engine device code ON"
EOF
# The tool, emulated; Q(21) is Q(10) here. `spin` fails, `graphs` hangs.
cat >"$work/wrapper" <<EOF
#!/usr/bin/env bash
args=("\$@")
[[ \${args[0]} != count || \${args[1]} != 21 ]] || args[1]=10
case \${NQUEENS_GPU_MODULE:-} in
  *-spin.so) exit 3 ;;
  *-graphs.so) exec sleep 600 ;;
esac
export NQUEENS_GPU=emulate
unset NQUEENS_GPU_MODULE
exec "$tool" "\${args[@]}"
EOF
printf '#!/bin/sh\nexit 0\n' >"$work/bin/nvidia-smi"
chmod +x "$work/bin/cmake" "$work/wrapper" "$work/bin/nvidia-smi"

failed=0
fail() {
  echo "FAIL: $*" >&2
  failed=1
}
has() {  # has TEXT: the figures hold it
  grep -qF -- "$1" "$work/out/gpu-figures.txt" || fail "the figures lack '$1'"
}

status=0
# Five candidates of all (NQ_GPU_AB), each rigged or timed, so that the
# step's counts hold on a loaded machine: with all 13, CI's (ctest -j8 on
# 2 cores, a build beside it) took more than 200 s.
export NQ_GPU_AB=whole,wide,spin,graphs,carveout
PATH=$work/bin:$PATH OUT=$work/out NQ_GPU_SECONDS=240 timeout 200 bash "$work/tree/scripts/gpu.sh" ab \
  >"$work/ab.log" 2>&1 || status=$?
[[ $status == 1 ]] || fail "ab exited $status, not 1 (a module failed): $(tail -5 "$work/ab.log")"
has "candidates not built (ab goes on without them): wide"
has "wide: no module"
has "spin: FAILED, left out of the medians"
# The cap is 4 times the head's first run, 30 s at least: whatever it came
# to on a loaded machine, the hung module is cut at it, not at the part's end.
grep -qE "^graphs: cut after [0-9]+ s \(4 times the head's run\), left out of the medians$" "$work/out/gpu-figures.txt" ||
  fail "graphs was not cut at its cap: $(grep '^graphs' "$work/out/gpu-figures.txt")"
has "# Q(21) shard 0/8 by module: median engine seconds (runs), against the head's"
runs() {  # runs NAME: how many times the module was counted
  grep -c "^## module $1\$" "$work/out/gpu-figures.txt" || true
}
[[ $(runs spin) == 1 && $(runs graphs) == 1 ]] || fail "spin ran $(runs spin) times and graphs $(runs graphs), not once each"
[[ $(runs whole) == 3 && $(runs carveout) == 3 ]] || fail "whole ran $(runs whole) times and carveout $(runs carveout), not 3"
grep -qE '^#   carveout +[0-9.e-]+ s \( [0-9.e-]+ [0-9.e-]+ [0-9.e-]+ \)  [0-9.]+x the head$' "$work/out/gpu-figures.txt" ||
  fail "no median of three runs for carveout: $(grep '^#   carveout' "$work/out/gpu-figures.txt")"

# A stop once the head has been counted: its medians so far, then 143.
rm -f "$work/out/gpu-figures.txt"
PATH=$work/bin:$PATH OUT=$work/out NQ_GPU_SECONDS=240 bash "$work/tree/scripts/gpu.sh" ab >"$work/stop.log" 2>&1 &
pid=$!
for ((tenths = 0; tenths < 1200; tenths++)); do
  grep -q '^## module whole$' "$work/out/gpu-figures.txt" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -TERM "$pid" 2>/dev/null || fail "ab ended before its stop: $(tail -3 "$work/stop.log")"
status=0
wait "$pid" || status=$?
[[ $status == 143 ]] || fail "the stopped ab exited $status, not 143"
has "by module: median engine seconds (runs), against the head's (stopped: the runs so far)"
grep -qE '^#   head +[0-9.e-]+ s \( [0-9.e-]+ \)  1\.000x the head$' "$work/out/gpu-figures.txt" ||
  fail "the stopped table has no head's run: $(grep '^#   head' "$work/out/gpu-figures.txt")"
has "(terminated)"

((failed == 0)) || { echo "logs: $(cat "$work/ab.log")" >&2; exit 1; }
echo "gpu_device_paths: ab's cut, failed and unbuilt modules and its stop as a device would meet them"
