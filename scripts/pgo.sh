#!/usr/bin/env bash
# Builds build/pgo/nqueens, and build/pgo/nqueens-mpi where Open MPI is
# found, with profile-guided optimization (GCC): a tool whose counting code
# (every kernel set's kernels, the quadrant engine) is instrumented to write
# a profile counts n = 16..18 with every kernel set this machine runs, then
# that code is built again, in the same folder, optimized with that profile
# (the rest, the same in both, is compiled once), and the tool verified
# against the published counts for every kernel set. CPU counts 5-8% faster than build/release's on a Zen 5
# (docs/performance.md); kernel sets the training could not run are built
# as without a profile, and the GPU engine is not built. About 3 minutes
# on 2 cores.
#   scripts/pgo.sh               # then: build/pgo/nqueens count 20
#                                # or: mpirun -np R build/pgo/nqueens-mpi 27
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"
if (($# > 0)); then
  echo "usage: scripts/pgo.sh (no arguments)" >&2
  exit 2
fi
nq_ensure_packages "${NQ_RUN_PACKAGES[@]}"
out=$NQ_ROOT/build/pgo
profile=$out/profile
mkdir -p "$out"
# One at a time: two trainings would mix their profiles, two builds trip over each other.
exec {lock}>"$out/.nq_build.lock"
flock -n "$lock" || {
  echo "pgo.sh: waiting for another scripts/pgo.sh" >&2
  flock "$lock"
}
rm -rf "$NQ_ROOT/build/pgo-generate"  # where this script built the instrumented tool before
# Warnings stay warnings here: the profile's inlining brings GCC 12's false
# -Wrestrict on std::string, and build/release keeps them errors in CI.
configure() {  # FOLDER generate|use
  cmake -S "$NQ_ROOT" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNQUEENS_WITH_CUDA=OFF -DNQUEENS_BUILD_TESTS=OFF \
    -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_PGO="$2" -DNQUEENS_PGO_DATA="$profile" -DNQUEENS_WERROR=OFF >&2
}
configure "$out" generate
rm -f "$out/nqueens-mpi"  # an earlier run's, where MPI is no longer found, is neither checked nor named
# From here until the optimized tools are built and verified, build/pgo/nqueens
# is the instrumented one (or one that failed its check): a failure midway
# removes them, so that nobody runs a slow or unproven tool thinking it the
# trained one. (A failure before, configuring, leaves an earlier run's.)
finished=0
trap '((finished)) || rm -f "$out/nqueens" "$out/nqueens-mpi"' EXIT
cmake --build "$out" --target nqueens_cli >&2
generate=$out  # the instrumented tool, until the library is built again
# A new profile each time: counts of an older tool's code would not fit this one's.
rm -rf "$profile"
isas=$("$generate/nqueens" --list isas)
trained=()
kernel_sets=()
for isa in $isas; do
  # A kernel set this processor lacks is refused (exit 2, saying so): not
  # trained. Any other failure is the tool's, and ends the script.
  status=0
  said=$(NQUEENS_ISA=$isa "$generate/nqueens" count 12 --no-progress 2>&1 >/dev/null) || status=$?
  if ((status != 0)); then
    [[ $status == 2 && $said == *"is not supported by this CPU"* ]] && continue
    echo "pgo.sh: the instrumented tool failed with the $isa kernels (exit $status): $said" >&2
    exit 1
  fi
  for n in 16 17; do
    NQUEENS_ISA=$isa "$generate/nqueens" count $n -t 1 --no-progress >/dev/null
  done
  trained+=("$isa")
  # The kernels it ran ("avx512+vpopcntdq" on a CPU with that extension), whose object must take the profile.
  kernel_sets+=("$(NQUEENS_ISA=$isa "$generate/nqueens" --version | sed -n 's/^kernels: //p')")
done
"$generate/nqueens" count 18 -t 2 --no-progress >/dev/null  # the arena's threads, with the kernels chosen at start
((${#trained[@]} > 0)) || { echo "pgo.sh: no kernel set ran here" >&2; exit 1; }
[[ -n $(find "$profile" -name '*.gcda' -print -quit 2>/dev/null) ]] ||
  { echo "pgo.sh: the instrumented tool wrote no profile in $profile" >&2; exit 1; }
echo "pgo.sh: trained with the ${trained[*]} kernels" >&2
# The library's objects again, their options changed (ninja does not know
# they depend on the profile: a later run's generate changes them back).
configure "$out" use
# The MPI tool too, for the longest counts of all: the same library, so the
# same trained kernels (its own code, untrained, is built as without a profile).
targets=(nqueens_cli)
if grep -q '^build nqueens-mpi:' "$out/build.ninja"; then targets+=(nqueens_mpi); fi
cmake --build "$out" --target "${targets[@]}" >&2
# The profile taken by each kernel set trained: GCC puts the functions it
# found hot in .text.hot, and the build hides a profile it did not find.
for kernels in "${kernel_sets[@]}"; do
  kernel=$out/src/CMakeFiles/nqueens.dir/engines/quadrant/quadrant_kernel_${kernels//[-+]/_}.cpp.o
  [[ -f $kernel ]] || { echo "pgo.sh: no object $kernel for the $kernels kernels" >&2; exit 1; }
  sections=$(LC_ALL=C readelf -SW "$kernel")
  grep -q '\.text\.hot' <<<"$sections" || { echo "pgo.sh: $kernel has no hot code: the profile was not used" >&2; exit 1; }
done
for isa in "${trained[@]}"; do
  NQUEENS_ISA=$isa "$out/nqueens" verify --from 1 --to 15 --no-progress >/dev/null ||
    { echo "pgo.sh: $out/nqueens verify --to 15 failed with the $isa kernels" >&2; exit 1; }
done
"$out/nqueens" verify --from 1 --to 16 --no-progress >&2
echo "$out/nqueens"
if [[ -x $out/nqueens-mpi ]]; then
  # One rank, started without mpirun (a singleton): its count verified.
  "$out/nqueens-mpi" 16 --no-progress >&2 || { echo "pgo.sh: $out/nqueens-mpi 16 failed" >&2; exit 1; }
  echo "$out/nqueens-mpi"
fi
# shellcheck disable=SC2034 # read by the EXIT trap above
finished=1
