#!/usr/bin/env bash
# scripts/check_doc_paths.sh passes on the docs as they are, and fails,
# naming the document and the path, on a copy whose README names a file
# that is gone and a brace of which one member is gone.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$repo/scripts/check_doc_paths.sh" "$repo" 2>/dev/null || { echo "FAIL: the docs name paths that do not exist" >&2; exit 1; }
cp -r "$repo/README.md" "$repo/docs" "$repo/src" "$repo/include" "$repo/tests" "$repo/scripts" "$repo/bench" "$work/"
printf '\nSee `src/run/no_such_file.cpp` and src/run/{plan,gone}.cpp.\n' >> "$work/README.md"
if out=$(bash "$repo/scripts/check_doc_paths.sh" "$work" 2>&1); then
  echo "FAIL: the missing paths passed: $out" >&2
  exit 1
fi
for expected in 'README.md names src/run/no_such_file.cpp' 'README.md names src/run/gone.cpp' '2 of '; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: expected '$expected' in: $out" >&2; exit 1; }
done
if grep -qF 'src/run/plan.cpp' <<<"$out"; then echo "FAIL: src/run/plan.cpp exists: $out" >&2; exit 1; fi
echo "check_doc_paths: passes the docs, fails the planted paths"
