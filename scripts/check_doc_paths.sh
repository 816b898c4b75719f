#!/usr/bin/env bash
# Fails, naming the document and the path, when README.md or docs/*.md name
# a path under src/, include/, tests/, scripts/ or bench/ that does not
# exist. Braces ({hpp,cpp}) name each of their files, a * must match
# something, and a <placeholder> (src/engines/<name>/) is left alone.
# It fails too, naming the document and the identifier, when they name in
# backquotes a function or type the code no longer has (see the second part).
#   scripts/check_doc_paths.sh [ROOT]   # ROOT: the repository (default: this one)
set -euo pipefail
for arg in "$@"; do  # wherever it is given, as in every script
  if [[ $arg == -h || $arg == --help ]]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
  fi
done
if (($# > 1)) || [[ ${1:-} == -* ]]; then
  echo "usage: scripts/check_doc_paths.sh [ROOT]: one ROOT at most, the repository, not an option (given: $*)" >&2
  exit 2
fi
root=${1:-"$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"}  # through a link too
# Exit 1 is a document's bad path: a bad ROOT is a usage error, as check_layers.sh says it.
[[ -d $root/src && -d $root/include/nqueens ]] || { echo "check_doc_paths: no src/ and include/nqueens/ under $root" >&2; exit 2; }
cd "$root"
missing=0
checked=0
for doc in README.md docs/*.md; do
  [[ -f $doc ]] || continue
  while IFS= read -r path; do
    path=${path%%[.,:;)]}
    path=${path%%[.,:;)]}
    [[ $path == *'<'* || $path == *'>'* ]] && continue
    # Only these characters reach eval: braces expand, nothing else runs.
    [[ $path =~ ^[A-Za-z0-9_./{},*-]+$ ]] || continue
    # Braces need eval's expansion (a process each: only where there are
    # some); a glob expands unquoted as it would under eval.
    expanded=$path
    [[ $path != *'{'* ]] || expanded=$(eval "echo $path")
    for each in $expanded; do
      checked=$((checked + 1))
      # compgen -G echoes a pattern without wildcards even when nothing has its name.
      if [[ $each == *'*'* ]] && ! compgen -G "$each" >/dev/null || [[ $each != *'*'* && ! -e $each ]]; then
        echo "check_doc_paths: $doc names $each, which does not exist" >&2
        missing=$((missing + 1))
      fi
    done
  done < <(grep -oE '(^|[^A-Za-z0-9_./-])(src|include|tests|scripts|bench)/[A-Za-z0-9_./*<>{},-]*' "$doc" |
    sed -E 's/^[^a-z]//' | sort -u)
done

# Identifiers. A backquoted token outside ``` blocks that looks like C++ --
# letters, digits and _ joined by ::, perhaps ending in () -- and has an _,
# a :: or the () (so `count()` and `join_cursor`, not every plain word such
# as `auto` or `plan`) must occur as a word in the code: each component, the
# nqueens:: and detail:: qualifiers dropped (they are namespaces everywhere).
# Command lines, options (`--threads`), paths (a / or a .ext) and anything
# with a space never match the pattern. Of UPPER_CASE names only NQUEENS_*
# are checked: those are the program's own variables and macros; the rest
# (CUDA_VISIBLE_DEVICES, O_TMPFILE, SLURM_LOCALID) belong to other programs.
# The code's words are collected once (one grep) and every token looked up
# in one awk, so the check stays well under a second. The top CMakeLists.txt
# and cmake/ count as code: the NQUEENS_* options are declared there.
#
# Names the docs mean as history or as someone else's, never in this tree:
#   avx2_copy             the test name an ISA set added in a scratch copy
#                         of the tree got (engines.md, 2026-11-26)
#   NQUEENS_MAX_KEY_BITS  a scratch build's macro, tried and not kept (reach.md)
#   exc_page_fault        the Linux kernel's page-fault entry in a perf profile
not_in_tree='avx2_copy NQUEENS_MAX_KEY_BITS exc_page_fault'
code_words=$(mktemp)
trap 'rm -f "$code_words"' EXIT
code=(src include tests bench)
[[ -f CMakeLists.txt ]] && code+=(CMakeLists.txt)
[[ -d cmake ]] && code+=(cmake)
grep -rIhoE '[A-Za-z_][A-Za-z0-9_]*' "${code[@]}" | sort -u >"$code_words"
ident_missing=0
ident_checked=0
while IFS=$'\t' read -r doc token result; do
  ident_checked=$((ident_checked + 1))
  if [[ $result == missing ]]; then
    echo "check_doc_paths: $doc names $token, which no file under ${code[*]} has" >&2
    ident_missing=$((ident_missing + 1))
  fi
done < <(
  docs=()
  for doc in README.md docs/*.md; do [[ -f $doc ]] && docs+=("$doc"); done
  # One awk for every document: lines inside ``` fences are dropped (they
  # hold command lines and code), each backquoted span of the others tested.
  awk -v skip="$not_in_tree" '
    BEGIN { n = split(skip, list, " "); for (i = 1; i <= n; i++) allowed[list[i]] = 1 }
    FILENAME == ARGV[1] { word[$0] = 1; next }
    FNR == 1 { fenced = 0 }
    /^[[:space:]]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      line = $0
      while (match(line, /`[^`]+`/)) {
        token = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        if (token !~ /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_~][A-Za-z0-9_]*)*(\(\))?$/) continue
        if (token !~ /_|::|\(\)$/) continue
        name = token
        sub(/\(\)$/, "", name)
        # UPPER_CASE names: only those of this program (NQUEENS_*).
        if (name ~ /^[A-Z0-9_]+$/ && name !~ /^NQUEENS_/) continue
        if ((FILENAME, token) in seen) continue
        seen[FILENAME, token] = 1
        if (name in allowed) { print FILENAME "\t" token "\tallowed"; continue }
        k = split(name, part, "::"); result = "found"
        for (i = 1; i <= k; i++)
          if (part[i] != "nqueens" && part[i] != "detail" && !(part[i] in word)) result = "missing"
        print FILENAME "\t" token "\t" result
      }
    }' "$code_words" "${docs[@]}"
)

if ((missing > 0 || ident_missing > 0)); then
  ((missing > 0)) && echo "check_doc_paths: $missing of $checked paths named in the docs do not exist" >&2
  ((ident_missing > 0)) && echo "check_doc_paths: $ident_missing of $ident_checked identifiers named in the docs are not in the code" >&2
  exit 1
fi
echo "check_doc_paths: all $checked paths named in README.md and docs/*.md exist, and all $ident_checked identifiers occur in the code" >&2
