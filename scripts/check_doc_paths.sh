#!/usr/bin/env bash
# Fails, naming the document and the path, when README.md or docs/*.md name
# a path under src/, include/, tests/, scripts/ or bench/ that does not
# exist. Braces ({hpp,cpp}) name each of their files, a * must match
# something, and a <placeholder> (src/engines/<name>/) is left alone.
#   scripts/check_doc_paths.sh [ROOT]   # ROOT: the repository (default: this one)
set -euo pipefail
root=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"}
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
    for each in $(eval "echo $path"); do
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
if ((missing > 0)); then
  echo "check_doc_paths: $missing of $checked paths named in the docs do not exist" >&2
  exit 1
fi
echo "check_doc_paths: all $checked paths named in README.md and docs/*.md exist" >&2
