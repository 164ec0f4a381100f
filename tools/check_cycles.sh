#!/bin/sh
# check_cycles.sh: fails (exit 1, printing one cycle) when object files call each other in a circle.
#
# Usage: tools/check_cycles.sh [-v] OBJ_OR_DIR...
#   Each argument is an object file or a directory searched (recursively) for *.o. File A depends on
#   file B when A leaves a symbol undefined that B defines (nm). A symbol defined by several of the
#   given files (a weak or common definition) makes A depend on each of them. Self-edges are ignored.
#   -v prints every edge (A -> B: symbols) first.
# Exit 0: no cycle; 1: a cycle (printed as A -> B -> ... -> A, each arrow with one symbol it uses);
# 2: usage error or no object file given.
set -eu

verbose=0
if [ "${1:-}" = "-v" ]; then verbose=1; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [-v] OBJ_OR_DIR..." >&2; exit 2; }

objs=$(for a in "$@"; do
    if [ -d "$a" ]; then find "$a" -name '*.o' | sort; else printf '%s\n' "$a"; fi
done)
[ -n "$objs" ] || { echo "check_cycles: no object file in $*" >&2; exit 2; }

# One line per symbol use or definition: "D <file> <symbol>" or "U <file> <symbol>".
table=$(for o in $objs; do
    [ -f "$o" ] || { echo "check_cycles: $o: no such file" >&2; exit 2; }
    nm -P --defined-only --extern-only "$o" 2>/dev/null | awk -v f="$o" '{ print "D", f, $1 }'
    nm -P --undefined-only "$o" 2>/dev/null | awk -v f="$o" '{ print "U", f, $1 }'
done)

printf '%s\n' "$table" | awk -v verbose="$verbose" '
function short(f) { sub(/^.*\//, "", f); return f }
$1 == "D" { d = ($3 in def) ? def[$3] SUBSEP $2 : $2; def[$3] = d; files[$2] = 1; next }
$1 == "U" { files[$2] = 1; nuse++; use_f[nuse] = $2; use_s[nuse] = $3 }
END {
    for (i = 1; i <= nuse; i++) {
        s = use_s[i]; a = use_f[i]
        if (!(s in def)) continue
        n = split(def[s], ds, SUBSEP)
        for (j = 1; j <= n; j++) {
            b = ds[j]
            if (b == a) continue
            if (!((a, b) in edge)) { edge[a, b] = s; nout[a]++; out[a, nout[a]] = b }
            else if (verbose) edge[a, b] = edge[a, b] " " s
        }
    }
    if (verbose)
        for (a in files) for (k = 1; k <= nout[a]; k++) print short(a) " -> " short(out[a, k]) ": " edge[a, out[a, k]]
    # Depth-first search, iterative; colour 1 = on the stack, 2 = done.
    nf = 0; for (f in files) order[++nf] = f
    for (r = 1; r <= nf; r++) {
        root = order[r]
        if (colour[root]) continue
        depth = 1; stack[1] = root; next_k[1] = 1; colour[root] = 1
        while (depth > 0) {
            v = stack[depth]
            if (next_k[depth] > nout[v]) { colour[v] = 2; depth--; continue }
            w = out[v, next_k[depth]]; next_k[depth]++
            if (colour[w] == 1) {
                for (start = 1; stack[start] != w; start++) ;
                line = short(w)
                for (k = start; k < depth; k++)
                    line = line " -(" edge[stack[k], stack[k + 1]] ")-> " short(stack[k + 1])
                line = line " -(" edge[v, w] ")-> " short(w)
                print "check_cycles: a cycle among the object files:"
                print "  " line
                exit 1
            }
            if (!colour[w]) { colour[w] = 1; depth++; stack[depth] = w; next_k[depth] = 1 }
        }
    }
    printf "check_cycles: no cycle among %d object files\n", nf
}'
