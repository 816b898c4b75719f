#!/usr/bin/env bash
# The bash completion (packaging/nqueens.bash-completion) driven as bash
# drives it: COMP_WORDS and COMP_CWORD set, _nqueens called, COMPREPLY read.
# Fails, naming the words typed, where what it offers is not what is asked.
#   tests/scripts/completion_test.sh NQUEENS
set -euo pipefail
binary=${1:?usage: completion_test.sh NQUEENS}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir shards
touch "q23 0.json" shards/a.json
# shellcheck source=../../packaging/nqueens.bash-completion
source "$repo/packaging/nqueens.bash-completion"
failed=0

# offers "WORD..." -- EXPECTED...: the completion of the last word typed.
offers() {
  local words=() expected=() at_expected=0 w
  for w in "$@"; do
    if [[ $w == -- && $at_expected == 0 ]]; then at_expected=1; continue; fi
    if ((at_expected)); then expected+=("$w"); else words+=("$w"); fi
  done
  COMP_WORDS=("${typed_binary:-$binary}" "${words[@]}")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _nqueens || true  # its status means nothing to bash either
  local got expected_text
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
  expected_text=$(printf '%s\n' "${expected[@]}" | sort | tr '\n' ' ')
  [[ ${#expected[@]} == 0 ]] && expected_text=""
  [[ ${#COMPREPLY[@]} == 0 ]] && got=""
  if [[ $got != "$expected_text" ]]; then
    echo "completion_test: '${words[*]}' offered [$got], expected [$expected_text]" >&2
    failed=1
  fi
}

offers "he" -- help
offers "help" "me" -- merge
offers "count" "--engine" "qu" -- quadrant
offers "count" "--engine" "=" "qu" -- quadrant
mapfile -t engines < <("$binary" --list engines)
offers "count" "--engine" "=" "" -- auto "${engines[@]}"
offers "list" "8" "-f" "b" -- board
offers "count" "12" "-f" "" --
offers "check" "-f" "" --
offers "merge" "q23" -- "q23 0.json"
offers "merge" "sh" -- shards
offers "count" "12" "--checkpoint" "=" "q" -- "q23 0.json"
# The program typed by a path from home, as bash leaves it in COMP_WORDS:
# the tilde unexpanded, as typed.
mkdir -p home/bin
ln -s "$binary" home/bin/nqueens
# shellcheck disable=SC2088
HOME=$work/home typed_binary="~/bin/nqueens" offers "he" -- help
# shellcheck disable=SC2088
HOME=$work/home typed_binary="~/bin/nqueens" offers "count" "--engine" "=" "qu" -- quadrant
exit $failed
