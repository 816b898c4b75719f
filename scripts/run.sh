#!/usr/bin/env bash
# Quick start: installs what is missing, builds Release, runs `nqueens ARGS...`.
# With no arguments it counts the 12-queens solutions.
#   scripts/run.sh                      # nqueens count 12
#   scripts/run.sh count 16 --threads 2
#   scripts/run.sh verify --from 1 --to 15
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
# nqueens-mpi too, where MPI was found, so that every command in the README works.
nq_build nqueens_cli '?nqueens_mpi'
(($# == 0)) && set -- count 12
exec "$NQ_BUILD_DIR/nqueens" "$@"
