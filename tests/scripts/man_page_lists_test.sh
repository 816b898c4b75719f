#!/usr/bin/env bash
# The man page (packaging/nqueens.1) writes out by hand the engines --engine
# takes, the instruction sets NQUEENS_ISA takes and the commands of its
# COMMANDS section; the program lists them from its registries (`nqueens
# --list engines`, `--list isas`, `--list commands`). This fails, naming each
# name the man page lacks or has extra, when the two differ; and checks
# itself on a copy of the page with names dropped and one added.
#   tests/scripts/man_page_lists_test.sh NQUEENS [MAN_PAGE]
set -euo pipefail
binary=${1:?usage: man_page_lists_test.sh NQUEENS [MAN_PAGE]}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
man_page=${2:-"$repo/packaging/nqueens.1"}

# The bold words of the first .BR line after the first line of page $1 that
# holds $2: .BR alternates bold and roman arguments, so the odd ones (a
# quoted argument counting as one) are the names, e.g.
#   .BR portable ", " avx2 " or " avx512 .   ->  portable avx2 avx512
# The anchor goes through the environment: awk -v would read its \f as a
# form feed.
bold_list_after() {
  anchor=$2 awk '
    !found && index($0, ENVIRON["anchor"]) { found = 1; next }
    found && /^\.BR / {
      line = substr($0, 5); n = 0
      while (line != "") {
        sub(/^ +/, "", line)
        if (line == "") break
        if (substr(line, 1, 1) == "\"") {
          end = index(substr(line, 2), "\""); arg = substr(line, 2, end - 1); line = substr(line, end + 2)
        } else {
          end = index(line, " "); if (end == 0) end = length(line) + 1
          arg = substr(line, 1, end - 1); line = substr(line, end + 1)
        }
        if (n++ % 2 == 0) print arg
      }
      exit
    }' "$1"
}

# The commands the COMMANDS section of page $1 describes: the first word of
# each tag (.B, .BI or .BR, the line after .TP), e.g. `.BI count " N"` -> count.
command_tags() {
  awk '/^\.SH COMMANDS/ { in_section = 1; next }
       /^\.SH/ { in_section = 0 }
       in_section && previous == ".TP" && /^\.B[IR]? / { print $2 }
       { previous = $0 }' "$1"
}

# compare PAGE WHAT MAN_NAMES LIST_KIND [EXTRA_OK]: one line per name on
# either side only (on the program's side alone with EXTRA_OK); prints the
# number of differences on stdout.
compare() {
  local page=$1 what=$2 man_names=$3 kind=$4 extra_ok=${5:-0} listed differences=0
  listed=$("$binary" --list "$kind")
  if [[ -z $man_names ]]; then
    echo "man_page_lists: found no $what list in $page" >&2
    echo 1
    return
  fi
  while IFS= read -r name; do
    echo "man_page_lists: $page's $what list lacks $name, which 'nqueens --list $kind' prints" >&2
    differences=$((differences + 1))
  done < <(comm -13 <(sort -u <<<"$man_names") <(sort -u <<<"$listed"))
  ((extra_ok)) && { echo "$differences"; return; }
  while IFS= read -r name; do
    echo "man_page_lists: $page's $what list has $name, which 'nqueens --list $kind' does not print" >&2
    differences=$((differences + 1))
  done < <(comm -23 <(sort -u <<<"$man_names") <(sort -u <<<"$listed"))
  echo "$differences"
}

# check_page PAGE: the number of differences, each named on stderr.
check_page() {
  local page=$1 engines differences=0
  # --engine's list; `auto` is no engine but the choice among them, so the
  # program does not list it and the man page must still name it.
  engines=$(bold_list_after "$page" '\-\-engine " \fIE\fR"')
  if ! grep -qx auto <<<"$engines"; then
    echo "man_page_lists: $page's engine list lacks auto" >&2
    differences=$((differences + 1))
  fi
  differences=$((differences + $(compare "$page" engine "$(grep -vx auto <<<"$engines" || true)" engines)))
  # NQUEENS_ISA's list, in the ENVIRONMENT section: the x86-64 sets. A
  # build for another processor (AArch64) lists the portable one alone,
  # and NQUEENS_ISA still names the others there, as sets the CPU lacks.
  local x86_only=0
  [[ $("$binary" --list isas) == portable ]] && x86_only=1
  differences=$((differences + $(compare "$page" ISA "$(bold_list_after "$page" '.B NQUEENS_ISA')" isas $x86_only)))
  # The COMMANDS section: each entry's tag (the line after .TP), its first word.
  differences=$((differences + $(compare "$page" command "$(command_tags "$page")" commands)))
  echo "$differences"
}

if (($(check_page "$man_page") > 0)); then
  echo "FAIL: $man_page's lists differ from what $binary lists" >&2
  exit 1
fi

# The check itself: a copy without portable (which every build lists), with an engine `bogus` and with
# `unmerge` for merge fails, naming each.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/^\.BR portable ", " avx2 " or " avx512 \.$/.BR avx2 " or " avx512 ./' \
  -e 's/^\(\.BR auto " (default), "\) symmetric/\1 bogus ", " symmetric/' \
  -e 's/^\.BI merge " FILE\.\.\."$/.BI unmerge " FILE..."/' "$man_page" >"$work/nqueens.1"
if cmp -s "$man_page" "$work/nqueens.1"; then
  echo "FAIL: the lists' lines in $man_page changed shape: update this test's sed" >&2
  exit 1
fi
out=$(check_page "$work/nqueens.1" 2>&1 >/dev/null)
for expected in "ISA list lacks portable, which 'nqueens --list isas' prints" \
                "engine list has bogus, which 'nqueens --list engines' does not print" \
                "command list lacks merge, which 'nqueens --list commands' prints" \
                "command list has unmerge, which 'nqueens --list commands' does not print"; do
  grep -qF "$expected" <<<"$out" || { echo "FAIL: expected '$expected' in: $out" >&2; exit 1; }
done
echo "man_page_lists: $man_page names the engines, instruction sets and commands $binary lists"
