#!/usr/bin/env bash
# Installs what is missing, builds Release with tests and benchmarks, runs every
# test with CTest. Extra arguments go to ctest (e.g. -R Cli).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
nq_build
cd "$NQ_BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
