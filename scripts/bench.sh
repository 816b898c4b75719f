#!/usr/bin/env bash
# Runs the Google Benchmark suite (Release build) and saves its JSON output.
#   scripts/bench.sh                          # everything, 5 repetitions, medians
#   scripts/bench.sh --benchmark_filter='Engine|Textbook'   # single-thread engines vs the baseline
# Output: bench-results/<date>-<host>.json (and the console table on stdout).
# Extra arguments go to the benchmark binary.
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
NQ_WITH_TESTS=1 nq_build nqueens_bench
for arg in "$@"; do  # the benchmark's own help or list: nothing runs, nothing is saved
  [[ $arg == --help || $arg == -h ]] && exec "$NQ_BUILD_DIR/nqueens_bench" --help
  [[ $arg == --benchmark_list_tests* ]] && exec "$NQ_BUILD_DIR/nqueens_bench" "$@"
done
out_dir=${NQ_BENCH_OUT:-$NQ_ROOT/bench-results}
mkdir -p "$out_dir"
out="$out_dir/$(date +%Y%m%d-%H%M%S)-$(hostname -s).json"
"$NQ_BUILD_DIR/nqueens_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out" --benchmark_out_format=json "$@"
# A filter that matched nothing leaves an empty file (and exit 0): said, not saved.
if [[ ! -s $out ]]; then
  rm -f "$out"
  echo "bench.sh: no benchmark ran (see --benchmark_list_tests): nothing saved" >&2
  exit 2
fi
echo "saved $out" >&2
