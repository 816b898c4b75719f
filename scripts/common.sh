# Shared by the scripts in this folder (sourced, not run): install the Debian
# packages the build needs when any is missing, then configure and build.
set -euo pipefail

NQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NQ_BUILD_DIR=${NQ_BUILD_DIR:-$NQ_ROOT/build/release}
NQ_PACKAGES=(cmake ninja-build g++ libtbb-dev libcxxopts-dev libgtest-dev libbenchmark-dev libopenmpi-dev openmpi-bin qemu-user)

# Installs the named Debian packages that are not installed yet; a no-op (and
# no network) when everything is present, so every script can call it.
nq_ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  echo "scripts: installing ${missing[*]}" >&2
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# nq_build [cmake target...]: configures $NQ_BUILD_DIR (Release) once, then
# builds the given targets (all when none). Build output goes to stderr so the
# tool's own output on stdout stays clean.
nq_build() {
  nq_ensure_packages "${NQ_PACKAGES[@]}"
  if [[ ! -f $NQ_BUILD_DIR/build.ninja ]]; then
    cmake -S "$NQ_ROOT" -B "$NQ_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  fi
  local targets=()
  (($# > 0)) && targets=(--target "$@")
  cmake --build "$NQ_BUILD_DIR" "${targets[@]}" >&2
}
