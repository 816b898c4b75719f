#!/usr/bin/env bash
# scripts/check_layers.sh passes on the tree as it is, and fails, naming the
# file and the include, on a copy with an include planted across the layers
# (a kernel reaching up into the command line; a public header of the run
# layer reaching into the MPI front end; the engines' shared join model
# reaching into the quadrant engine's folder; the GPU engine into the
# quadrant engine's; an include by a relative path; a project header in
# angle brackets).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$repo/scripts/check_layers.sh" "$repo" 2>/dev/null || { echo "FAIL: the tree itself crosses the layers" >&2; exit 1; }
cp -r "$repo/src" "$repo/include" "$work/"
echo '#include "cli/output.hpp"' >> "$work/src/kernels/bits.hpp"
echo '#include "mpi/protocol.hpp"' >> "$work/include/nqueens/reduce.hpp"
echo '#include "engines/quadrant/quadrant_solve.hpp"' >> "$work/src/engines/join_model/half_masks.hpp"
echo '#include "engines/quadrant/quadrant_solve.hpp"' >> "$work/src/engines/gpu/gpu_job.hpp"
echo '#include "../cli/output.hpp"' >> "$work/src/kernels/bits.hpp"
echo '#include <cli/output.hpp>' >> "$work/src/isa/features.hpp"
if out=$(bash "$repo/scripts/check_layers.sh" "$work" 2>&1); then
  echo "FAIL: the planted includes passed: $out" >&2
  exit 1
fi
for expected in 'src/kernels/bits.hpp (kernels) includes "cli/output.hpp" (cli)' \
  'include/nqueens/reduce.hpp (run) includes "mpi/protocol.hpp" (mpi)' \
  'src/engines/join_model/half_masks.hpp (engines/join_model) includes "engines/quadrant/quadrant_solve.hpp" (engines/quadrant)' \
  'src/engines/gpu/gpu_job.hpp (engines/gpu) includes "engines/quadrant/quadrant_solve.hpp", another engine'"'"'s folder' \
  'src/kernels/bits.hpp includes "../cli/output.hpp" by a relative path' \
  'src/isa/features.hpp: #include <cli/output.hpp>: a project header in angle brackets' \
  '6 include(s) cross the layers'; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: expected '$expected' in: $out" >&2; exit 1; }
done
echo "check_layers: passes the tree, fails the planted includes"
