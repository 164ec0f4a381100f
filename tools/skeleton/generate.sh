#!/bin/sh
# generate.sh: writes the skeleton of every file of a solutions tree into an exercises tree (docs/CONVENTIONS.md).
#
# usage: tools/skeleton/generate.sh SOLUTIONS_DIR EXERCISES_DIR [BACKUP_DIR]
#
# Files with solution markers go through skeleton.awk; files without are
# copied as they are (helpers). Only files whose content changes are written.
# With BACKUP_DIR, a file that is about to change is first copied to
# BACKUP_DIR/<path> so that nobody's edits are lost. A file whose markers are
# broken is not written; the script goes on with the others and exits 1.
set -eu

src=${1:?usage: generate.sh SOLUTIONS_DIR EXERCISES_DIR [BACKUP_DIR]}
dest=${2:?usage: generate.sh SOLUTIONS_DIR EXERCISES_DIR [BACKUP_DIR]}
backup=${3:-}
awk_script=$(dirname "$0")/skeleton.awk
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

status=0
changed=0
total=0
for file in $(cd "$src" && find . -type f ! -name '.*' | sed 's|^\./||' | LC_ALL=C sort); do
    total=$((total + 1))
    if grep -q -e 'BEGIN SOLUTION' -e '//~' "$src/$file"; then
        if ! awk -f "$awk_script" "$src/$file" > "$tmp"; then
            status=1
            continue
        fi
    else
        cp "$src/$file" "$tmp"
    fi
    if [ -f "$dest/$file" ] && cmp -s "$tmp" "$dest/$file"; then
        continue
    fi
    mkdir -p "$(dirname "$dest/$file")"
    if [ -n "$backup" ] && [ -f "$dest/$file" ]; then
        mkdir -p "$(dirname "$backup/$file")"
        cp -p "$dest/$file" "$backup/$file"
        echo "saved the old $dest/$file as $backup/$file"
    fi
    cp "$tmp" "$dest/$file"
    changed=$((changed + 1))
    echo "wrote $dest/$file"
done
echo "skeletons: $total files from $src/, $changed written to $dest/"
exit $status
