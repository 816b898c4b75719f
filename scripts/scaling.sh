#!/usr/bin/env bash
# Thread scaling of Q(N) on this machine: runs `nqueens scale N` (1, 2, 4, ...
# threads and all hardware threads, median of 3 runs each), writes the rows as
# CSV and plots speed-up and efficiency against threads, with the ideal line.
#   scripts/scaling.sh 16                  # -> results/scaling-16-<host>-<time>-<pid>.{csv,png}
#   scripts/scaling.sh 18 --repeat 5       # extra arguments go to `nqueens scale`
set -euo pipefail  # before common.sh: a failed source must stop the script
# Numbers read and written with a decimal point, as nqueens writes them,
# whatever the user's locale: under de_DE.UTF-8 awk read "0.72" as 0 and
# printed "0,72".
export LC_ALL=C.UTF-8
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
usage="usage: scripts/scaling.sh N [nqueens scale options]"
(($# >= 1)) || { echo "$usage" >&2; exit 2; }
for arg in "$@"; do  # anywhere: `scaling.sh 16 --help` runs nothing either
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    echo "The options after N are nqueens scale's: nqueens scale --help lists them."
    exit 0
  fi
done
n=$1
shift
# Said before any install or build: nqueens checks the rest (before gnuplot
# is installed: a mistyped option installs nothing).
# The tool's rule and range (nqueens::max_board_size), so that `scaling.sh 0`
# is refused before a build of minutes, not after it.
if [[ ! $n =~ ^[1-9][0-9]{0,1}$ ]] || ((n > 32)); then
  echo "scaling.sh: N is a board size, a whole number from 1 to 32 (not '$n'); $usage" >&2
  exit 2
fi
for arg in "$@"; do
  if [[ $arg == --csv || $arg == --csv=* ]]; then
    echo "scaling.sh: it writes its own CSV beside the plot: give no --csv (or run 'nqueens scale N --csv FILE')" >&2
    exit 2
  fi
done
# The results folder made and written before a build of minutes.
out_dir=${NQ_RESULTS_DIR:-$NQ_ROOT/results}
if ! mkdir -p "$out_dir" 2>/dev/null || ! probe=$(mktemp "$out_dir/.scaling-probe.XXXXXX" 2>/dev/null); then
  echo "scaling.sh: cannot write the results folder $out_dir (a file there, or no permission; NQ_RESULTS_DIR names another)" >&2
  exit 2
fi
rm -f "$probe"
nq_build nqueens_cli
# A name of its own for each measurement: an earlier one is never replaced.
base="$out_dir/scaling-$n-$(hostname -s)-$(date +%Y%m%d-%H%M%S)-$$"
# A TERM or HUP to the script alone ends the count too (it ran on, adopted
# by init, and wrote its CSV after the script had gone); no build replaces
# the binary meanwhile.
nq_run_locked "$NQ_BUILD_DIR/nqueens" scale "$n" --csv "$base.csv" "$@"
max_threads=$(tail -n +2 "$base.csv" | cut -d, -f1 | sort -n | tail -1)
# One row (--threads 1, or a machine of one hardware thread) has no speed-up
# to draw: a plot of one dot would only look like a failed one (and no
# gnuplot is installed for it).
if ((max_threads <= 1)); then
  echo "scaling.sh: wrote $base.csv; no plot: one thread only, no speed-up to draw" >&2
  exit 0
fi
# gnuplot from anywhere (a PATH of its own, a distribution without dpkg),
# else Debian's, installed with one try at apt's lists: without it the
# table and the CSV are still made, the plot is not, and the script says so
# (exit 3).
no_plot=
if ! command -v gnuplot >/dev/null; then
  NQ_APT_TRIES=1 nq_ensure_packages gnuplot-nox || true
  if ! command -v gnuplot >/dev/null; then
    no_plot="gnuplot is missing (Debian: apt-get install gnuplot-nox)"
    # Installed, but not where PATH looks: that, not an install, is the fix.
    dpkg-query -W -f='${Status}' gnuplot-nox 2>/dev/null | grep -q 'ok installed' &&
      no_plot="gnuplot is not on PATH, though Debian's gnuplot-nox is installed (/usr/bin/gnuplot)"
  fi
fi
if [[ -z $no_plot ]] && ! gnuplot -e 'set terminal pngcairo' 2>/dev/null; then
  no_plot="this gnuplot has no pngcairo terminal (Debian's gnuplot-nox has)"
fi
if [[ -n $no_plot ]]; then
  echo "scaling.sh: wrote $base.csv; no plot: $no_plot" >&2
  exit 3
fi
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1 || true)
engine=$(sed -n 2p "$base.csv" | cut -d, -f10)
kernels=$(sed -n 2p "$base.csv" | cut -d, -f12)
# The plan every row counted: the CSV's last two columns.
plan_shape=$(sed -n 2p "$base.csv" | awk -F, '{printf "split depth %s, %s subproblems", $(NF-1), $NF}')
# The efficiency axis reaches the highest point (a superlinear row is data,
# not to be clipped); from 16 threads on, threads double along the x axis.
max_efficiency=$(tail -n +2 "$base.csv" | cut -d, -f4 | sort -g | tail -1)
# The GPU engine's threads drive a GPU each, up to the GPUs it took: past
# them the ideal stays flat, and efficiency is per GPU (gpus, the CSV's
# fourth column from the end: the processor's name before it may hold commas).
ideal=x
x_label=threads
efficiency_label="parallel efficiency"
if [[ $engine == gpu ]]; then
  gpus=$(tail -n +2 "$base.csv" | awk -F, '{print $(NF-3)}' | sort -n | tail -1)
  ideal="(x < $gpus ? x : $gpus)"
  x_label="threads (one GPU each, $gpus GPU$( ((gpus == 1)) || echo s))"
  efficiency_label="parallel efficiency per GPU"
fi
x_axis="set xrange [0.8:$max_threads * 1.05]; set xtics 1"
((max_threads < 16)) || x_axis="set logscale x 2; set xrange [0.9:$max_threads * 1.1]; set xtics 2"
# TEXT as one gnuplot string: single-quoted, a quote doubled, nothing else
# read (a double quote in a results path broke the plot's script).
gnuplot_string() { printf "'%s'" "${1//\'/\'\'}"; }
csv=$(gnuplot_string "$base.csv")
gnuplot_failed() {
  rm -f "$base.png"  # gnuplot opens it before it plots: no half a plot left
  echo "scaling.sh: wrote $base.csv; no plot: gnuplot failed (its message above)" >&2
  exit 3
}
gnuplot <<GNUPLOT || gnuplot_failed
set terminal pngcairo size 900,600 font "sans,11"
set output $(gnuplot_string "$base.png")
set datafile separator ","
set key autotitle columnhead outside below horizontal
set title $(gnuplot_string "nqueens scale $n, engine $engine, $plan_shape") . "\\n" . $(gnuplot_string "kernels $kernels — $cpu ($max_threads threads at most)")
set xlabel "$x_label"
set ylabel "speed-up over 1 thread"
set y2label "$efficiency_label"
$x_axis
set yrange [0:*]
set y2range [0:(($max_efficiency > 1.1) ? $max_efficiency * 1.05 : 1.1)]
set ytics nomirror
set y2tics 0.2
set grid
plot sample [x=1:$max_threads] $ideal title "ideal" with lines dashtype 2 lc rgb "gray50", \
     $csv using 1:3 title "speed-up" with linespoints pt 7 lw 2 lc rgb "#1f77b4", \
     $csv using 1:4 axes x1y2 title "efficiency" with linespoints pt 5 lw 2 lc rgb "#d62728"
GNUPLOT
echo "wrote $base.csv and $base.png" >&2
