# skeleton.awk: turns a solution file into its exercise skeleton (docs/CONVENTIONS.md, "Solutions, skeletons and markers").
#
# Between a line "// BEGIN SOLUTION" and a line "// END SOLUTION" (indentation
# allowed, text after the marker allowed) every line is dropped, except lines
# whose first non-blank characters are "//~ ": those stay, without "//~ "
# (the indentation before "//~" is kept); a bare "//~" becomes an empty line.
# Marker lines themselves are dropped. Unbalanced or nested markers, and "//~"
# lines outside a solution region, are errors: "file:line: error: ..." on
# stderr and exit status 1.
#
# usage: awk -f tools/skeleton/skeleton.awk solutions/ch02/ring_shift.cu > exercises/ch02/ring_shift.cu

function fail(msg) {
    printf "%s:%d: error: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
    exit 1
}

BEGIN { inside = 0; failed = 0 }

/^[ \t]*\/\/ BEGIN SOLUTION/ {
    if (inside) fail("BEGIN SOLUTION inside the solution region opened at line " begin_line)
    inside = 1
    begin_line = FNR
    next
}

/^[ \t]*\/\/ END SOLUTION/ {
    if (!inside) fail("END SOLUTION without a BEGIN SOLUTION before it")
    inside = 0
    next
}

/^[ \t]*\/\/~( |$)/ {
    if (!inside) fail("a //~ line outside a BEGIN/END SOLUTION region")
    match($0, /^[ \t]*/)
    indent = substr($0, 1, RLENGTH)
    rest = substr($0, RLENGTH + 4)      # after "//~"
    if (substr(rest, 1, 1) == " ") rest = substr(rest, 2)
    print (rest == "" ? "" : indent rest)
    next
}

{
    if (!inside) print
}

END {
    if (!failed && inside) {
        printf "%s:%d: error: BEGIN SOLUTION without an END SOLUTION\n", FILENAME, begin_line > "/dev/stderr"
        exit 1
    }
}
