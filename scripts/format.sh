#!/usr/bin/env bash
# Formats the C++ sources with the tree's .clang-format (Debian's clang-format).
#   scripts/format.sh           # rewrite the files in place
#   scripts/format.sh --check   # change nothing; list the files that need it and exit 1 (CI)
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
# Anything else (a typo of --check) must not rewrite every file.
for arg in "$@"; do  # wherever it is given, as in every script
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
if (($# > 1)) || [[ $# == 1 && $1 != --check ]]; then
  echo "usage: scripts/format.sh [--check]" >&2
  exit 2
fi
cd "$NQ_ROOT"
# The files are git's: outside a checkout (an archive) the list would be
# empty, and clang-format -i with none reads stdin. Said before anything is installed.
command -v git >/dev/null || { echo "format.sh: git is needed: the files to format are those git tracks" >&2; exit 2; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
  echo "format.sh: $NQ_ROOT is not a git checkout: the files to format are those git tracks" >&2
  exit 2
}
nq_ensure_packages clang-format
# Tracked, and new ones not yet added (git does not ignore them) in the
# project's own folders: a file formatted only once committed would fail
# CI's check first, and a build folder of another name (an IDE's
# cmake-build-debug) holds CMake's sources, which are not ours to rewrite.
# One deleted but still tracked is left out. NUL-separated: git quotes a
# name with a byte past ASCII otherwise, and the quoted name is no file.
kinds=('*.cpp' '*.hpp' '*.inc' '*.h' '*.cu')
new=()
for folder in src include tests bench cmake; do new+=("${kinds[@]/#/$folder/}"); done
mapfile -d '' -t files < <({
  git ls-files -z --cached "${kinds[@]}"
  git ls-files -z --others --exclude-standard "${new[@]}"
} | while IFS= read -r -d '' f; do [[ -f $f ]] && printf '%s\0' "$f"; done)
if [[ ${1:-} == --check ]]; then
  # One clang-format a batch, on every core: a process a file took 30 s of
  # CI's 2 cores for 450 files, a batch of 64 two. Only a batch that fails
  # is checked again file by file, for its exit to name them.
  mapfile -t bad < <(printf '%s\0' "${files[@]}" | xargs -0 -n 64 -P "$(nproc)" sh -c \
    'clang-format --dry-run -Werror "$@" >/dev/null 2>&1 && exit 0
     for f; do clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"; done' _)
  if ((${#bad[@]} > 0)); then
    printf 'format.sh: needs formatting: %s\n' "${bad[@]}" >&2
    echo "format.sh: run scripts/format.sh to fix" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files checked, none to change"
else
  clang-format -i "${files[@]}"
fi
