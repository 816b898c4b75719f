# shellcheck shell=bash
# Shared by the scripts in this folder (sourced, not run): install the Debian
# packages the build needs when any is missing, then configure and build.
set -euo pipefail

NQ_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." >/dev/null && pwd)
NQ_BUILD_DIR_GIVEN=${NQ_BUILD_DIR:+yes}  # a folder of the user's, not this tree's own
NQ_BUILD_DIR=${NQ_BUILD_DIR:-$NQ_ROOT/build/release}
# Made absolute here: the scripts cd into it, and then name its lock and
# files by it.
[[ $NQ_BUILD_DIR == /* ]] || NQ_BUILD_DIR=$PWD/$NQ_BUILD_DIR
# What building and running the tools needs (nqueens-mpi included; procps's
# pgrep finds the processes under a script's command that a TERM to the
# script ends, nq_signal_tree: scaling.sh's count ran on without it)...
NQ_RUN_PACKAGES=(cmake ninja-build g++ libtbb-dev libcxxopts-dev libopenmpi-dev openmpi-bin procps)
# ...and what the tests and benchmarks need on top (qemu-user runs the
# default binary as other CPUs would; locales's definitions build the
# decimal-comma locale a script test runs under).
NQ_TEST_PACKAGES=(libgtest-dev libbenchmark-dev qemu-user locales)
NQ_PACKAGES=("${NQ_RUN_PACKAGES[@]}" "${NQ_TEST_PACKAGES[@]}")

# nq_help_if_asked "$@": where the first argument is -h or --help, prints
# the calling script's opening comment (its usage) and exits 0. With
# `anywhere` first (a script whose other arguments go to ctest, which would
# take --help for its own): where any argument is.
nq_help_if_asked() {
  local asked=0 arg
  if [[ ${1:-} == anywhere ]]; then
    shift
    for arg in "$@"; do [[ $arg == -h || $arg == --help ]] && asked=1; done
  else
    [[ ${1:-} == -h || ${1:-} == --help ]] && asked=1
  fi
  ((asked)) || return 0
  sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
  exit 0
}

# nq_check_ctest_options ARG...: refuses (exit 2, one line) an option that
# the installed ctest does not list in its --help, an option's missing value,
# and a word that is no option's value. ctest ignores an option it does not
# know (`test.sh --rerun-faild` ran every test for minutes), and a word (`test.sh
# Cli`, for -R Cli) or a -R with no value last ran every test too. A value
# after an option that takes one is not read as an option. Without ctest
# (not installed yet) nothing is checked: the scripts call it again once
# they have installed it.
nq_check_ctest_options() {
  command -v ctest >/dev/null 2>&1 || return 0
  local known arg name value_next=0 optional_next=0 last=
  # "NAME 1" where the option takes a value after it, "NAME ?" where it may
  # (--help-full [<file>]), "NAME 0" where it takes none, "NAME =" where it
  # takes one after an = (--no-tests=error): ctest 3.25 ignores -R=Cli, as
  # it does an unknown option.
  known=$(ctest --help 2>/dev/null | awk '
    /^  +-/ {
      line = $0; sub(/^ +/, "", line)
      if (match(line, / += |= [A-Z]/)) line = substr(line, 1, RSTART - 1)
      n = split(line, parts, /, ?/)
      for (i = 1; i <= n; i++) {
        name = parts[i]; sub(/[ =\[].*/, "", name)
        if (name !~ /^-/) continue
        if (parts[i] ~ /^[^ =\[]+\[?=/) print name, "="
        if (parts[i] ~ /^[^ ]+\[=/ || parts[i] !~ /^[^ ]+=/) {
          print name, (parts[i] ~ /^[^ ]+ \[/) ? "?" : (parts[i] ~ /^[^ ]+ [^-]/) ? 1 : 0
        }
      }
    }')
  [[ -n $known ]] || return 0  # a ctest whose --help reads otherwise: not checked
  for arg in "$@"; do
    if ((value_next)); then
      value_next=0
      continue
    fi
    if [[ $arg != -* ]]; then
      if ((optional_next)); then
        optional_next=0
        continue
      fi
      echo "$(basename "$0"): '$arg' is no ctest option (tests by name: -R '$arg'; ctest --help lists its options)" >&2
      exit 2
    fi
    optional_next=0
    last=$arg
    name=${arg%%=*}
    # Options whose value ctest's help does not show: taken as taking one
    # (load_test.sh --test-load 4); --build-and-test's family and
    # --test-command take what follows them, which is left to ctest.
    case $arg in
      -I | --tests-information | --test-load | --test-timeout | --overwrite | --submit-index)
        value_next=1
        continue
        ;;
      --build-* | --test-command) return 0 ;;
    esac
    if [[ $arg == *=* ]]; then
      grep -qxF -- "$name =" <<<"$known" && continue
    elif grep -qxF -- "$name 1" <<<"$known"; then
      value_next=1
      continue
    elif grep -qxF -- "$name ?" <<<"$known"; then
      optional_next=1
      continue
    elif grep -qxF -- "$name 0" <<<"$known"; then
      continue
    fi
    # The one value ctest reads attached: -j4 (-RCli ran every test).
    [[ $arg =~ ^-j[0-9]+$ ]] && continue
    echo "$(basename "$0"): ctest has no option '$arg' (its options: ctest --help)" >&2
    exit 2
  done
  if ((value_next)); then
    echo "$(basename "$0"): ctest's option '$last' needs a value after it" >&2
    exit 2
  fi
}

# nq_note_if_locked: says so where another script holds the build folder's
# lock (test.sh holds it for its whole run, minutes), before a wait for it
# that would otherwise look like a hang.
nq_note_if_locked() {
  flock -n "$NQ_BUILD_DIR/.nq_build.lock" true 2>/dev/null ||
    echo "scripts: waiting for another build or test run in $NQ_BUILD_DIR" >&2
}

# nq_run_locked COMMAND...: runs it (ctest) under the build folder's lock,
# held by flock itself (-o: no test inherits it), in this shell's process
# group: a Ctrl-C, or a signal to the group (timeout's, CI's), reaches it
# and its tests, and a terminal's `stty tostop` does not stop its writes.
# It runs in the background, waited for, so that a TERM or HUP sent to the
# script alone (`kill PID`) is passed on to the command and every process
# under it (nq_signal_tree): ctest does not end its tests on TERM, and a
# `kill PID` of the script used to leave them running.
nq_run_locked() {
  local status=0 saved_traps
  nq_note_if_locked
  saved_traps=$(trap -p INT TERM HUP)
  # Set before the command starts: a signal then finds them. A trap only
  # notes the signal (and passes a TERM or HUP on): the wait for the
  # command's end is the function's, after it (bash dies in a wait inside
  # an INT trap whose job the same Ctrl-C ended).
  NQ_LOCKED_PID=
  NQ_LOCKED_STOP=
  trap 'NQ_LOCKED_STOP=130' INT  # the Ctrl-C reached the command too
  trap 'NQ_LOCKED_STOP=143; nq_signal_tree TERM "$NQ_LOCKED_PID"' TERM
  trap 'NQ_LOCKED_STOP=129; nq_signal_tree HUP "$NQ_LOCKED_PID"' HUP
  # A command started with & ignores SIGINT and reads /dev/null: the
  # default and this shell's standard input are given back.
  (trap - INT QUIT && exec flock -o "$NQ_BUILD_DIR/.nq_build.lock" "$@") <&0 &
  NQ_LOCKED_PID=$!
  # A signal's trap ends a wait early: waited for again until the end.
  until wait "$NQ_LOCKED_PID"; status=$?; [[ -z $NQ_LOCKED_STOP ]] || ! kill -0 "$NQ_LOCKED_PID" 2>/dev/null; do :; done
  trap - INT TERM HUP
  eval "$saved_traps"
  if [[ $NQ_LOCKED_STOP == 130 ]]; then
    # Ended by SIGINT itself, as the command was (its EXIT trap run): a
    # shell loop that runs the script stops too, as on exit 130 it would not.
    trap - INT
    kill -INT $$
  fi
  [[ -z $NQ_LOCKED_STOP ]] || exit "$NQ_LOCKED_STOP"
  return "$status"
}

# nq_signal_tree SIGNAL PID: sends SIGNAL to PID and every process under
# it. Each is stopped first, top down, so that none starts another (ctest
# its next test) or loses its children to init before they are found.
nq_signal_tree() {
  local signal=$1 queue=("${@:2}") tree=() pid child
  while ((${#queue[@]} > 0)); do
    pid=${queue[0]}
    queue=("${queue[@]:1}")
    if [[ -z $pid ]] || ! kill -STOP "$pid" 2>/dev/null; then continue; fi
    tree+=("$pid")
    for child in $(pgrep -P "$pid"); do queue+=("$child"); done
  done
  ((${#tree[@]} > 0)) || return 0
  kill "-$signal" "${tree[@]}" 2>/dev/null || true
  kill -CONT "${tree[@]}" 2>/dev/null || true
}

# nq_as_root COMMAND...: runs it as root, through sudo where this user is
# not; fails with a line saying what to run where there is no sudo.
nq_as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "scripts: this step needs root: run '$*' as root, or install sudo" >&2
    return 1
  fi
}

# nq_apt_lock: takes this machine's lock for apt (fd in NQ_APT_LOCK), so
# that one script installs at a time (two scripts started at once, each in
# its own build folder). The file is made writable by all and opened
# read-only: any user may take it, and fs.protected_regular lets anyone open
# it. A wait says so: the other may sit at sudo's password prompt.
nq_apt_lock() {
  local file=${TMPDIR:-/tmp}/nqueens-apt.lock
  [[ -e $file ]] || (umask 000 && : >>"$file") 2>/dev/null || true
  exec {NQ_APT_LOCK}<"$file"
  flock -n "$NQ_APT_LOCK" || {
    echo "scripts: waiting for another nqueens script installing packages ($file)" >&2
    flock "$NQ_APT_LOCK"
  }
}

# nq_apt_update: apt-get update, tried again for up to ten minutes while
# another apt holds its lists (a fresh machine's daily update): apt's own
# DPkg::Lock::Timeout waits for dpkg's lock, not for the lists'. Any other
# failure (sudo without a terminal or its password, no network) ends it at
# once: retried, it held a script ten minutes before it said so.
# NQ_APT_TRIES sets the tries (1: a package a script can do without).
nq_apt_update() {
  local try tries=${NQ_APT_TRIES:-60} said
  for ((try = 1; ; ++try)); do
    # In English whatever the user's locale, so that a lock is known by its
    # words (a sudo password is asked on the terminal, not here).
    if said=$(nq_as_root env LC_ALL=C apt-get -q=2 update 2>&1); then
      [[ -z $said ]] || echo "$said" >&2
      return 0
    fi
    echo "$said" >&2
    if ((try >= tries)) || ! grep -qE 'Could not get lock|Unable to lock' <<<"$said"; then
      return 1
    fi
    echo "scripts: another apt holds the package lists; trying again in 10 s ($try of $tries)" >&2
    sleep 10
  done
}

# Installs the named Debian packages that are not installed yet; a no-op (and
# no network) when everything is present, so every script can call it. apt
# waits for dpkg's own lock (a fresh machine's unattended upgrades) rather
# than failing at once.
nq_ensure_packages() {
  local missing=() p
  for p in "$@"; do
    nq_installed "$p" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -ne 0 ]] && ! command -v sudo >/dev/null; then
    echo "scripts: installing needs root: run 'apt-get install ${missing[*]}' as root, or install sudo" >&2
    return 1
  fi
  nq_apt_lock
  missing=()  # what another script installed meanwhile is not missing now
  for p in "$@"; do
    nq_installed "$p" || missing+=("$p")
  done
  if ((${#missing[@]} > 0)); then
    echo "scripts: installing ${missing[*]}" >&2
    # Returned, not left to set -e, which a caller's `|| true` turns off:
    # no install is tried on lists that failed to update.
    if ! nq_apt_update || ! nq_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
      install -y -qq --no-install-recommends "${missing[@]}" >&2; then
      exec {NQ_APT_LOCK}<&-
      return 1
    fi
  fi
  exec {NQ_APT_LOCK}<&-
}

# nq_installed PACKAGE...: whether every one is installed (no network; a
# package held at its version is installed too). A name without :ARCH is
# this machine's architecture's or "all": an arm64 libtbb-dev (which
# scripts/aarch64.sh installs) builds nothing native.
nq_installed() {
  local p native
  native=$(dpkg --print-architecture)
  for p in "$@"; do
    if [[ $p == *:* ]]; then
      dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed || return 1
    else
      dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$p" 2>/dev/null |
        grep -qxE "installed ($native|all)" || return 1
    fi
  done
}

# nq_build [cmake target...]: installs what the build needs and configures
# $NQ_BUILD_DIR (Release) once, then builds the given targets (all when
# none; a target written ?name only where the configure made one, such as
# nqueens_mpi where MPI was found). With NQ_WITH_TESTS=1 (scripts/test.sh) the test packages are
# installed and the tests and benchmarks configured in; otherwise they are
# built only where their packages are already there, so that running the
# tool installs nothing it does not need. Build output goes to stderr so
# the tool's own output on stdout stays clean. NQ_WERROR=ON (CI) makes the
# project's warnings errors (OFF: not), the folder configured again where
# its cache says otherwise.
nq_build() {
  # One script at a time installs, configures and builds a build folder: two
  # ninjas in one folder, or two apt-gets, would trip over each other.
  if ! mkdir -p "$NQ_BUILD_DIR" 2>/dev/null || [[ ! -w $NQ_BUILD_DIR ]]; then
    echo "scripts: cannot write the build folder ${NQ_BUILD_DIR_GIVEN:+NQ_BUILD_DIR=}$NQ_BUILD_DIR" \
      "(a file there, or no permission)" >&2
    [[ -n $NQ_BUILD_DIR_GIVEN ]] && exit 2  # the user's setting: a usage error
    exit 3
  fi
  local lock
  exec {lock}>"$NQ_BUILD_DIR/.nq_build.lock"
  if ! flock -n "$lock"; then
    nq_note_if_locked
    flock "$lock"
  fi
  local with_tests=OFF
  if [[ ${NQ_WITH_TESTS:-0} == 1 ]]; then
    nq_ensure_packages "${NQ_PACKAGES[@]}"
    with_tests=ON
  else
    nq_ensure_packages "${NQ_RUN_PACKAGES[@]}"
    nq_installed libgtest-dev libbenchmark-dev && with_tests=ON
  fi
  local tool
  for tool in cmake ninja; do  # dpkg may say installed where PATH does not find it
    command -v "$tool" >/dev/null || { echo "scripts: $tool is installed but not on PATH ($PATH)" >&2; exit 3; }
  done
  local cache=$NQ_BUILD_DIR/CMakeCache.txt
  # A folder configured for another tree (this clone copied or moved, the
  # build folder with it) would build that tree's sources, not these: here
  # in this tree it is configured again; elsewhere (NQ_BUILD_DIR) it is the
  # user's, and refused.
  local home here
  home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache" 2>/dev/null || true)
  here=$(cd "$NQ_ROOT" >/dev/null && pwd -P)
  if [[ -n $home && $home != "$NQ_ROOT" && $(cd "$home" >/dev/null 2>&1 && pwd -P || echo "$home") != "$here" ]]; then
    if [[ -n $NQ_BUILD_DIR_GIVEN ]]; then
      echo "scripts: NQ_BUILD_DIR=$NQ_BUILD_DIR was configured for $home, not $NQ_ROOT: give another NQ_BUILD_DIR" >&2
      exit 2
    fi
    echo "scripts: $NQ_BUILD_DIR was configured for $home, not this tree: configuring it again" >&2
    rm -rf "$NQ_BUILD_DIR/CMakeCache.txt" "$NQ_BUILD_DIR/CMakeFiles"
  fi
  # nvcc where CUDA puts it (CMakeLists.txt looks there too), found after a
  # configure that had none: its cached "not found" is dropped.
  local forget_cuda=()
  if grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=.*NOTFOUND' "$cache" 2>/dev/null &&
    { command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; }; then
    forget_cuda=(-U CMAKE_CUDA_COMPILER)
  fi
  # The GPU candidate modules dropped where a folder still names them
  # (gpu.sh --emulate ab sets them for its own build; a stop in it can
  # leave them set, and every build after would make them too).
  local no_candidates=()
  grep -q '^NQUEENS_GPU_CANDIDATES:[A-Z]*=.' "$cache" 2>/dev/null && no_candidates=(-DNQUEENS_GPU_CANDIDATES=)
  # Configured again where the tests were left out, where qemu (the
  # kernel-choice tests'), MPI or nvcc came after the build was configured
  # without it, or where the folder was configured other than Release.
  if [[ ! -f $NQ_BUILD_DIR/build.ninja ]] || ((${#forget_cuda[@]} > 0)) ||
    { grep -q '^MPI_CXX_COMPILER:FILEPATH=.*NOTFOUND' "$cache" 2>/dev/null && command -v mpicxx >/dev/null; } ||
    ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$cache" 2>/dev/null ||
    { [[ -n ${NQ_WERROR:-} ]] && ! grep -qx "NQUEENS_WERROR:BOOL=$NQ_WERROR" "$cache" 2>/dev/null; } ||
    ((${#no_candidates[@]} > 0)) ||
    { [[ $with_tests == ON ]] && grep -q '^NQUEENS_BUILD_TESTS:BOOL=OFF' "$cache" 2>/dev/null; } ||
    { [[ $with_tests == ON ]] && grep -q '^NQUEENS_QEMU:FILEPATH=NQUEENS_QEMU-NOTFOUND' "$cache" 2>/dev/null &&
      command -v qemu-x86_64 >/dev/null; }; then
    cmake "${forget_cuda[@]}" "${no_candidates[@]}" -S "$NQ_ROOT" -B "$NQ_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DNQUEENS_BUILD_TESTS=$with_tests -DNQUEENS_BUILD_BENCH=$with_tests \
      ${NQ_WERROR:+-DNQUEENS_WERROR=$NQ_WERROR} >&2
  fi
  local targets=() t
  for t in "$@"; do
    if [[ $t == \?* ]]; then
      grep -q "^build ${t#\?}:" "$NQ_BUILD_DIR/build.ninja" && targets+=("${t#\?}")
    else
      targets+=("$t")
    fi
  done
  # Named targets, none of them made: nothing to build (not everything).
  if (($# == 0)) || ((${#targets[@]} > 0)); then
    (($# > 0)) && targets=(--target "${targets[@]}")
    cmake --build "$NQ_BUILD_DIR" "${targets[@]}" >&2
  fi
  exec {lock}>&-
}
