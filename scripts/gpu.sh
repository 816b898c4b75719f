#!/usr/bin/env bash
# The GPU engine on a GPU machine, one run of this script per step, every
# figure with its command in one file.
#
#   scripts/gpu.sh fetch                  here (Debian, with apt): Debian's oneTBB, cxxopts and
#                                         GoogleTest .debs into .gpu-debs/ (git ignores it:
#                                         copy it along with the tree), for a GPU machine with
#                                         no package registry
#   scripts/gpu.sh [--emulate] [STEP...]  steps (default: device), each one run on the GPU machine:
#     device   450 s in all; its parts, in order, with their caps in seconds: machine 20
#              (nvidia-smi, nvcc, CPU), build 240 (build/gpu, tests on the device; then
#              scripts/gpu_resources.sh: each kernel's registers and blocks per SM), test 120
#              (ctest -R gpu), counts 60 (Q(8..18), each exact; then Q(15) and Q(17) again with
#              each kernel timed, against their untimed runs), memcheck 60 (Q(12), Q(13)),
#              racecheck 45 and synccheck 30 (Q(11): 710 subproblems at split depth 1, where
#              Q(9), 333 at depth 2, took 3 s at c4a6f00), ownlists 30
#              (Q(16) at the least --gpu-memory its refusal names: the tables left on the
#              host, each subproblem's quarter lists staged, a path the tests only emulate),
#              threads16 60 and threads32 60 (Q(20)), speed 100 (Q(19), Q(21) twice where its time fits),
#              kernels 60 (Q(20), then Q(19) where time is left, on one thread: one stream,
#              so that each kernel's events time it alone), q22 150 (twice where it fits,
#              beside nvidia-smi dmon), q23 240 (where Q(22)'s time x 9 fits); then the speed
#              goals against the counts. The counts run untimed (NQUEENS_GPU_TIMES=0), as
#              users count, but for the kernels part and counts' second Q(15) and Q(17), which
#              time each kernel (events around each launch)
#     price    300 s in all, best right after device (the build is then done): build 240,
#              price 300 (`nqueens plan N --estimate --engine gpu` for N = 24..27, 30 s of
#              draws each: the whole count's GPU-hours on this GPU +- their standard error,
#              GPU-ns per solution), stop 60 (`count 28 --engine gpu --shard 0/4096
#              --checkpoint`, SIGINT once it counts: seconds to exit, the journal kept)
#     price28  320 s: build 240, price 300 for N = 28 alone with 120 s of draws (a subproblem
#              takes a stream over a minute there: 30 s cut most draws and priced too low)
#     ab       300 s in all: build 120 (with the candidate modules of AB_CANDIDATES, below:
#              the kernels built with one choice changed each), ab 270 (`count 21 --shard
#              0/8`, an eighth of Q(21)'s work dealt evenly over its plan, on each module in
#              turn, NQUEENS_GPU_MODULE naming it, up to 3 times each in rotated order: each
#              module's median engine seconds against the head's, and its count the head's;
#              a module's count cut at 4 times the head's first, 30 s at least, and one that
#              fails, is cut or did not build left out; the medians so far printed on a stop)
#     profile  300 s in all: build 200, ncu 240 (one visit kernel of Q(22), after
#              NQ_NCU_SKIP=10 launches of it)
#     scale    130 s: build, then `nqueens scale 20` (quadrant engine, 1..16 threads)
#   --emulate  here, with no GPU: NQUEENS_GPU=emulate, nq_build's build/release (untimed),
#              small boards (counts 8..12, 13 for 20, 9 and 11 for 19 and 21, 12 and 11 for
#              the kernels, 14 for 22, 15 for 23, price 14 with 2 s of draws and price28 15 with
#              3 s, stop at 18 (shard 0/4), scale 12 on 1,2 threads, ab 12 (shard 0/2) twice:
#              the candidates built as PTX alone, the emulator counting for each), ctest's GpuKernelsTest
#              and GpuEngineTest alone (test.sh runs the rest), no nvidia-smi, nvcc,
#              compute-sanitizer or ncu (the counts alone); 170 s for device, 60 s for
#              price, price28, ab, profile and scale
#
# device and ab fit in 15 minutes of a GPU machine (with its start), or device
# and price; price28 and profile in another 15. price and price28 are two
# calls (300 + 320 s is past a call's 10 minutes). Where one command may run 10
# minutes at most, device and ab are two commands, the second at once so
# that the machine (and build/gpu on it) is still held.
#
# A part gets at most its cap, never more than what is left of the step less
# what the parts after it keep; one cut by `timeout` says "(cut after N s)"
# and the script goes on. NQ_GPU_SECONDS sets every step's total,
# NQ_GPU_STEP_SECONDS lowers every cap (whole seconds), NQ_GPU_AB=NAME,...
# has ab time those candidates alone (names as in AB_CANDIDATES, below).
# Figures are added to
# $OUT/gpu-figures.txt where OUT is set (the device machine's folder that comes
# back; at most 7 flat files there), else to the build folder's, each run
# under its own header. Exits
# non-zero when a count differs from the published one or a part fails, not
# when one is cut or skipped for time.
set -euo pipefail
# Numbers read and written with a decimal point, as nqueens writes them,
# whatever the user's locale: under de_DE.UTF-8 awk read "0.72" as 0 and
# printed "0,72".
export LC_ALL=C.UTF-8
NQ_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)  # through a link too
cd "$NQ_ROOT"
DEBS=$NQ_ROOT/.gpu-debs
for arg in "$@"; do
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done

if [[ ${1:-} == fetch ]]; then
  if (($# > 1)); then
    echo "gpu.sh: fetch is a step of its own, here, alone: scripts/gpu.sh fetch ('$2' is extra)" >&2
    exit 2
  fi
  mkdir -p "$DEBS"
  debs=(libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libcxxopts-dev libgtest-dev)
  # A fresh machine's package lists are empty until an update.
  if ! (cd "$DEBS" && apt-get download "${debs[@]}"); then
    sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    (cd "$DEBS" && apt-get download "${debs[@]}")
  fi
  ls -l "$DEBS"
  exit 0
fi

EMULATE=0
if [[ ${1:-} == --emulate ]]; then
  EMULATE=1
  shift
fi
steps=("$@")
((${#steps[@]} > 0)) || steps=(device)
for step in "${steps[@]}"; do
  case $step in
    device | price | price28 | ab | profile | scale) ;;
    fetch)
      echo "gpu.sh: fetch is a step of its own, here, alone: scripts/gpu.sh fetch" >&2
      exit 2
      ;;
    *)
      echo "gpu.sh: unknown step '$step' (device, price, price28, ab, profile, scale, or fetch alone; --emulate first to run" \
        "here; --help)" >&2
      exit 2
      ;;
  esac
done

# The time settings read before anything is built or written: "abc" was an
# unbound variable in the scheduler's arithmetic, after the figures file
# was emptied.
for setting in NQ_GPU_SECONDS NQ_GPU_STEP_SECONDS; do
  if [[ -n ${!setting:-} && ! ${!setting} =~ ^[1-9][0-9]{0,5}$ ]]; then
    echo "gpu.sh: $setting='${!setting}' is not a whole number of seconds from 1 to 999999" >&2
    exit 2
  fi
done

if ((EMULATE)); then
  # shellcheck source=/dev/null
  source "$NQ_ROOT/scripts/common.sh"  # nq_build, NQ_BUILD_DIR
  BUILD=$NQ_BUILD_DIR
  export NQUEENS_GPU=emulate
  TESTS='^Gpu(Kernels|Engine)Test\.'  # the emulated engine-axis tests take minutes on 2 cores
  COUNTS=(8 9 10 11 12) TIMED_COUNTS=(11) MEMCHECK_N=(12 13) RACE_N=11 OWN_LISTS_N=16 THREADS_N=13 DMON_N=14 BIG_N=15 NCU_N=14
  SPEED_RUNS=(9 11 11) KERNELS_N=12 SMALL_N=10 PRICE28_N=(15) PRICE28_DRAW=3 PRICE28_SECONDS=60
  SCALE_N=12 SCALE_THREADS=1,2 DEVICE_SECONDS=170 PROFILE_SECONDS=60
  PRICE_N=(14) PRICE_DRAW=2 STOP_N=18 STOP_SHARDS=4 PRICE_SECONDS=60 SCALE_SECONDS=60
  AB_N=12 AB_SHARD=0/2 AB_REPEATS=2 AB_SECONDS=60
else
  BUILD=$NQ_ROOT/build/gpu
  export NQUEENS_GPU=device
  TESTS='Gpu|gpu'
  COUNTS=(8 9 10 11 12 13 14 15 16 17 18) TIMED_COUNTS=(15 17) MEMCHECK_N=(12 13) RACE_N=11 OWN_LISTS_N=16 THREADS_N=20 DMON_N=22 BIG_N=23 NCU_N=22
  SPEED_RUNS=(19 21 21) KERNELS_N=20 SMALL_N=12 PRICE28_N=(28) PRICE28_DRAW=120 PRICE28_SECONDS=320
  SCALE_N=20 SCALE_THREADS=1,2,4,8,16 DEVICE_SECONDS=450 PROFILE_SECONDS=300
  PRICE_N=(24 25 26 27) PRICE_DRAW=30 STOP_N=28 STOP_SHARDS=4096 PRICE_SECONDS=300 SCALE_SECONDS=130
  AB_N=21 AB_SHARD=0/8 AB_REPEATS=3 AB_SECONDS=300
fi
# The candidate modules of the ab step (src/CMakeLists.txt, NQUEENS_GPU_CANDIDATES):
# each the head's kernels with one build-time choice undone, so that the
# medians say what each change gave: visit blocks dealt whole (no north
# shares), the ten-digit visit at every n (five blocks an SM), the visit
# dealt by block index (no counter), a row set a size and join block (not
# eight, their products dealt to its lanes), every visit block 1024 south
# halves wide with the key a bit shorter (unpacked: the head before narrow
# blocks, which no device has timed yet); and two changes not yet taken:
# the visit loading each warp's next north code ahead (prefetch), and
# leaving a north half once its warp has no pair left, the digits ordered
# by the chance they collide (early_exit). And the host's wait for a round
# as the runtime's default, spinning a core a stream (spin), against the
# head's blocked wait; the visit reading a key's north bounds as its
# turn begins (bounds_late), not a key ahead as the head does; and every
# warp of every share walking every key its block's key misses
# (shared_walk), not the keys dealt among them where they are many
# (prefetch and bounds_late change that shared walk alone); the
# driver's own choice of each kernel's shared memory (carveout), not the
# most an SM has; and each round replayed as one CUDA graph (graphs), not
# a dozen calls to the driver, against small n's fixed cost a subproblem;
# and kernels that never read the stop word, host memory across PCIe,
# which every block of size, join, once and the visit reads at its first
# item (stop_unread: for measurement alone, a stop waits for the round);
# and rounds of 192 jobs, not 64 (rounds192: the engine hands a stream
# calls as large), a third of the launches and copies a subproblem; and
# the last two at once (rounds192_graphs): both work against what a round
# costs whatever it holds, and where each helps the pair is what the head
# would take, whose gain need not be the product of theirs; and every call
# sized on the device first (device_sizes), not on the host by its groups'
# bounds where they fit the arena, a round trip less a call.
AB_CANDIDATES="whole=NQUEENS_GPU_NORTH_PER_ITEM=0;wide=NQUEENS_GPU_WIDE_VISIT=1"
AB_CANDIDATES+=";by_index=NQUEENS_GPU_VISIT_COUNTER=0;row_set_blocks=NQUEENS_GPU_BLOCK_ROW_SETS=1"
AB_CANDIDATES+=";unpacked=NQUEENS_GPU_VISIT_PACKED=0;prefetch=NQUEENS_GPU_VISIT_PREFETCH=1"
AB_CANDIDATES+=";early_exit=NQUEENS_GPU_VISIT_EARLY_EXIT=1;spin=NQUEENS_GPU_WAIT_SPIN=1"
AB_CANDIDATES+=";bounds_late=NQUEENS_GPU_VISIT_BOUNDS_AHEAD=0;shared_walk=NQUEENS_GPU_WALK_BY_WARPS=0"
AB_CANDIDATES+=";carveout=NQUEENS_GPU_MAX_SHARED_CARVEOUT=0;graphs=NQUEENS_GPU_ROUND_GRAPHS=1"
AB_CANDIDATES+=";stop_unread=NQUEENS_GPU_STOP_READS=0;rounds192=NQUEENS_GPU_ROUND_JOBS=192"
AB_CANDIDATES+=";rounds192_graphs=NQUEENS_GPU_ROUND_JOBS=192,NQUEENS_GPU_ROUND_GRAPHS=1"
AB_CANDIDATES+=";device_sizes=NQUEENS_GPU_HOST_SIZES=0"
# NQ_GPU_AB=NAME[,NAME...]: ab builds and times these candidates alone
# (beside the head), where a call's time would not hold them all.
if [[ -n ${NQ_GPU_AB+set} ]]; then
  IFS=';' read -ra ab_entries <<<"$AB_CANDIDATES"
  ab_known=$(for entry in "${ab_entries[@]}"; do printf '%s ' "${entry%%=*}"; done)
  IFS=',' read -ra ab_wanted <<<"$NQ_GPU_AB,"  # the comma: a trailing empty name is read too
  ab_chosen=""
  for name in "${ab_wanted[@]}"; do
    entry=""
    for candidate in "${ab_entries[@]}"; do [[ ${candidate%%=*} != "$name" ]] || entry=$candidate; done
    if [[ -z $entry || ";$ab_chosen;" == *";$entry;"* ]]; then
      echo "gpu.sh: NQ_GPU_AB='$NQ_GPU_AB': '$name' is $([[ -n $entry ]] && echo named twice || echo "not a candidate")" \
        "(candidates: ${ab_known% })" >&2
      exit 2
    fi
    ab_chosen+="${ab_chosen:+;}$entry"
  done
  AB_CANDIDATES=$ab_chosen
fi
NQ=$BUILD/nqueens
STEP_CAP=${NQ_GPU_STEP_SECONDS:-100000}
FINAL_RESERVE=8  # seconds kept at the end of a step: a cut command's grace, the summary
if ! mkdir -p "$BUILD" 2>/dev/null || [[ ! -w $BUILD ]]; then
  echo "gpu.sh: cannot write the build folder $BUILD (a file there, or no permission)" >&2
  exit 2
fi
# One run at a time on a build folder: two would share its stop part's
# journal and, where OUT is not set, gpu-figures.txt.
exec {gpu_lock}>"$BUILD/.nq_gpu.lock"
# Children do not inherit it (bounded, the stop count, dmon close it), so a
# script killed outright frees it though a count it started runs on; a
# wait is bounded all the same, not a device call's whole time.
flock -n "$gpu_lock" || {
  echo "gpu.sh: waiting for another gpu.sh on $BUILD" >&2
  flock -w 120 "$gpu_lock" || {
    echo "gpu.sh: $BUILD/.nq_gpu.lock still held after 120 s (another gpu.sh, or what it started: pgrep -af nqueens)" >&2
    exit 1
  }
}
FIGDIR=${OUT:-$BUILD}
mkdir -p "$FIGDIR"
FIGURES=$FIGDIR/gpu-figures.txt
# Appended, each run under its own header: a `device` run's figures are
# not lost to a later `price` in the same folder.
[[ -s $FIGURES ]] && echo >>"$FIGURES"
failed=0
DMON_PID=
PART_PID=$(mktemp)  # the running part's `timeout`, for the stop traps below
trap '[[ -z $DMON_PID ]] || kill "$DMON_PID" 2>/dev/null || true; rm -f "$PART_PID"' EXIT

note() { echo "$*" | tee -a "$FIGURES"; }
# bounded SECONDS COMMAND...: COMMAND under `timeout -k 5`, which at its
# limit ends the command's whole process group (a build's compilers, a
# ctest's tests). That group is its own, out of reach of a Ctrl-C to this
# script's: the pid is noted (in a file: parts run in pipelines and $(...)),
# and a stop ends the part through it, then the script, its figures so far
# kept.
bounded() {
  local rc=0
  timeout -k 5 "$@" {gpu_lock}>&- &
  echo "$!" >"$PART_PID"
  wait "$!" || rc=$?
  : >"$PART_PID"
  return "$rc"
}
stop_part() {
  local pid
  pid=$(cat "$PART_PID" 2>/dev/null || true)
  [[ -z $pid ]] || kill -TERM "$pid" 2>/dev/null || true  # timeout passes it to the part's group
}
# The ab part's medians so far too: the runs it timed are not lost to a
# stop (the device call's limit sends one).
trap 'stop_part; ab_table "(stopped: the runs so far)"; note "(interrupted)"; exit 130' INT
trap 'stop_part; ab_table "(stopped: the runs so far)"; note "(terminated)"; exit 143' TERM
now() { date +%s; }
wall_now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(wall_now)" 'BEGIN { printf "%.3f", b - a }'; }
# A command as the figures show it: nqueens for its path, odd words quoted.
shown() {
  local arg words=()
  for arg in "$@"; do
    arg=${arg//"$NQ"/nqueens}
    [[ $arg =~ ^[A-Za-z0-9_./:=,+%@-]*$ ]] || arg="'$arg'"
    words+=("$arg")
  done
  echo "${words[*]}"
}
# Seconds left to the part under way (none before the first timed part:
# an emulated step's untimed build asks too).
part_deadline=0
part_left() { echo $((part_deadline - $(now))); }
# One field of a one-line JSON object (numbers, true/false/null), empty when absent.
json_value() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$2"; }

# published_of N: the published Q(N), as the tool's own table holds it (plan's JSON).
published_of() { json_value published_total "$("$NQ" plan "$1" --json 2>/dev/null)"; }

# limited SECONDS FILE COMMAND...: COMMAND under `timeout`, its output into
# FILE (the figures: also shown). Sets rc; a cut or a failure marks the part.
limited() {
  local seconds=$1 file=$2
  shift 2
  note "\$ $(shown "$@")"
  rc=0
  [[ $file == "$FIGURES" ]] || : >"$file"
  if ((seconds < 1)); then
    rc=124
  elif [[ $file == "$FIGURES" ]]; then
    bounded "$seconds" "$@" 2>&1 | tee -a "$FIGURES" || rc=$?
  else
    bounded "$seconds" "$@" >"$file" 2>&1 || rc=$?
  fi
  if ((rc == 124 || rc == 137)); then
    note "(cut after $part_limit s)"
    part_status="cut after $part_limit s"
  elif ((rc != 0)); then
    note "(exit $rc)"
    part_status="FAILED (exit $rc)"
    failed=1
  fi
  return 0
}

# count_exact N SECONDS [OPTION...]: `nqueens count N --engine gpu --json`
# (with the variables COUNT_ENV holds, NAME=VALUE each), checked against the
# published Q(N); wall seconds and GPU-ns per solution, and the device's
# launches, operations and kernel times where the JSON has them. Sets
# count_wall and count_json; returns 1 when the count was cut or failed.
COUNT_ENV=()
timed_runs=()  # "N ENGINE_SECONDS WALL TOTAL" of each count at the default threads or more
count_exact() {
  local n=$1 seconds=$2
  shift 2
  # Each kernel's device time comes with the count (events around each
  # launch: the per-kernel table the next profile starts from), unless
  # COUNT_ENV says otherwise (ab counts untimed, as users do): one setting
  # in the command shown.
  local timing=(NQUEENS_GPU_TIMES=1)
  [[ " ${COUNT_ENV[*]} " != *" NQUEENS_GPU_TIMES="* ]] || timing=()
  local cmd=(env "${timing[@]}" "${COUNT_ENV[@]}" "$NQ" count "$n" --engine gpu "$@" --json) json start status=0
  count_wall=
  count_json=
  note "\$ $(shown "${cmd[@]}")"
  start=$(wall_now)
  if ((seconds < 1)); then
    status=124
  else
    json=$(bounded "$seconds" "${cmd[@]}" 2>>"$FIGURES") || status=$?
  fi
  local wall total
  wall=$(seconds_since "$start")
  [[ -z ${json:-} ]] || note "$json"
  total=$(json_value total "${json:-}")
  # A shard's count has no published figure (verified null): its caller
  # compares it (part_ab: every module's with the head's).
  local verified
  verified=$(json_value verified "${json:-}")
  [[ $verified != null || $* != *--shard* ]] || verified=true
  if ((status == 124 || status == 137)); then
    note "Q($n): (cut after $seconds s)"
    part_status="cut after $part_limit s"
    return 1
  elif ((status != 0)) || [[ $verified != true ]]; then
    # The tool checks its count against the published Q(n) (its one table).
    note "Q($n): FAILED (exit $status, total ${total:-none}, published $(json_value published_total "${json:-}"))"
    part_status="FAILED: Q($n)"
    failed=1
    return 1
  fi
  count_wall=$wall
  count_json=$json
  local where="on the GPU" engine_seconds launches operations subproblems
  ((EMULATE)) && where="emulated (NQUEENS_GPU=emulate)"
  engine_seconds=$(json_value seconds "$json")
  # The head's module at the default threads or more: what the goals read.
  if [[ " ${COUNT_ENV[*]} " != *" NQUEENS_GPU_MODULE="* && " ${COUNT_ENV[*]} " != *" NQUEENS_GPU_TIMES=1 "* &&
    $engine_seconds =~ ^[0-9.e+-]+$ ]] &&
    [[ -z $* || $* == "--threads 16" || $* == "--threads 32" ]]; then
    timed_runs+=("$n $engine_seconds $wall $total")
  fi
  # Per solution by the engine's seconds, as the goals and performance.md
  # read them (the wall's hold the driver's start, 0.6-0.9 s on the H200).
  local per_solution=$wall
  [[ ! $engine_seconds =~ ^[0-9.e+-]+$ ]] || per_solution=$engine_seconds
  note "Q($n) = $total exact $where in $wall s wall (engine ${engine_seconds:-?} s):" \
    "$(awk -v s="$per_solution" -v q="$total" 'BEGIN { if (q > 0) printf "%.4f", s * 1e9 / q }') GPU-ns per solution"
  launches=$(json_value device_launches "$json")
  operations=$(json_value device_operations "$json")
  subproblems=$(json_value subproblems "$json")
  if [[ -n $launches || -n $operations ]]; then
    local per="?"
    [[ -z $operations || ${subproblems:-0} == 0 ]] ||
      per=$(awk -v o="$operations" -v s="$subproblems" 'BEGIN { printf "%.4g", o / s }')
    # And the engine's µs a subproblem: small boards' many small subproblems
    # cost about that much each, whatever they hold (docs/performance.md).
    local us="?"
    [[ ! $engine_seconds =~ ^[0-9.e+-]+$ || ${subproblems:-0} == 0 ]] ||
      us=$(awk -v t="$engine_seconds" -v s="$subproblems" 'BEGIN { printf "%.3g", t * 1e6 / s }')
    note "Q($n): ${launches:-?} device launches, ${operations:-?} device operations over" \
      "${subproblems:-?} subproblems: $per operations and $us µs of the engine per subproblem"
  fi
  local kernels
  kernels=$(grep -o '"device_kernel_seconds":{[^}]*}' <<<"$json" || true)
  [[ -z $kernels ]] || note "Q($n): kernel seconds ${kernels#*:}"
  # Whether the host or the device bounds many small rounds: the streams'
  # time between rounds and submitting them against waiting for them, and
  # the host's CPU time (its waits block, off the cores).
  local phases
  phases=$(grep -o '"round_phase_seconds":{[^}]*}' <<<"$json" || true)
  [[ -z $phases ]] || note "Q($n): round phase seconds ${phases#*:} summed over the streams;" \
    "host CPU $(json_value cpu_seconds "$json") s"
  return 0
}

# The tools of the GPU machine, each noted as skipped under emulation.
gpu_tool() {
  if ((EMULATE)); then
    note "$1: skipped under emulation"
    return 1
  fi
  local candidate
  for candidate in "$(command -v "$1" || true)" "/usr/local/cuda/bin/$1" /opt/nvidia/nsight-compute/*/"$1" \
    /opt/nvidia/*/"$1"; do
    if [[ -n $candidate && -x $candidate ]]; then
      tool=$candidate
      return 0
    fi
  done
  note "$1: not found, skipped"
  return 1
}

export PATH=/usr/local/cuda/bin:$PATH

# ---- the parts, each within part_deadline ----

part_machine() {
  note "# CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  if gpu_tool nvidia-smi; then
    # Persistence mode: without it the driver starts in each run, in a
    # small count's checks (0.58 of Q(12)'s 0.93 s wall on the H200).
    limited "$(part_left)" "$FIGURES" "$tool" \
      --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit,persistence_mode --format=csv
  fi
  if gpu_tool nvcc; then
    limited "$(part_left)" "$FIGURES" "$tool" --version
  fi
  if [[ $part_status == FAILED* ]]; then  # a note, not a failure: the parts after it tell
    part_status="incomplete (${part_status#FAILED })"
    failed=$failed_before_part
  fi
}

# part_build LIMIT [TARGET...]: build/gpu configured for the device (every
# target when none is named), or (emulated) nq_build's Release build, untimed.
part_build() {
  shift
  if ((EMULATE)); then
    note "\$ nq_build  (scripts/common.sh: $BUILD, Release, every target; untimed under emulation)"
    # In a subshell of its own, not under `if`: there bash ignores set -e
    # inside nq_build, whose failed install or configure would then pass.
    local build_status=0
    set +e
    (
      set -e
      NQ_WITH_TESTS=1 nq_build
    ) >"$BUILD/gpu-build.log" 2>&1
    build_status=$?
    set -e
    if ((build_status != 0)); then
      tail -40 "$BUILD/gpu-build.log" | tee -a "$FIGURES"
      part_status="FAILED"
    elif [[ " $* " == *" nqueens_gpu_candidates "* ]]; then
      # Built where nvcc is (as in CI), though the emulator loads no module:
      # a candidate that does not compile fails here, not on a device.
      if [[ -f $BUILD/libnqueens-gpu.so ]]; then
        note "\$ cmake -DNQUEENS_GPU_CANDIDATES='$AB_CANDIDATES' -DNQUEENS_GPU_CANDIDATES_PTX=ON $BUILD && cmake --build $BUILD --target nqueens_gpu_candidates"
        # Under the build folder's lock, as nq_build builds (a run.sh or
        # test.sh meanwhile would run a second ninja in it), and the cache
        # set back after, built or not: test.sh's build stays as configured.
        local build_lock built=0
        exec {build_lock}>"$BUILD/.nq_build.lock"
        nq_note_if_locked
        flock "$build_lock"
        # Each compiled to PTX alone, no module (src/CMakeLists.txt): the
        # emulator loads none, and the ab step's counts here name modules
        # that are not there.
        { cmake -DNQUEENS_GPU_CANDIDATES="$AB_CANDIDATES" -DNQUEENS_GPU_CANDIDATES_PTX=ON "$BUILD" &&
          cmake --build "$BUILD" --parallel "$(nproc)" --target nqueens_gpu_candidates; } >>"$BUILD/gpu-build.log" 2>&1 &&
          built=1
        cmake -DNQUEENS_GPU_CANDIDATES= -DNQUEENS_GPU_CANDIDATES_PTX=OFF "$BUILD" >>"$BUILD/gpu-build.log" 2>&1 || built=0
        exec {build_lock}>&-
        if ((!built)); then
          tail -40 "$BUILD/gpu-build.log" | tee -a "$FIGURES"
          part_status="FAILED"
        fi
      else
        note "no CUDA compiler here: the candidate modules are not built"
      fi
    fi
  else
    # Debian's packages unpacked beside the build, where the machine has none.
    if compgen -G "$DEBS/*.deb" >/dev/null; then
      local prefix=$BUILD/debian-prefix deb  # ours: no other user can plant files here
      note "unpacking $(cd "$DEBS" && echo *.deb) into $prefix"
      mkdir -p "$prefix"
      for deb in "$DEBS"/*.deb; do
        if command -v dpkg-deb >/dev/null; then
          dpkg-deb -x "$deb" "$prefix"
        else  # a .deb is an ar archive around data.tar.xz (Debian 12's)
          ar p "$deb" data.tar.xz | tar -xJ -C "$prefix"
        fi
      done
      [[ :${CMAKE_PREFIX_PATH:-}: == *":$prefix/usr:"* ]] ||
        export CMAKE_PREFIX_PATH=$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
      [[ :${LD_LIBRARY_PATH:-}: == *":$prefix/usr/lib/x86_64-linux-gnu:"* ]] ||
        export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
    local generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    local candidates="" target main=()
    for target in "$@"; do
      if [[ $target == nqueens_gpu_candidates ]]; then candidates=$AB_CANDIDATES; else main+=("$target"); fi
    done
    # Modules for the device (PTX alone only ever under --emulate, set
    # explicitly: a cache left so would have the driver compile them in
    # the timed counts).
    limited "$(part_left)" "$BUILD/configure.log" cmake -S . -B "$BUILD" "${generator[@]}" \
      -DCMAKE_BUILD_TYPE=Release -DNQUEENS_BUILD_BENCH=OFF -DNQUEENS_TEST_GPU=device \
      -DNQUEENS_GPU_CANDIDATES="$candidates" -DNQUEENS_GPU_CANDIDATES_PTX=OFF
    if ((rc == 0)) && ! grep -q 'GPU engine device code ON' "$BUILD/configure.log"; then
      note "gpu.sh: CMake found no CUDA compiler"
      part_status="FAILED: no CUDA"
    elif ((rc == 0)); then
      local targets=()
      ((${#main[@]} == 0)) || targets=(--target "${main[@]}")
      limited "$(part_left)" "$BUILD/build.log" cmake --build "$BUILD" --parallel "$(nproc)" "${targets[@]}"
      [[ $rc == 0 || ! -f $BUILD/build.log ]] || tail -40 "$BUILD/build.log" | tee -a "$FIGURES"
      [[ $rc == 0 || -z ${OUT:-} ]] || cp "$BUILD/build.log" "$FIGDIR/gpu-build.log"
      # The candidates after the tool, every one that builds: one that does
      # not (ptxas, the link) is named, and ab times the others without it.
      if ((rc == 0)) && [[ -n $candidates ]]; then
        local keep_going=(-k) entry entries missing=()
        [[ ${generator[*]} != *Ninja* ]] || keep_going=(-k 0)
        note "\$ cmake --build $(shown "$BUILD") --target nqueens_gpu_candidates -- ${keep_going[*]}"
        rm -f "$BUILD"/libnqueens-gpu-*.so  # linked again (their objects kept): none an older call's
        bounded "$(part_left)" cmake --build "$BUILD" --parallel "$(nproc)" --target nqueens_gpu_candidates \
          -- "${keep_going[@]}" >"$BUILD/candidates.log" 2>&1 || true
        IFS=';' read -ra entries <<<"$candidates"
        for entry in "${entries[@]}"; do
          [[ -f $BUILD/libnqueens-gpu-${entry%%=*}.so ]] || missing+=("${entry%%=*}")
        done
        if ((${#missing[@]} > 0)); then
          note "candidates not built (ab goes on without them): ${missing[*]}"
          grep -E 'error|FAILED' "$BUILD/candidates.log" | head -20 | tee -a "$FIGURES" || true
        fi
      fi
    else
      tail -30 "$BUILD/configure.log" | tee -a "$FIGURES"
    fi
  fi
  if [[ $part_status == ok && -x $NQ ]]; then
    note "built $(shown "$NQ"): $("$NQ" --version | head -1)"
    # One small count at once: a module the loader refuses (its folders'
    # owners and modes are judged: gpu_module_trust.cpp), a driver too old
    # or no device shows here in seconds, with the path's owners beside it,
    # and the parts after it are skipped rather than each fail alike.
    local smoke_seconds
    smoke_seconds=$(part_left)
    ((smoke_seconds < 60)) || smoke_seconds=60
    if ((!EMULATE && smoke_seconds >= 1)); then
      local smoke=0
      note "\$ $(shown "$NQ") count 8 --engine gpu --threads 1"
      bounded "$smoke_seconds" "$NQ" count 8 --engine gpu --threads 1 2>&1 | tee -a "$FIGURES" || smoke=$?
      if ((smoke != 0)); then
        note "(exit $smoke: the module's path, as the loader judges it)"
        namei -l "$BUILD/libnqueens-gpu.so" 2>&1 | tee -a "$FIGURES" || true
        part_status="FAILED: count 8 --engine gpu (exit $smoke)"
        failed=1
        built=0
        return 0
      fi
    fi
    # What each kernel takes of an SM (ptxas: registers, shared memory,
    # blocks), once a run of the script.
    if command -v nvcc >/dev/null && ((!resources_printed)); then
      resources_printed=1
      note "\$ scripts/gpu_resources.sh"
      bash "$NQ_ROOT/scripts/gpu_resources.sh" 2>&1 | tee -a "$FIGURES" || note "(gpu_resources.sh failed)"
    fi
  else
    [[ $part_status != ok ]] || part_status="FAILED: no $(shown "$NQ")"
    [[ $part_status == cut* ]] || failed=1  # cut for time: the parts after it are skipped, no failure
    built=0
  fi
}

part_test() {
  local jobs=4
  ((EMULATE)) && jobs=$(nproc)
  limited "$(part_left)" "$FIGDIR/gpu-ctest.log" ctest --test-dir "$BUILD" -R "$TESTS" -j "$jobs" \
    --timeout "$(part_left)" --output-on-failure
  # The verdict and the failures, from the log's end; where cut, how many
  # ran of how many and those that failed so far (a cut is no verdict).
  if grep -q 'tests passed' "$FIGDIR/gpu-ctest.log"; then
    sed -n '/tests passed/,$p' "$FIGDIR/gpu-ctest.log" | tee -a "$FIGURES"
  elif [[ $part_status == cut* ]]; then
    local listed ran failures='^ *[0-9]+/[0-9]+ Test +#.*\*\*\*(Failed|Exception|Timeout)'
    listed=$(ctest --test-dir "$BUILD" -N -R "$TESTS" 2>/dev/null | sed -n 's/^Total Tests: //p' || true)
    ran=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$FIGDIR/gpu-ctest.log" || true)
    note "(${ran:-0} of ${listed:-?} tests ran before the cut)"
    grep -E "$failures" "$FIGDIR/gpu-ctest.log" | tee -a "$FIGURES" || true
    if grep -qE "$failures" "$FIGDIR/gpu-ctest.log"; then
      part_status="FAILED (cut, with failures)"
      failed=1
    fi
  else
    tail -5 "$FIGDIR/gpu-ctest.log" | tee -a "$FIGURES"
  fi
  note "(the whole log: $(shown "$FIGDIR/gpu-ctest.log"))"
}

# The published boards as users count them (untimed), then those of
# TIMED_COUNTS again with each kernel timed (events around each launch),
# against their untimed run: the H200's counts of 2026-12-04, all timed,
# took 30-48 µs of the engine a subproblem at n = 13..18 where the H100's
# of 2026-11-27, untimed and of older code, took 6-17 (docs/performance.md);
# the pair says how much of that the events themselves were.
part_counts() {
  local n untimed=()
  for n in "${COUNTS[@]}"; do
    users_count "$n" "$(part_left)" || return 0
    untimed[n]=$(json_value seconds "$count_json")
  done
  for n in "${TIMED_COUNTS[@]}"; do
    COUNT_ENV=(NQUEENS_GPU_TIMES=1)
    count_exact "$n" "$(part_left)" || { COUNT_ENV=(); return 0; }
    COUNT_ENV=()
    note "Q($n) timed: $(awk -v t="$(json_value seconds "$count_json")" -v u="${untimed[n]:-}" \
      'BEGIN { if (u > 0) printf "%.2fx the engine seconds of its untimed run (%s s)", t / u, u; else printf "no untimed run" }')"
  done
}

# sanitized TOOL N THREADS: the count under compute-sanitizer (emulated: the
# count alone); a sanitizer that refuses the device is noted, not a failure.
sanitized() {
  local count=("$NQ" count "$2" --engine gpu --threads "$3")
  if ! gpu_tool compute-sanitizer; then
    ((EMULATE)) && limited "$(part_left)" "$FIGURES" "${count[@]}"
    return 0
  fi
  local log=$BUILD/sanitizer-$1-$2.log  # one a board: memcheck runs two
  limited "$(part_left)" "$log" "$tool" --tool "$1" --error-exitcode 9 "${count[@]}"
  tail -25 "$log" | tee -a "$FIGURES"  # the count and the sanitizer's summary
  if ((rc != 0 && rc != 124 && rc != 137)) && grep -qi 'not supported' "$log"; then
    note "compute-sanitizer refused the device: $1 skipped"
    part_status="skipped: the device refused"
    failed=$((failed_before_part))
  fi
}
# The count at the least --gpu-memory that its refusal names: the tables
# stay on the host and each subproblem's quarter lists are staged on the
# device, which the JSON's staged_list_bytes shows.
part_own_lists() {
  local refusal least staged
  refusal=$(bounded "$(part_left)" "$NQ" count "$OWN_LISTS_N" --engine gpu --threads 2 --gpu-memory 1M 2>&1) || true
  least=$(sed -n 's/.*needs at least \([0-9]*\) MiB.*/\1/p' <<<"$refusal")
  if [[ -z $least ]]; then
    note "ownlists: no least in the refusal of --gpu-memory 1M: $refusal"
    part_status="FAILED: no least named"
    failed=1
    return 0
  fi
  count_exact "$OWN_LISTS_N" "$(part_left)" --threads 2 --gpu-memory "${least}M" || return 0
  staged=$(json_value staged_list_bytes "$count_json")
  if [[ ${staged:-0} == 0 ]]; then
    note "ownlists: Q($OWN_LISTS_N) at --gpu-memory ${least}M staged no lists"
    part_status="FAILED: no lists staged"
    failed=1
  fi
}
# users_count N SECONDS [OPTION...]: count_exact as users count, untimed
# (NQUEENS_GPU_TIMES=0: no events around each launch), for the counts the
# speed goals read; the counts part and the kernels part time each kernel.
users_count() {
  local status=0
  COUNT_ENV=(NQUEENS_GPU_TIMES=0)
  count_exact "$@" || status=$?
  COUNT_ENV=()
  return "$status"
}
# The counts the speed goals name (goals_summary), at the default threads;
# Q(20) is counted by threads16 and threads32 too.
# A board counted again only where its last run's time fits what is left:
# at the H200's 32-56 µs a subproblem Q(21) takes 31-54 s, and a second one
# started short of time would be cut, a run lost and the part with it.
part_speed() {
  local n last_n='' last_wall=0
  for n in "${SPEED_RUNS[@]}"; do
    if [[ $n == "$last_n" ]] && (($(part_left) <= ${last_wall%.*} + 10)); then
      note "Q($n) again: skipped, $(part_left) s left after a run of $last_wall s"
      continue
    fi
    users_count "$n" "$(part_left)" || break
    last_n=$n last_wall=$count_wall
  done
}

# Each kernel's own time: with one thread the engine drives one stream, so
# the events around a launch time it alone. With 16 streams they also time
# its wait for the SMs the other streams' kernels hold: at Q(22) on an H200
# the summed stream-seconds were alike for every kernel (clear 111, visit
# 132), which says nothing of what each costs. Then the odd board before it
# likewise, where time is left: an odd board's subproblems are many and
# small (Q(17) took 3.6 times Q(18)'s engine time on the H200), and its
# shares say which kernels that costs, and its GPU-ns a solution on one
# stream against the even board's.
part_kernels() {
  local n even_ns=
  for n in "$KERNELS_N" "$((KERNELS_N - 1))"; do
    count_exact "$n" "$(part_left)" --threads 1 || return 0
    local kernels ns
    kernels=$(grep -o '"device_kernel_seconds":{[^}]*}' <<<"$count_json" || true)
    ns=$(awk -v s="$(json_value seconds "$count_json")" -v q="$(json_value total "$count_json")" \
      'BEGIN { if (q > 0) printf "%.4g", s * 1e9 / q }')
    [[ -n $even_ns ]] || even_ns=$ns
    [[ -n $kernels ]] || continue
    note "Q($n) on one stream, $ns GPU-ns a solution$([[ $n == "$KERNELS_N" ]] ||
      awk -v a="$ns" -v b="$even_ns" -v e="$KERNELS_N" 'BEGIN { if (b > 0) printf " (%.2fx that of Q(%d))", a / b, e }'),"\
      "each kernel's share of the kernels' time:" \
      "$(sed 's/.*{//; s/}//' <<<"$kernels" | tr ',' '\n' | tr -d '"' |
        awk -F: '{ name[NR] = $1; t[NR] = $2; all += $2 }
          END { for (i = 1; i <= NR; i++) printf "%s%s %.1f%% (%.3f s)", (i > 1 ? ", " : ""), name[i], (all > 0 ? 100 * t[i] / all : 0), t[i] }')"
  done
}

big_wall=
part_q22() {
  local dmon=$FIGDIR/gpu-dmon.txt
  if gpu_tool nvidia-smi; then
    note "\$ nvidia-smi dmon -s u -o T >$(shown "$dmon") &  (beside the count, then stopped)"
    "$tool" dmon -s u -o T >"$dmon" 2>&1 {gpu_lock}>&- &
    DMON_PID=$!
  fi
  users_count "$DMON_N" "$(part_left)" && big_wall=$count_wall
  # Twice where a second fits (a median of two; dmon's figures span both).
  if [[ -n $big_wall ]] && (($(part_left) > ${big_wall%.*} + 10)); then
    users_count "$DMON_N" "$(part_left)" || true
  fi
  if [[ -n $DMON_PID ]]; then
    kill "$DMON_PID" 2>/dev/null || true
    wait "$DMON_PID" 2>/dev/null || true
    DMON_PID=
    note "dmon: $(awk '/^#/ { if (!sm) { sub(/^# */, ""); for (i = 1; i <= NF; i++) { if ($i == "sm") sm = i
        if ($i == "mem") mem = i } } next }
      sm && $sm ~ /^[0-9]+$/ { k++; s += $sm; if ($sm > top) top = $sm; m += $mem }
      END { if (k) printf "%d samples, SM busy %.0f%% mean, %d%% at most; memory busy %.0f%% mean", k, s / k, top, m / k
        else printf "no samples" }' "$dmon") ($(shown "$dmon"))"
  fi
}

# Q(23) only where Q(22)'s time, scaled by the solutions, fits what is left.
part_q23() {
  local left expected
  left=$(part_left)
  if [[ -z $big_wall ]]; then
    note "Q($BIG_N): skipped, Q($DMON_N) was not timed"
    part_status="skipped"
    return 0
  fi
  expected=$(awk -v t="$big_wall" -v a="$(published_of "$BIG_N")" -v b="$(published_of "$DMON_N")" \
    'BEGIN { if (a > 0 && b > 0) printf "%d", t * a / b + 1 }')
  if [[ -z $expected ]]; then
    note "Q($BIG_N): skipped, no published Q($BIG_N) or Q($DMON_N) to scale by"
    part_status="skipped"
    return 0
  fi
  if ((expected > left)); then
    note "Q($BIG_N): skipped, about $expected s expected (Q($DMON_N)'s time x Q($BIG_N) / Q($DMON_N)), $left s left"
    part_status="skipped: about $expected s expected"
    return 0
  fi
  users_count "$BIG_N" "$left" || true
}

part_scale() {
  limited "$(part_left)" "$FIGURES" "$NQ" scale "$SCALE_N" --threads "$SCALE_THREADS" --repeat 1 \
    --engine quadrant --csv "$FIGDIR/gpu-scale.csv"
}

# What the boards past the tables cost on this GPU: `plan N --estimate
# --engine gpu` draws for the step's seconds (after its setup: the plan, n =
# 24's tables); its projected wall time is the whole count's GPU time here.
# A draw under way at the end runs on (one cut would bias the price low): at
# n = 28 one subproblem takes a stream 78 s on an H200, so the command gets
# twice the draws' time and more.
part_price() {
  local n json status left limit wall error total solutions
  for n in "${price_n[@]}"; do
    left=$(part_left)
    limit=$((2 * price_draw + 45 < left ? 2 * price_draw + 45 : left))
    if ((limit <= price_draw)); then
      note "Q($n): not priced, $left s left"
      part_status="cut after $part_limit s"
      break
    fi
    local cmd=("$NQ" plan "$n" --estimate --engine gpu --estimate-seconds "$price_draw" --json)
    note "\$ $(shown "${cmd[@]}")"
    status=0
    json=$(bounded "$limit" "${cmd[@]}" 2>>"$FIGURES") || status=$?
    [[ -z $json ]] || note "$json"
    if ((status != 0)); then
      note "Q($n): $( ((status == 124 || status == 137)) && echo "cut after $limit s" || echo "FAILED (exit $status)")"
      if ((status != 124 && status != 137)); then
        part_status="FAILED: price $n"
        failed=1
      fi
      continue
    fi
    wall=$(json_value wall_seconds "$json")
    error=$(json_value wall_seconds_error "$json")
    total=$(json_value projected_total "$json")
    solutions=$(json_value published_total "$json")
    [[ $solutions != null && -n $solutions ]] || solutions=$total
    note "Q($n) priced $( ((EMULATE)) && echo 'emulated' || echo 'on this GPU'):" \
      "$(awk -v w="$wall" -v e="$error" 'BEGIN { printf "%.4g +- %.2g GPU-hours", w / 3600, e / 3600 }')," \
      "$(awk -v w="$wall" -v q="$solutions" 'BEGIN { printf "%.4g GPU-ns per solution", w * 1e9 / q }')" \
      "(ended: $(json_value ended "$json" | tr -d '"'))"
    # Past the whole tables, which side bounds it: the host's lists and
    # their copies, a sampled subproblem, beside a stream's time a subproblem.
    local sampled lists staged
    sampled=$(json_value sampled_subproblems "$json")
    lists=$(json_value host_list_seconds "$json")
    staged=$(json_value staged_list_bytes "$json")
    if [[ -n $lists && ${staged:-0} != 0 && ${sampled:-0} != 0 ]]; then
      note "Q($n) sampled: $(awk -v l="$lists" -v b="$staged" -v s="$sampled" \
        -v t="$(json_value thread_hours "$json")" -v p="$(json_value subproblems "$json")" \
        'BEGIN { printf "%.4g ms of host lists, %.4g MB staged, %.4g ms of a stream a subproblem", l * 1e3 / s, b / 1e6 / s, t * 3.6e6 / p }')"
    fi
  done
}

# A stop while an n = STOP_N count's rounds run: SIGINT once the journal
# holds a record (or half the part has gone), then the seconds to exit;
# the exit must be the interrupt's (130) and the journal resumable.
part_stop() {
  local journal=$BUILD/stop-$STOP_N.ckpt out=$BUILD/stop-$STOP_N.out pid waited=0 start rc=0
  rm -f "$journal"
  local cmd=("$NQ" count "$STOP_N" --engine gpu --shard "0/$STOP_SHARDS" --checkpoint "$journal" --checkpoint-interval 1
    --no-progress)
  note "\$ $(shown "${cmd[@]}") &  (SIGINT once the journal has a record)"
  "${cmd[@]}" >"$out" 2>&1 {gpu_lock}>&- &
  pid=$!
  echo "$pid" >"$PART_PID"  # a stop of the script stops it too
  while kill -0 "$pid" 2>/dev/null && (($(stat -c %s "$journal" 2>/dev/null || echo 0) <= 64)) &&
    ((waited < part_limit / 2)); do
    sleep 1
    waited=$((waited + 1))
  done
  start=$(wall_now)
  kill -INT "$pid" 2>/dev/null || true
  # Its exit waited for within the part's time (5 s at least), then killed:
  # a count that ignores the stop must not hold the GPU past the call.
  local tenths=0 most=$(($(part_left) > 5 ? $(part_left) * 10 : 50))
  while kill -0 "$pid" 2>/dev/null && ((tenths < most)); do
    sleep 0.1
    tenths=$((tenths + 1))
  done
  ! kill -0 "$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  : >"$PART_PID"
  note "stop at n = $STOP_N after ${waited} s: exit $rc $(seconds_since "$start") s after SIGINT (the goal: 1 s);" \
    "$(tail -1 "$out")"
  if ((rc != 130 && rc != 0)); then
    part_status="FAILED: exit $rc"
    failed=1
  fi
}

# count AB_N's shard AB_SHARD on the head's module and each candidate, in
# turn, AB_REPEATS times (each time in an order rotated by one, so that no
# module always follows the same), while time is left; then each module's
# median engine seconds and its ratio to the head's. A shard's count has no
# published figure: each is checked against the first module's (the
# whole counts of the device step check the head's). A module's count gets
# at most 4 times the head's first (30 s at least): a candidate that hangs,
# new device code, is cut and left out, not given the rest of the part.
# One that fails or is cut is not run again.
ab_names=() ab_times=() ab_shown=1
ab_table() {  # the medians of the runs so far (also from a stop's trap)
  ((!ab_shown)) || return 0
  ab_shown=1
  note "# Q($AB_N) shard $AB_SHARD by module: median engine seconds (runs), against the head's${1:+ $1}"
  local k head_median median
  head_median=$(ab_median "${ab_times[0]}")
  for ((k = 0; k < ${#ab_names[@]}; k++)); do
    median=$(ab_median "${ab_times[k]}")
    note "$(printf '#   %-10s %10s s (%s )  %s' "${ab_names[k]}" "${median:-none}" "${ab_times[k]}" \
      "$(awk -v a="$median" -v b="$head_median" 'BEGIN { if (a != "" && b > 0) printf "%.3fx the head", a / b }')")"
  done
}
ab_median() {
  tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
part_ab() {
  local modules=("$BUILD/libnqueens-gpu.so") entries entry name round_jobs=("") device_sizes=("")
  ab_names=(head)
  IFS=';' read -ra entries <<<"$AB_CANDIDATES"
  for entry in "${entries[@]}"; do
    name=${entry%%=*}
    modules+=("$BUILD/libnqueens-gpu-$name.so")
    ab_names+=("$name")
    # Emulated, a candidate of other rounds counts in rounds of its size
    # (the emulator's NQUEENS_GPU_TEST_ROUND_JOBS), and one that sizes on the
    # device sizes so (NQUEENS_GPU_TEST_HOST_SIZES): its choices the host sees.
    [[ ,${entry#*=}, =~ ,NQUEENS_GPU_ROUND_JOBS=([0-9]+), ]] && round_jobs+=("${BASH_REMATCH[1]}") || round_jobs+=("")
    [[ ,${entry#*=}, == *,NQUEENS_GPU_HOST_SIZES=0,* ]] && device_sizes+=(1) || device_sizes+=("")
  done
  local repeat k m modules_count=${#modules[@]} reference="" shard_total dropped=() module_cap=0 limit capped status_before
  ab_times=()
  for ((k = 0; k < modules_count; k++)); do ab_times[k]="" dropped[k]=0; done
  ab_shown=0
  for ((repeat = 0; repeat < AB_REPEATS; repeat++)); do
    for ((m = 0; m < modules_count; m++)); do
      k=$(((m + repeat) % modules_count))
      ((!dropped[k])) || continue
      if [[ ! -f ${modules[k]} ]] && ((!EMULATE)); then
        note "${ab_names[k]}: no module $(shown "${modules[k]}")"
        dropped[k]=1
        continue
      fi
      note "## module ${ab_names[k]}"
      limit=$(part_left) capped=0
      if ((module_cap > 0 && module_cap < limit)); then limit=$module_cap capped=1; fi
      status_before=$part_status
      # Untimed, as users count: a kernel between its events is launched
      # alone, and the graphs module replays no graph then.
      COUNT_ENV=("NQUEENS_GPU_MODULE=${modules[k]}" NQUEENS_GPU_TIMES=0)
      ((!EMULATE)) || [[ -z ${round_jobs[k]} ]] || COUNT_ENV+=("NQUEENS_GPU_TEST_ROUND_JOBS=${round_jobs[k]}")
      ((!EMULATE)) || [[ -z ${device_sizes[k]} ]] || COUNT_ENV+=(NQUEENS_GPU_TEST_HOST_SIZES=0)
      if ! count_exact "$AB_N" "$limit" --shard "$AB_SHARD"; then
        COUNT_ENV=()
        dropped[k]=1
        if [[ $part_status == cut* ]]; then
          # Out of the part's time: no module after it has any.
          ((capped)) || break 2
          note "${ab_names[k]}: cut after $limit s (4 times the head's run), left out of the medians"
          part_status=$status_before
          continue
        fi
        note "${ab_names[k]}: FAILED, left out of the medians"
        continue
      fi
      COUNT_ENV=()
      if ((module_cap == 0 && k == 0)); then
        module_cap=$((4 * ${count_wall%.*} + 4))
        ((module_cap >= 30)) || module_cap=30
      fi
      shard_total=$(json_value total "$count_json")
      [[ -n $reference ]] || reference=$shard_total
      if [[ $shard_total != "$reference" ]]; then
        note "${ab_names[k]}: FAILED: Q($AB_N) shard $AB_SHARD counted $shard_total, the first module $reference"
        part_status="FAILED: ${ab_names[k]}"
        failed=1
        dropped[k]=1
        continue
      fi
      ab_times[k]+=" $(json_value seconds "$count_json")"
    done
  done
  ab_table ""
}

# ncu on one launch of the visit kernel (its demangled name holds
# visit_kernel) of an NCU_N count, with the sections this ncu has; the
# report and its details page under FIGDIR, its key figures in the file.
part_ncu() {
  local count=("$NQ" count "$NCU_N" --engine gpu --threads 1)
  if ! gpu_tool ncu; then
    if ((EMULATE)); then
      note "ncu --kernel-name-base demangled --kernel-name regex:visit_kernel ... $(shown "${count[@]}"): the count alone"
      count_exact "$NCU_N" "$(part_left)" --threads 1 || true
    fi
    return 0
  fi
  local ncu=$tool help sections=() section options=()
  help=$("$ncu" --help 2>&1 || true)
  local available
  available=$("$ncu" --list-sections 2>&1 || true)
  for section in MemoryWorkloadAnalysis_Tables Occupancy WarpStateStats SchedulerStats SpeedOfLight LaunchStats; do
    if grep -qw -- "$section" <<<"$available"; then
      sections+=(--section "$section")
    else
      note "ncu: no section $section here"
    fi
  done
  [[ $help != *--clock-control* ]] || options+=(--clock-control none)  # the card's clocks as found
  if [[ $help == *--kill* ]]; then
    options+=(--kill yes)  # ends the count once the launch is profiled
  else
    note "ncu: no --kill here: Q(18) profiled instead, counted to its end"
    count=("$NQ" count 18 --engine gpu --threads 1)
  fi
  local report=$FIGDIR/gpu-ncu-visit details=()
  [[ $help != *--print-details* ]] || details=(--print-details all)
  rm -f "$report.ncu-rep"
  limited $(($(part_left) - 20)) "$FIGURES" "$ncu" --kernel-name-base demangled --kernel-name regex:visit_kernel \
    --launch-skip "${NQ_NCU_SKIP:-10}" --launch-count 1 "${options[@]}" "${sections[@]}" \
    --export "$report" --force-overwrite "${count[@]}"
  if [[ ! -f $report.ncu-rep ]]; then
    note "ncu wrote no report"
    [[ $part_status != ok ]] || part_status="FAILED: no report"
    failed=1
    return 0
  fi
  if [[ $part_status == FAILED* ]]; then  # the count ended by --kill: the report is what counts
    note "(ncu's exit $rc: the report was written)"
    part_status=ok
    failed=$((failed_before_part))
  fi
  # Reading the report back: 20 s kept for it.
  timeout 10 "$ncu" --import "$report.ncu-rep" --page details "${details[@]}" \
    >"$FIGDIR/gpu-ncu-details.txt" 2>&1 || true
  note "# ncu: the visit kernel (details page: $(shown "$FIGDIR/gpu-ncu-details.txt"))"
  grep -E 'visit_kernel|Block Size|Grid Size|Registers Per Thread|Shared Memory Configuration Size|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Issued Warp|No Eligible|Compute \(SM\) Throughput|Memory Throughput|Duration|Bank' \
    "$FIGDIR/gpu-ncu-details.txt" | tee -a "$FIGURES" || true
  note "# ncu raw: shared-memory bank conflicts, occupancy, stall reasons (cycles per issued instruction, largest first)"
  local raw
  raw=$(timeout 10 "$ncu" --import "$report.ncu-rep" --page raw 2>&1 || true)
  grep -E 'bank_conflicts|wavefronts_mem_shared|warps_active\.avg\.pct_of_peak|occupancy' <<<"$raw" | tee -a "$FIGURES" || true
  grep -E 'issue_stalled_[a-z_]+_per_issue_active\.ratio' <<<"$raw" |
    awk '{ v = $NF; gsub(/,/, "", v); print v, $1 }' | sort -gr | head -12 | tee -a "$FIGURES" || true
}

# The GPU engine's speed goals on one H100 (docs/performance.md, "The GPU
# engine on an H200") against this run's counts: engine seconds
# (median of the runs) for Q(20..23), the wall time of a small count, and
# each odd n's GPU-ns a solution against the even n after it's.
goals_summary() {
  ((${#timed_runs[@]} > 0)) || return 0
  local where=""
  ((EMULATE)) && where=" (EMULATED: the emulator's times, no goal applies)"
  note "# the speed goals (one H100) against this GPU's counts$where: median engine s (runs), GPU-ns a solution" \
    "(every count untimed, as users count)"
  printf '%s\n' "${timed_runs[@]}" | sort -n -k1,1 -k2,2g | awk -v small="$SMALL_N" '
    { n = $1; k[n]++; s[n, k[n]] = $2; w[n, k[n]] = $3; q[n] = $4; runs[n] = runs[n] " " $2 }
    END {
      goal[20] = 1; goal[21] = 7; goal[22] = 20; goal[23] = 180
      for (n = 1; n <= 40; n++) {
        if (!(n in k)) continue
        c = k[n]; med = c % 2 ? s[n, (c + 1) / 2] : (s[n, c / 2] + s[n, c / 2 + 1]) / 2
        ns[n] = med * 1e9 / q[n]
        line = sprintf("#   Q(%d) %.3f s (%s ), %.4g GPU-ns a solution", n, med, runs[n], ns[n])
        if (n in goal) line = line sprintf("; goal %g s: %s", goal[n], med <= goal[n] ? "met" : sprintf("%.2fx over", med / goal[n]))
        if (n == small) line = line sprintf("; wall %.3f s (goal 0.4 s)", w[n, 1])
        print line
      }
      for (n = 17; n <= 40; n += 2) {
        if ((n in ns) && ((n + 1) in ns)) {
          printf "#   odd Q(%d) against Q(%d): %.2fx the GPU-ns a solution (goal: at most 1)\n", n, n + 1, ns[n] / ns[n + 1]
        }
      }
    }' | tee -a "$FIGURES"
}

# ---- the scheduler ----

# run_parts SECONDS NAME:CAP:KEEP...: each part in order, under at most its
# cap (and NQ_GPU_STEP_SECONDS), never more than what is left of SECONDS less
# what the parts after it keep (KEEP, given for 540 s, scales with SECONDS).
run_parts() {
  local budget=$1
  shift
  local specs=("$@") i j name cap keep left started
  local deadline=$(($(now) + budget - FINAL_RESERVE))
  for ((i = 0; i < ${#specs[@]}; i++)); do
    IFS=: read -r name cap _ <<<"${specs[i]}"
    keep=0
    for ((j = i + 1; j < ${#specs[@]}; j++)); do
      keep=$((keep + ${specs[j]##*:} * budget / 540))
    done
    left=$((deadline - $(now)))
    part_limit=$((cap < STEP_CAP ? cap : STEP_CAP))
    part_limit=$((part_limit < left - keep ? part_limit : left - keep))
    part_status=ok
    failed_before_part=$failed
    started=$(now)
    if ((built == 0)) && [[ $name != machine ]]; then
      note "## $name: skipped, no build"
      part_status="skipped: no build"
    elif ((EMULATE)) && [[ $name == build ]]; then
      note "## build (untimed under emulation)"
      part_build 0 "${build_targets[@]}"
      deadline=$((deadline + $(now) - started))
    elif ((part_limit < 1)); then
      note "## $name: skipped, $left s left and $keep s kept for the parts after it"
      part_status="skipped for time"
    else
      note "## $name: limit $part_limit s (cap $cap, $left s left, $keep s kept for the parts after it)"
      part_deadline=$(($(now) + part_limit))
      case $name in
        machine) part_machine ;;
        build) part_build "$part_limit" "${build_targets[@]}" ;;
        test) part_test ;;
        counts) part_counts ;;
        memcheck) for n in "${MEMCHECK_N[@]}"; do sanitized memcheck "$n" 4; done ;;
        racecheck) sanitized racecheck "$RACE_N" 2 ;;
        synccheck) sanitized synccheck "$RACE_N" 2 ;;
        ownlists) part_own_lists ;;
        threads16) users_count "$THREADS_N" "$(part_left)" --threads 16 || true ;;
        threads32) users_count "$THREADS_N" "$(part_left)" --threads 32 || true ;;
        speed) part_speed ;;
        kernels) part_kernels ;;
        q22) part_q22 ;;
        q23) part_q23 ;;
        scale) part_scale ;;
        price) part_price ;;
        stop) part_stop ;;
        ncu) part_ncu ;;
        ab) part_ab ;;
      esac
    fi
    summary+=("$(printf '#   %-10s %4d s  %s' "$name" $(($(now) - started)) "$part_status")")
  done
}

note "# nqueens GPU figures, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$( ((EMULATE)) && echo ', EMULATED (NQUEENS_GPU=emulate)')"
built=1
# The kernels' resources once, in the device step's run: the calls after it
# (ab, price) build the same kernels, and ptxas takes 11 s outside any part.
resources_printed=1
[[ " ${steps[*]} " != *" device "* ]] || resources_printed=0
for step in "${steps[@]}"; do
  summary=()
  step_start=$(now)
  case $step in
    device)
      budget=${NQ_GPU_SECONDS:-$DEVICE_SECONDS}
      note "# step device: $budget s"
      build_targets=()  # all: every test that ctest -R gpu names has its program
      # NAME:CAP:KEEP (each KEEP for 540 s, scaled to the budget).
      run_parts "$budget" machine:20:5 build:240:0 test:120:30 counts:60:15 memcheck:60:15 racecheck:45:10 \
        synccheck:30:10 ownlists:30:10 threads16:60:15 threads32:60:15 speed:100:15 kernels:60:10 q22:150:30 \
        q23:240:0
      ;;
    price)
      budget=${NQ_GPU_SECONDS:-$PRICE_SECONDS}
      note "# step price: $budget s"
      build_targets=(nqueens_cli)
      price_n=("${PRICE_N[@]}") price_draw=$PRICE_DRAW
      run_parts "$budget" build:240:0 price:300:90 stop:60:0
      ;;
    price28)
      budget=${NQ_GPU_SECONDS:-$PRICE28_SECONDS}
      note "# step price28: $budget s"
      build_targets=(nqueens_cli)
      price_n=("${PRICE28_N[@]}") price_draw=$PRICE28_DRAW
      run_parts "$budget" build:240:0 price:300:0
      ;;
    scale)
      budget=${NQ_GPU_SECONDS:-$SCALE_SECONDS}
      note "# step scale: $budget s"
      build_targets=(nqueens_cli)
      run_parts "$budget" build:240:0 scale:120:0
      ;;
    ab)
      budget=${NQ_GPU_SECONDS:-$AB_SECONDS}
      note "# step ab: $budget s"
      build_targets=(nqueens_cli nqueens_gpu_candidates)
      run_parts "$budget" build:120:0 ab:270:0
      ;;
    profile)
      budget=${NQ_GPU_SECONDS:-$PROFILE_SECONDS}
      note "# step profile: $budget s"
      build_targets=(nqueens_cli)
      run_parts "$budget" build:200:0 ncu:240:60
      ;;
  esac
  note "# summary of $step: $(($(now) - step_start)) s"
  for line in "${summary[@]}"; do note "$line"; done
done
goals_summary
note "# figures in $(shown "$FIGURES")$( ((failed)) && echo ': FAILED')"
exit "$failed"
