#!/usr/bin/env bash
# Fails, naming the file and the include, when a source includes a layer
# above its own. The layers, top down:
#
#   mpi -> cli -> run, solutions -> engines -> kernels -> isa
#
# Within engines, engines/join_model/ (the join model the quadrant and GPU
# engines share) is below every engine's folder: it includes no
# engines/<name>/ but its own, so that neither engine's internals leak into
# the other through it; and an engine's folder includes no other engine's
# (what two engines share has a folder of its own, as join_model).
#
# Project headers are included by their path from src/ or as nqueens/X.hpp,
# in quotes: an include in angle brackets, or one through "../", would pass
# unseen, so either is refused.
#
# A folder of src/ is its layer. A public header include/nqueens/X.hpp is
# the layer of the source that implements it (src/*/X.cpp, or X.cpp.in
# where the build writes it); one that no source implements (board.hpp,
# cancelled.hpp, device_work.hpp, subproblem_count.hpp) is vocabulary any
# layer may use, and
# the umbrella nqueens.hpp, which includes them all, is above every layer.
#   scripts/check_layers.sh [ROOT]   # ROOT: the repository (default: this one)
set -euo pipefail
for arg in "$@"; do  # wherever it is given, as in every script
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
if (($# > 1)) || [[ ${1:-} == -* ]]; then
  echo "usage: scripts/check_layers.sh [ROOT]: one ROOT at most, the repository, not an option (given: $*)" >&2
  exit 2
fi
root=${1:-"$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"}  # through a link too
[[ -d $root/src && -d $root/include/nqueens ]] || { echo "check_layers: no src/ and include/nqueens/ under $root" >&2; exit 2; }

# Sets rank to a layer's rank: 0 for vocabulary, empty for what is no layer.
rank_of_layer() {
  case $1 in
    isa) rank=1 ;;
    kernels) rank=2 ;;
    engines) rank=3 ;;
    run | solutions) rank=4 ;;
    cli) rank=5 ;;
    mpi) rank=6 ;;
    umbrella) rank=7 ;;
    vocabulary) rank=0 ;;
    *) rank="" ;;
  esac
}

# The layer of a public header's name (X.hpp): where X.cpp (or X.cpp.in)
# lives.
declare -A public_layer
# Each source's path under src/ by its name (X.cpp, or X.cpp.in): one find,
# not one a header (a process each is slow where processes start slowly).
declare -A source_of
while IFS= read -r impl; do
  base=${impl##*/}
  base=${base%.in}
  base=${base%.cpp}
  [[ -n ${source_of[$base]:-} ]] || source_of[$base]=${impl#"$root/src/"}
done < <(find "$root/src" \( -name '*.cpp' -o -name '*.cpp.in' \) | sort)
for header in "$root"/include/nqueens/*.hpp; do
  name=${header##*/}
  name=${name%.hpp}
  rel=${source_of[$name]:-}
  if [[ $name == nqueens ]]; then
    public_layer[$name]=umbrella
  elif [[ -n $rel ]]; then
    public_layer[$name]=${rel%%/*}
  else
    public_layer[$name]=vocabulary
  fi
done
layer_of_include() {
  local path=$1 from=$2
  if [[ $path == nqueens/*.hpp ]]; then
    local name=${path#nqueens/}
    name=${name%.hpp}
    included_layer=${public_layer[$name]:-vocabulary}
    return
  fi
  rank_of_layer "${path%%/*}"
  if [[ -n $rank && $path == */* ]]; then
    included_layer=${path%%/*}
  else
    included_layer=$from  # a file beside the includer
  fi
}

violations=0
mapfile -t files < <(find "$root/src" "$root/include/nqueens" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inc' -o -name '*.cu' -o -name '*.in' \) | sort)
# Every quoted include, and every project header in angle brackets, of every
# file, in one grep: FILE:LINE, file by file in order.
angle='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(nqueens|isa|kernels|engines|run|solutions|cli|mpi)/'
quoted='^[[:space:]]*#[[:space:]]*include[[:space:]]*"'
current=
while IFS= read -r entry; do
  file=${entry%%:*}
  line=${entry#*:}
  if [[ $file != "$current" ]]; then
    current=$file
    rel=${file#"$root/"}
    if [[ $rel == include/nqueens/* ]]; then
      name=${file##*/}
      layer=${public_layer[${name%.hpp}]}
    else
      layer=${rel#src/}
      layer=${layer%%/*}
    fi
    rank_of_layer "$layer"
    own=$rank
  fi
  [[ -n $own ]] || continue  # src/CMakeLists.txt and the like
  if [[ $line =~ $angle ]]; then
    echo "check_layers: $rel: $line: a project header in angle brackets: write it in quotes" >&2
    violations=$((violations + 1))
    continue
  fi
  [[ $line =~ $quoted && $line =~ \"([^\"]+)\" ]] || continue
  included=${BASH_REMATCH[1]}
  layer_of_include "$included" "$layer"
  target=$included_layer
  rank_of_layer "$target"
  theirs=$rank
  if [[ -n $theirs && $theirs -gt $own ]]; then
    echo "check_layers: $rel ($layer) includes \"$included\" ($target), a layer above it" >&2
    violations=$((violations + 1))
  fi
  if [[ $rel == src/engines/join_model/* && $included =~ ^engines/([^/]+)/ && ${BASH_REMATCH[1]} != join_model ]]; then
    echo "check_layers: $rel (engines/join_model) includes \"$included\" (engines/${BASH_REMATCH[1]}), a layer above it" >&2
    violations=$((violations + 1))
  elif [[ $rel =~ ^src/engines/([^/]+)/ && ${BASH_REMATCH[1]} != join_model ]]; then
    folder=${BASH_REMATCH[1]}
    if [[ $included =~ ^engines/([^/]+)/ && ${BASH_REMATCH[1]} != "$folder" && ${BASH_REMATCH[1]} != join_model ]]; then
      echo "check_layers: $rel (engines/$folder) includes \"$included\", another engine's folder" >&2
      violations=$((violations + 1))
    fi
  fi
  if [[ $included == ../* || $included == */../* || $included == ./* ]]; then
    echo "check_layers: $rel includes \"$included\" by a relative path: name it from src/ (or as nqueens/X.hpp)" >&2
    violations=$((violations + 1))
  fi
done < <(((${#files[@]} == 0)) || grep -HE "$quoted|$angle" "${files[@]}" || true)

if ((violations > 0)); then
  echo "check_layers: $violations include(s) cross the layers mpi -> cli -> run, solutions -> engines -> kernels -> isa (engines/join_model below the engine folders), or are written so that the check cannot see them" >&2
  exit 1
fi
echo "check_layers: every include keeps to the layers" >&2
