#!/usr/bin/env bash
# scripts/check_doc_paths.sh passes on the docs as they are, and fails,
# naming the document and the path, on a copy whose README names a file
# that is gone and a brace of which one member is gone; and, naming the
# document and the identifier, on a copy whose docs name a function no
# source has, while a backquoted option, path and command line still pass;
# and refuses a ROOT that is no project as a usage error.
# The backquotes in the planted lines are Markdown, meant literally.
# shellcheck disable=SC2016
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$repo/scripts/check_doc_paths.sh" "$repo" 2>/dev/null || { echo "FAIL: the docs name paths that do not exist" >&2; exit 1; }
# The tree the check reads as code, the top CMakeLists.txt and cmake/ among it (options such as
# NQUEENS_WERROR are declared there and named in the docs).
cp -r "$repo/README.md" "$repo/docs" "$repo/src" "$repo/include" "$repo/tests" "$repo/scripts" "$repo/bench" \
  "$repo/CMakeLists.txt" "$repo/cmake" "$work/"
printf '\nSee `src/run/no_such_file.cpp` and src/run/{plan,gone}.cpp.\n' >> "$work/README.md"
if out=$(bash "$repo/scripts/check_doc_paths.sh" "$work" 2>&1); then
  echo "FAIL: the missing paths passed: $out" >&2
  exit 1
fi
for expected in 'README.md names src/run/no_such_file.cpp' 'README.md names src/run/gone.cpp' '2 of '; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: expected '$expected' in: $out" >&2; exit 1; }
done
if grep -qF 'src/run/plan.cpp' <<<"$out"; then echo "FAIL: src/run/plan.cpp exists: $out" >&2; exit 1; fi

# An identifier the code does not have. The name is built from two halves so
# that this file, which is under tests/ and so read as code, does not hold it
# as one word.
missing_fn="no_such_""function_xyz"
missing_type="no_such_""type_xyz"
rm -rf "$work/README.md" "$work/docs"
cp -r "$repo/README.md" "$repo/docs" "$work/"
printf '\nCall `%s()`, or `nqueens::%s::count`.\n' "$missing_fn" "$missing_type" >> "$work/docs/engines.md"
# Left alone: an option, a path, a command line, another program's variable,
# a fenced block, and names the code has (with and without qualifiers).
printf '\n`--split-depth`, `src/run/plan.cpp`, `nqueens count 12`, `CUDA_VISIBLE_DEVICES`,\n' >> "$work/README.md"
printf '`join_cursor`, `nqueens::count()`.\n\n```\n`no_such_%s()`\n```\n' "fenced_xyz" >> "$work/README.md"
if out=$(bash "$repo/scripts/check_doc_paths.sh" "$work" 2>&1); then
  echo "FAIL: the missing identifiers passed: $out" >&2
  exit 1
fi
for expected in "docs/engines.md names $missing_fn(), which no file under src include tests bench" \
                "docs/engines.md names nqueens::$missing_type::count, which" \
                '2 of ' 'identifiers named in the docs are not in the code'; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: expected '$expected' in: $out" >&2; exit 1; }
done
if grep -q 'README.md' <<<"$out"; then echo "FAIL: README.md names nothing missing: $out" >&2; exit 1; fi
if grep -q 'paths named' <<<"$out"; then echo "FAIL: no path is missing: $out" >&2; exit 1; fi
# A ROOT that is not the project is a usage error (2) in one line, never
# read as a document's missing path (1) or a raw cd or grep error.
for root in "$work/no_such_folder" "$work/docs"; do
  status=0
  out=$(bash "$repo/scripts/check_doc_paths.sh" "$root" 2>&1) || status=$?
  [[ $status == 2 && $out == "check_doc_paths: no src/ and include/nqueens/ under $root" ]] ||
    { echo "FAIL: ROOT $root gave exit $status: $out" >&2; exit 1; }
done
echo "check_doc_paths: passes the docs, fails the planted paths and identifiers, refuses a bad ROOT"
