#!/usr/bin/env bash
# What the scripts' installing and formatting touch.
# - nq_apt_update waits only for another apt holding the package lists: a
#   sudo that cannot run (no terminal for its password) or any other
#   failure ends it at once, where it was tried 60 times, 10 s apart.
# - nq_apt_lock says that it waits for another script's install.
# - nq_installed takes a package as installed only for this machine's
#   architecture or "all": an arm64 libtbb-dev (scripts/aarch64.sh's)
#   left run.sh and test.sh without the native one, and CMake without TBB.
# - format.sh keeps to git's files and the new ones in the project's own
#   folders: a build folder of an IDE's name in the tree holds CMake's
#   sources, which it checked and rewrote.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A user who is not root, whose sudo fails as it does without a terminal;
# then root, whose apt-get finds the lists locked once.
mkdir "$work/bin"
printf '#!/bin/sh\necho 1000\n' >"$work/bin/id"
printf '#!/bin/sh\necho "sudo: a terminal is required to read the password" >&2\nexit 1\n' >"$work/bin/sudo"
chmod +x "$work/bin/id" "$work/bin/sudo"
status=0
out=$(PATH=$work/bin:$PATH TMPDIR=$work timeout 60 bash -c 'source "$1/scripts/common.sh"; nq_apt_update' _ "$repo" 2>&1) ||
  status=$?
if [[ $status != 1 || $out != *"a terminal is required"* || $out == *"trying again"* ]]; then
  echo "FAIL: a sudo that cannot run gave exit $status (expected 1 at once): $out" >&2
  exit 1
fi
mkdir "$work/root"
printf '#!/bin/sh\necho 0\n' >"$work/root/id"
# Locked on the first try (its mark left in the folder), updated on the second.
cat >"$work/root/apt-get" <<STUB
#!/bin/sh
if [ ! -e "$work/tried" ]; then
  : >"$work/tried"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
  exit 100
fi
exit 0
STUB
chmod +x "$work/root/id" "$work/root/apt-get"
status=0
out=$(PATH=$work/root:$PATH TMPDIR=$work NQ_APT_TRIES=2 timeout 60 \
  bash -c 'source "$1/scripts/common.sh"; nq_apt_update' _ "$repo" 2>&1) || status=$?
if [[ $status != 0 || $out != *"another apt holds the package lists; trying again in 10 s (1 of 2)"* ]]; then
  echo "FAIL: lists locked once gave exit $status (expected a wait, then 0): $out" >&2
  exit 1
fi

# A script that waits for another's apt lock says so, then takes it.
(
  exec 9<>"$work/nqueens-apt.lock"
  flock 9
  : >"$work/held"
  sleep 2
) &
for ((i = 0; i < 200; ++i)); do
  [[ -e $work/held ]] && break
  sleep 0.05
done
out=$(TMPDIR=$work timeout 60 bash -c 'source "$1/scripts/common.sh"; nq_apt_lock; echo taken' _ "$repo" 2>&1)
wait
if [[ $out != *"waiting for another nqueens script installing packages"*taken ]]; then
  echo "FAIL: a wait for the apt lock said nothing, or never took it: $out" >&2
  exit 1
fi

# dpkg's database holding libtbb-dev for arm64 alone, libcxxopts-dev for
# all, cmake for amd64: on an amd64 machine the first is not installed.
mkdir "$work/dpkg"
printf '#!/bin/sh\necho amd64\n' >"$work/dpkg/dpkg"
cat >"$work/dpkg/dpkg-query" <<'STUB'
#!/bin/sh
# The status, and the architecture where the format asks for it.
case $* in *Architecture*) with_arch=1 ;; *) with_arch= ;; esac
for last; do :; done
case $last in
  libtbb-dev | libtbb-dev:arm64) arch=arm64 ;;
  libcxxopts-dev) arch=all ;;
  cmake) arch=amd64 ;;
  *) exit 1 ;;
esac
echo "installed${with_arch:+ $arch}"
STUB
chmod +x "$work/dpkg/dpkg" "$work/dpkg/dpkg-query"
installed() { PATH=$work/dpkg:$PATH bash -c 'source "$1/scripts/common.sh"; shift; nq_installed "$@"' _ "$repo" "$@"; }
installed cmake libcxxopts-dev libtbb-dev:arm64 || { echo "FAIL: native, all and arm64 by name not installed" >&2; exit 1; }
if installed cmake libtbb-dev; then
  echo "FAIL: an arm64 libtbb-dev taken for the native one" >&2
  exit 1
fi

# format.sh in a tree of its own: the script, the style, a formatted file
# committed; an unformatted one new in src/, and one in an IDE's build folder.
command -v clang-format >/dev/null && command -v git >/dev/null || { echo "no clang-format or git: skipped"; exit 77; }
tree=$work/tree
mkdir -p "$tree/scripts" "$tree/src" "$tree/cmake-build-debug/CMakeFiles"
cp "$repo/scripts/format.sh" "$repo/scripts/common.sh" "$tree/scripts/"
cp "$repo/.clang-format" "$tree/"
printf 'int kept = 0;\n' >"$tree/src/kept.cpp"
git -C "$tree" init -q
git -C "$tree" add .
printf 'int   fresh=1 ;\n' >"$tree/src/fresh.cpp"
printf 'int   cmakes=1 ;\n' >"$tree/cmake-build-debug/CMakeFiles/CMakeCXXCompilerId.cpp"
status=0
out=$(bash "$tree/scripts/format.sh" --check 2>&1) || status=$?
if [[ $status != 1 || $out != *"needs formatting: src/fresh.cpp"* || $out == *cmake-build-debug* ]]; then
  echo "FAIL: format.sh --check gave exit $status (expected 1 naming src/fresh.cpp alone): $out" >&2
  exit 1
fi
before=$(md5sum <"$tree/cmake-build-debug/CMakeFiles/CMakeCXXCompilerId.cpp")
bash "$tree/scripts/format.sh" >/dev/null 2>&1
[[ $(md5sum <"$tree/cmake-build-debug/CMakeFiles/CMakeCXXCompilerId.cpp") == "$before" ]] ||
  { echo "FAIL: format.sh rewrote a file in a build folder" >&2; exit 1; }
[[ $(cat "$tree/src/fresh.cpp") == "int fresh = 1;" ]] || { echo "FAIL: format.sh left src/fresh.cpp" >&2; exit 1; }
echo "ok"
