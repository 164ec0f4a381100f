#!/bin/sh
# print.sh: HTML -> PDF with WeasyPrint (through paginate.py, which lets figures float to the next
# page's top), hiding its warnings about CSS meant only for browsers.
# Usage: tools/book/print.sh build/book.html build/book.pdf   (all warnings: build/book/weasyprint.log)
set -u
log=build/book/weasyprint.log
mkdir -p build/book
# paginate.py needs the Python that WeasyPrint's own command runs with.
py=$(sed -n '1s/^#! *//p' "$(command -v weasyprint)")
${py:-python3} "$(dirname "$0")/paginate.py" "$1" "$2" 2>"$log"
rc=$?
# Browser-only CSS that WeasyPrint skips by design: Pandoc's highlighting rules and the
# sidebar layout for wide screens. Anything else is shown.
grep -v -e 'user-select' -e 'min-width: 1180px' -e 'screen/\*\*/and' -e '^paginate: ' "$log" >&2
exit $rc
