#!/bin/sh
# check.sh: fails when the exercises/ skeletons differ from the ones generated from solutions/ (make test-skeletons-sync).
#
# usage: tools/skeleton/check.sh GENERATED_DIR EXERCISES_DIR
#
# A generated file is in sync when it equals the committed file (git HEAD) or
# the file in the working tree: a learner's edits in exercises/ neither fail
# the check (HEAD still matches) nor are touched; a maintainer who ran
# `make skeletons` but has not committed yet passes here, and CI (a fresh
# clone) then checks what was committed. Outside git only the working tree
# counts. Committed files in EXERCISES_DIR that solutions/ does not generate
# are reported too. Nothing is written.
set -eu

gen=${1:?usage: check.sh GENERATED_DIR EXERCISES_DIR}
ex=${2:?usage: check.sh GENERATED_DIR EXERCISES_DIR}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

use_git=no
if git rev-parse --verify -q HEAD >/dev/null 2>&1 && [ -n "$(git ls-tree -r --name-only HEAD -- "$ex" 2>/dev/null)" ]; then
    use_git=yes
    echo "test-skeletons-sync: comparing generated skeletons with $ex/ at HEAD ($(git rev-parse --short HEAD)) and in the working tree"
else
    echo "test-skeletons-sync: comparing generated skeletons with $ex/ in the working tree (no commit of $ex/ to compare with)"
fi

bad=0
checked=0
for file in $(cd "$gen" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); do
    checked=$((checked + 1))
    if [ -f "$ex/$file" ] && cmp -s "$gen/$file" "$ex/$file"; then
        continue
    fi
    if [ $use_git = yes ] && git show "HEAD:$ex/$file" > "$tmp" 2>/dev/null && cmp -s "$gen/$file" "$tmp"; then
        continue
    fi
    bad=$((bad + 1))
    if [ $use_git = yes ] && git cat-file -e "HEAD:$ex/$file" 2>/dev/null; then
        echo "$ex/$file: differs from the skeleton of solutions/$file (at HEAD, and in the working tree):"
        git show "HEAD:$ex/$file" | diff -u --label "HEAD:$ex/$file" --label "generated" - "$gen/$file" | head -n 30 || true
    elif [ -f "$ex/$file" ]; then
        echo "$ex/$file: differs from the skeleton of solutions/$file:"
        diff -u --label "$ex/$file" --label "generated" "$ex/$file" "$gen/$file" | head -n 30 || true
    else
        echo "$ex/$file: missing (solutions/$file has no skeleton in $ex/)"
    fi
done

if [ $use_git = yes ]; then
    committed=$(git ls-tree -r --name-only HEAD -- "$ex")
else
    committed=$(find "$ex" -type f ! -name '.*' 2>/dev/null | LC_ALL=C sort)
fi
for path in $committed; do
    if [ ! -f "$gen/${path#"$ex"/}" ]; then
        echo "$path: not generated from solutions/ (remove it, or add its solution)"
        bad=$((bad + 1))
    fi
done

if [ $bad -ne 0 ]; then
    echo "test-skeletons-sync: FAILED: $bad of $checked skeletons out of sync: run make skeletons and commit $ex/"
    exit 1
fi
echo "test-skeletons-sync: OK: $checked skeletons match solutions/"
