#!/usr/bin/env bash
# tools/mutants/new.sh: writes tests/mutants/<id>/<name>.patch from an edited copy of solutions/ (the mutation suite's format, for authors).
#
# usage: tools/mutants/new.sh ID NAME "REASON" COPY
#   cp -r solutions /tmp/m && (edit /tmp/m/ch02/histogram.cu) &&
#   tools/mutants/new.sh ch02.histogram plain-increment "a load, an add and a store lose updates" /tmp/m
# NAME starting with ok- marks a correct alternative. Every file of COPY that differs from
# solutions/ goes into the patch, with paths a/<file> and b/<file> and no time stamps.
# Then: make mutants EX=ID.
set -euo pipefail

[ $# -eq 4 ] || { sed -n '4,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
id=$1 name=$2 reason=$3 copy=${4%/}
[[ "$id" =~ ^ch[0-9][0-9]\.[a-z0-9_]+$ ]] || { echo "new.sh: '$id' is not an exercise id (chNN.name)" >&2; exit 2; }
[[ "$name" =~ ^[a-z0-9][a-z0-9_-]*$ ]] || { echo "new.sh: NAME: lower-case letters, digits, - and _" >&2; exit 2; }
[[ "$reason" == *[![:space:]]* && "$reason" != *$'\n'* ]] || { echo "new.sh: REASON must be one line" >&2; exit 2; }
[ -d "$copy" ] || { echo "new.sh: no folder $copy" >&2; exit 2; }

diff_text=$(cd "$copy" && for f in $(cd "$OLDPWD" && diff -rqN solutions "$copy" | awk '{print $2}' | sed 's|^solutions/||'); do
    diff -u --label "a/$f" --label "b/$f" "$OLDPWD/solutions/$f" "$f" || true
done)
[ -n "$diff_text" ] || { echo "new.sh: $copy does not differ from solutions/" >&2; exit 1; }
mkdir -p "tests/mutants/$id"
{ printf '# %s\n' "$reason"; printf '%s\n' "$diff_text"; } > "tests/mutants/$id/$name.patch"
echo "wrote tests/mutants/$id/$name.patch (check it with: make mutants EX=$id)"
