#!/usr/bin/env bash
# Builds the Debian packages build/package/nqueens_<version>_<arch>.deb (the
# tools) and libnqueens-dev_<version>_<arch>.deb (the library, its headers and
# CMake package) (amd64, arm64) with
# CPack from the one portable Release build that scripts/run.sh and
# scripts/test.sh use (build/release, or NQ_BUILD_DIR; kernels chosen at run
# time), installed under /usr. Install them with `apt install ./build/package/*.deb`.
#   scripts/package.sh           # build the .debs, and print their paths
#   scripts/package.sh --check   # then install them (dpkg -i) and try them:
#                                # nqueens 8, the man page, the completion,
#                                # a project built against find_package(nqueens),
#                                # no installed file naming this tree, and the
#                                # GPU module found where it was installed
set -euo pipefail  # before common.sh: a failed source must stop the script
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/common.sh"
nq_help_if_asked anywhere "$@"
if (($# > 1)) || [[ $# == 1 && $1 != --check ]]; then
  echo "usage: scripts/package.sh [--check]" >&2
  exit 2
fi
nq_ensure_packages "${NQ_RUN_PACKAGES[@]}" dpkg-dev file binutils
nq_build  # nothing to do after scripts/test.sh: CI builds once
build=$NQ_BUILD_DIR
# The package is the portable build: nothing compiled for this machine's CPU.
if grep -q '^NQUEENS_ARCH:STRING=.' "$build/CMakeCache.txt"; then
  echo "package.sh: $build was configured with NQUEENS_ARCH=$(sed -n 's/^NQUEENS_ARCH:STRING=//p' \
    "$build/CMakeCache.txt"): its code runs only on CPUs like this one; package a portable build" >&2
  exit 1
fi
out=$NQ_ROOT/build/package
mkdir -p "$out"
# One packaging at a time (to the end, --check's install too): two cpacks
# share the staging folder and the .deb, and both said they made it while
# it held no file. And none while the build folder is rebuilt under it.
exec {package_lock}>"$out/.nq_package.lock"
flock -n "$package_lock" || {
  echo "package.sh: waiting for another packaging in $out" >&2
  flock "$package_lock"
}
exec {build_lock}>"$build/.nq_build.lock"
nq_note_if_locked
flock "$build_lock"
# The build's own prefix (/usr/local unless configured otherwise) gives the
# relative layout (lib/, lib/nqueens/ for the GPU module, which the tools find
# from bin/); the package puts that layout under /usr.
rm -f "$out"/*.deb  # none of an earlier packaging is taken for this one's
(cd "$build" && cpack -G DEB -B "$out" -D CPACK_PACKAGING_INSTALL_PREFIX=/usr >&2)
rm -rf "$out/_CPack_Packages"
exec {build_lock}>&-
arch=$(dpkg --print-architecture)
deb=$(ls "$out"/nqueens_*_"$arch".deb)
dev_deb=$(ls "$out"/libnqueens-dev_*_"$arch".deb)
echo "$deb"
echo "$dev_deb"
[[ ${1:-} == --check ]] || exit 0

# Each check says which failed: under set -e a bare test would end the script without a word.
fail_check() {
  echo "package.sh: the installed package $*" >&2
  exit 1
}
# What each package holds: the tools' none of the development files, the
# development package no tool.
fail_package() {
  echo "package.sh: $*" >&2
  exit 1
}
# Each read whole first: a dpkg-deb that failed in a pipe read by `! grep`
# would pass the check.
tools_files=$(dpkg-deb -c "$deb" | awk '{print $NF}')
dev_files=$(dpkg-deb -c "$dev_deb" | awk '{print $NF}')
tools_needs=$(dpkg-deb -f "$deb" Depends Recommends)
development=$(grep -E '/include/|\.a$|/cmake/' <<<"$tools_files" || true)
[[ -z $development ]] || fail_package "nqueens holds development files: ${development%%$'\n'*}"
! grep -qE '/bin/|/man/' <<<"$dev_files" || fail_package "libnqueens-dev holds a tool or a man page"
grep -q libtbb <<<"$tools_needs" || fail_package "nqueens has no oneTBB in Depends"
dpkg-deb -f "$deb" Suggests | grep -q openmpi-bin || fail_package "nqueens has no mpirun (openmpi-bin) in Suggests"
! grep -q -- '-dev' <<<"$tools_needs" || fail_package "nqueens depends on or recommends a -dev package"
dev_depends=$(dpkg-deb -f "$dev_deb" Depends)
[[ $dev_depends == *"nqueens (= $(dpkg-deb -f "$deb" Version))"* && $dev_depends == *libtbb-dev* ]] ||
  fail_package "libnqueens-dev depends on '$dev_depends', not on nqueens of its version and libtbb-dev"
# It takes over the library's files from the one package of before the split,
# and from no nqueens of its own version (either could then overwrite the other's files).
version=$(dpkg-deb -f "$deb" Version)
for field in Replaces Breaks; do
  taken=$(dpkg-deb -f "$dev_deb" "$field")
  bound=${taken#nqueens (<< }
  bound=${bound%)}
  # shellcheck disable=SC2015 # either failing is the one failure
  [[ $taken == "nqueens (<< "*")" ]] && dpkg --compare-versions "$version" ge "$bound" ||
    fail_package "libnqueens-dev's $field is '$taken': not 'nqueens (<< V)' with V at most nqueens' $version"
done

# The installed packages, as a user meets them: the tools alone first.
nq_ensure_packages man-db
nq_as_root dpkg -i "$deb" >&2
/usr/bin/nqueens 8 | grep -q 'Q(8) = 92  verified' || fail_check "nqueens, alone, does not count Q(8)"
nq_as_root dpkg -i "$dev_deb" >&2
# No installed file names the tree it was built from (this source folder,
# the build folder in it): a program that looked for its GPU module there
# would load whatever another user puts at that path once the tree is gone.
tree_paths=(-e "$NQ_ROOT" -e "$build" -e "$(cd "$NQ_ROOT" && pwd -P)")
installed=0
while IFS= read -r file; do
  [[ -f $file && ! -L $file ]] || continue
  installed=$((installed + 1))
  named=$(strings -a "$file" | grep -F "${tree_paths[@]}" || true)  # all read: no early exit under pipefail
  if [[ -n $named ]]; then
    echo "package.sh: the installed $file names the build tree: ${named%%$'\n'*}" >&2
    exit 1
  fi
done < <(dpkg -L nqueens libnqueens-dev)
echo "package.sh: none of the $installed installed files names $NQ_ROOT"
/usr/bin/nqueens 8 | grep -q 'Q(8) = 92  verified' || fail_check "does not count Q(8): /usr/bin/nqueens 8"
/usr/bin/nqueens-mpi --version | grep -q '^nqueens-mpi ' || fail_check "has no working nqueens-mpi --version"
module=$(dpkg -L nqueens | grep '/nqueens/libnqueens-gpu\.so$' || true)
if [[ -n $module ]]; then  # its own code hardened too (the static CUDA runtime in it is NVIDIA's)
  module_symbols=$(LC_ALL=C readelf --dyn-syms -W "$module")  # whole: grep -q would cut readelf's pipe short
  grep -q ' __stack_chk_fail' <<<"$module_symbols" || fail_check "has $module without a stack protector"
  [[ $(LC_ALL=C file -b "$module") == *", stripped"* ]] || fail_check "has $module not stripped"
fi
for tool in /usr/bin/nqueens /usr/bin/nqueens-mpi; do  # relocations bound at start, then read-only
  LC_ALL=C readelf -d "$tool" | grep -q 'BIND_NOW' || fail_check "has $tool without BIND_NOW"
  [[ $(LC_ALL=C file -b "$tool") == *", stripped"* ]] || fail_check "has $tool not stripped"
  # Hardened as Debian builds (NQUEENS_HARDEN): a stack protector, and glibc's
  # checked calls (FORTIFY's __*_chk) in place of the plain ones.
  symbols=$(LC_ALL=C readelf --dyn-syms -W "$tool")
  grep -q ' __stack_chk_fail' <<<"$symbols" || fail_check "has $tool without a stack protector"
  grep -q ' __[a-z]*_chk@' <<<"$symbols" || fail_check "has $tool without _FORTIFY_SOURCE's checked calls"
done
# The commit it was built from, where git reads this tree as a checkout of
# its own (as cmake/write_version.cmake does): two packages of one version
# are told apart by it.
top=$(git -C "$NQ_ROOT" rev-parse --show-toplevel 2>/dev/null || true)
if [[ -n $top && $(realpath "$top") == "$(realpath "$NQ_ROOT")" ]]; then
  /usr/bin/nqueens --version | grep -q '^commit: [0-9a-f]\{12\}' || fail_check "names no commit in nqueens --version"
fi
man -w nqueens >/dev/null || fail_check "has no man page"
man nqueens 2>/dev/null | grep -q 'EXIT STATUS' || fail_check "has a man page without EXIT STATUS"
# Tab completion: what bash offers after "nqueens co" and "nqueens count 12 --engine q".
completion=/usr/share/bash-completion/completions/nqueens
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nqueens; echo "${COMPREPLY[*]}"' _ "$completion" "$@"
}
[[ $(complete_words nqueens co) == count ]] || fail_check "completes 'nqueens co' to something other than count"
[[ $(complete_words nqueens count 12 --engine q) == quadrant ]] ||
  fail_check "completes '--engine q' to something other than quadrant"
[[ $(complete_words nqueens count 12 --chec) == "--checkpoint --checkpoint-interval" ]] ||
  fail_check "completes '--chec' to something other than --checkpoint --checkpoint-interval"
# A project outside the tree, against the installed CMake package, on a
# machine without CUDA: where the toolkit is, a mount namespace hides it
# (root only) while the consumer is configured, built and run. The GPU
# engine's device code is a module the library loads at run time, so
# nothing of CUDA may be needed.
consumer=$(mktemp -d)
trap 'rm -rf "$consumer"' EXIT  # on a failed check too
build_consumer() {
  cmake -S "$NQ_ROOT/tests/find-package" -B "$consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$consumer" >&2
  "$consumer/consumer" | tail -1
}
cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
# Where mount namespaces are allowed (not in an unprivileged container).
if [[ -n $cuda && -d $cuda && $(id -u) -eq 0 ]] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  export -f build_consumer
  export NQ_ROOT consumer cuda
  unshare -m bash -c 'set -euo pipefail; mount -t tmpfs none "$cuda"
    if nvcc --version >/dev/null 2>&1; then echo "package.sh: CUDA is still visible" >&2; exit 1; fi
    build_consumer'
  echo "package.sh: the consumer built and ran with $cuda hidden"
else
  build_consumer
fi
# Where no GPU is usable (no driver here), --engine gpu refuses in one line,
# exit 2; where one is, it counts.
if nvidia-smi >/dev/null 2>&1; then
  /usr/bin/nqueens count 8 --engine gpu | grep -q 'Q(8) = 92  verified'
fi
gpu_status=0
gpu_refusal=$(/usr/bin/nqueens count 8 --engine gpu 2>&1) || gpu_status=$?
nvidia-smi >/dev/null 2>&1 ||
  [[ $gpu_status == 2 && $gpu_refusal == "nqueens: --engine gpu needs an NVIDIA GPU: "* && $gpu_refusal != *$'\n'* ]] ||
  { echo "package.sh: --engine gpu did not refuse in one line (exit $gpu_status): $gpu_refusal" >&2; exit 1; }
# Where the package holds the GPU module, the tool and the consumer load it
# from where it was installed: whatever the machine then says (no driver
# here), neither says where it looked in vain.
if dpkg -L nqueens | grep -q '/nqueens/libnqueens-gpu\.so$'; then
  consumer_gpu=$(env -u NQUEENS_GPU_MODULE NQUEENS_GPU=device "$consumer/consumer" gpu 2>&1 || true)
  for said in "$gpu_refusal" "$consumer_gpu"; do
    [[ $said != *"looked for"* && $said != *"is refused"* ]] ||
      { echo "package.sh: the installed GPU module was not loaded: $said" >&2; exit 1; }
  done
  echo "package.sh: the tool and the consumer found the installed GPU module"
fi
rm -rf "$consumer"
echo "package.sh: $deb and $dev_deb install and work"
