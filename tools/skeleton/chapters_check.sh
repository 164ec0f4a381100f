#!/bin/sh
# chapters_check.sh: fails when a chapter shows solution code (an include of solutions/ whose region lies, even in part, inside a `// BEGIN SOLUTION` block) or still holds an unmeasured number (`@@GPU: ...@@`).
#
# usage: tools/skeleton/chapters_check.sh [CHAPTER_DIR_OR_FILES...]   (default: chapters)
#
# Chapters may include regions of solutions/ that the skeleton shows too (the
# code around the learner's work); the solution itself lives only in the
# generated appendix. An include is `{... include="solutions/F" marker="M"}`
# (region BOOK-BEGIN(M) .. BOOK-END(M) of F) or, without marker, the whole of F.
set -eu

[ $# -gt 0 ] || set -- chapters
files=$(for a in "$@"; do if [ -d "$a" ]; then find "$a" -maxdepth 1 -name '*.md' | LC_ALL=C sort; else echo "$a"; fi; done)

bad=0
checked=0
for md in $files; do
    # One line per include of solutions/: LINE FILE MARKER (MARKER "-" for a whole file).
    includes=$(awk '{
        if (match($0, /include="solutions\/[^"]*"/) == 0) next
        file = substr($0, RSTART + 9, RLENGTH - 10)
        marker = "-"
        if (match($0, /marker="[^"]*"/)) marker = substr($0, RSTART + 8, RLENGTH - 9)
        print FNR, file, marker
    }' "$md")
    [ -n "$includes" ] || continue
    while read -r line file marker; do
        checked=$((checked + 1))
        if [ ! -f "$file" ]; then
            echo "$md:$line: includes $file, which does not exist"
            bad=$((bad + 1))
            continue
        fi
        # Prints the first source line of the region that lies inside a solution block.
        hit=$(awk -v m="$marker" '
            /\/\/ BEGIN SOLUTION/ { inside = 1; next }
            /\/\/ END SOLUTION/ { inside = 0; next }
            m != "-" && index($0, "BOOK-BEGIN(" m ")") { region = 1; if (inside) { print FNR; exit } next }
            m != "-" && index($0, "BOOK-END(" m ")") { region = 0; next }
            (m == "-" || region) && inside && $0 !~ /^[ \t]*\/\/~/ { print FNR; exit }
        ' "$file")
        if [ -n "$hit" ]; then
            echo "$md:$line: shows solution code: $file:$hit (region ${marker}) lies inside a // BEGIN SOLUTION block;" \
                 "show the skeleton's shape, a buggy example or pseudocode instead"
            bad=$((bad + 1))
        fi
    done <<EOF_INCLUDES
$includes
EOF_INCLUDES
done

# A number a chapter waits for from the GPU is written `@@GPU: what@@` until it is measured: never landed.
pending=$(grep -n '@@GPU' $files /dev/null || true)
if [ -n "$pending" ]; then
    echo "$pending" | sed 's/$/   <- not yet measured: put the H200 number here (bench\/results\/) or rewrite the sentence/'
fi

if [ $bad -ne 0 ] || [ -n "$pending" ]; then
    echo "chapters-check: FAILED: $bad of $checked includes of solutions/ show solution code; $(printf '%s' "$pending" | grep -c . || true) unmeasured numbers"
    exit 1
fi
echo "chapters-check: OK: $checked includes of solutions/ show no solution code"
