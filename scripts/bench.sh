#!/usr/bin/env bash
# Runs the Google Benchmark suite (Release build) and saves its JSON output.
#   scripts/bench.sh                          # everything, 5 repetitions interleaved at random, medians
#                                             # (tens of minutes: narrow it with a filter)
#   scripts/bench.sh --benchmark_filter='Engine|Textbook'   # single-thread engines vs the baseline
# Output: bench-results/<date>-<time>-<host>-<pid>.json (and the console table on stdout),
# .csv or .txt for --benchmark_out_format=csv or console, unless
# --benchmark_out names the user's own file.
# Extra arguments go to the benchmark binary (nqueens_bench --help lists
# them; given again, they win over these defaults). The repetitions run in a
# random order across the benchmarks, so that a slow minute of a shared
# machine falls on several rows, not on one side of a ratio; the file keeps
# every repetition beside the aggregates, the console the aggregates alone. A benchmark that computes a wrong count fails the run: exit 1,
# nothing saved.
set -euo pipefail  # before common.sh: a failed source must stop the script
# Before any install or build: the usage, and a format it cannot save.
format=json
for arg in "$@"; do
  if [[ $arg == --help || $arg == -h ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
  [[ $arg == --benchmark_out_format=* ]] && format=${arg#--benchmark_out_format=}
done
case $format in
  json | csv) extension=$format ;;
  console) extension=txt ;;
  *) echo "bench.sh: --benchmark_out_format is json, csv or console, not '$format'" >&2; exit 2 ;;
esac
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
# The results folder made and written before a build of minutes, where
# this run saves there (not for a list, nor a --benchmark_out of the user's).
out_dir=${NQ_BENCH_OUT:-$NQ_ROOT/bench-results}
saves=1
for arg in "$@"; do
  [[ $arg == --benchmark_list_tests || $arg == --benchmark_out=* || $arg == --benchmark_out ]] && saves=0
  value=${arg#--benchmark_list_tests=}
  [[ $arg == --benchmark_list_tests=* && ! ${value,,} =~ ^(false|f|no|n|off|0)$ ]] && saves=0
done
if ((saves)); then
  if ! mkdir -p "$out_dir" 2>/dev/null || ! probe=$(mktemp "$out_dir/.bench-probe.XXXXXX" 2>/dev/null); then
    echo "bench.sh: cannot write the results folder $out_dir (a file there, or no permission; NQ_BENCH_OUT names another)" >&2
    exit 2
  fi
  rm -f "$probe"
fi
NQ_WITH_TESTS=1 nq_build nqueens_bench
for arg in "$@"; do  # a list of the benchmarks: nothing runs, nothing is saved
  [[ $arg == --benchmark_list_tests ]] && exec "$NQ_BUILD_DIR/nqueens_bench" "$@"
  if [[ $arg == --benchmark_list_tests=* ]]; then
    value=${arg#*=}
    # Google Benchmark's false: anything else asks for the list.
    [[ ${value,,} =~ ^(false|f|no|n|off|0)$ ]] || exec "$NQ_BUILD_DIR/nqueens_bench" "$@"
  fi
done
defaults=(--benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
  --benchmark_display_aggregates_only=true)
for arg in "$@"; do  # the user's own output file: theirs alone, nothing saved here
  [[ $arg == --benchmark_out=* || $arg == --benchmark_out ]] &&
    exec "$NQ_BUILD_DIR/nqueens_bench" "${defaults[@]}" "$@"
done
# A name of its own for each run (two in one second too); written under a
# temporary name and renamed once whole, so that a run stopped or failed
# half-way leaves no half a JSON among the results.
# In the format asked for (--benchmark_out_format: json, the default, csv
# or console), named by it.
out="$out_dir/$(date +%Y%m%d-%H%M%S)-$(hostname -s)-$$.$extension"
partial="$out.partial"
trap 'rm -f "$partial"' EXIT
# A Ctrl-C ends the script by SIGINT itself, the file removed (a loop that
# runs it stops too); a TERM or HUP to the script alone ends the benchmark
# too (it ran on, adopted by init); and no build replaces the binary
# meanwhile: nq_run_locked.
nq_run_locked "$NQ_BUILD_DIR/nqueens_bench" "${defaults[@]}" \
  --benchmark_out="$partial" --benchmark_out_format="$format" "$@"
# A filter that matched nothing leaves an empty file (and exit 0): said, not saved.
if [[ ! -s $partial ]]; then
  echo "bench.sh: no benchmark ran (see --benchmark_list_tests): nothing saved" >&2
  exit 2
fi
mv "$partial" "$out"
echo "saved $out" >&2
