#!/bin/sh
# print.sh: HTML -> PDF with WeasyPrint, hiding its warnings about CSS meant only for browsers.
# Usage: tools/book/print.sh build/book.html build/book.pdf   (all warnings: build/book/weasyprint.log)
set -u
log=build/book/weasyprint.log
mkdir -p build/book
weasyprint "$1" "$2" 2>"$log"
rc=$?
# Browser-only CSS that WeasyPrint skips by design: Pandoc's highlighting rules and the
# sidebar layout for wide screens. Anything else is shown.
grep -v -e 'user-select' -e 'min-width: 1180px' -e 'screen/\*\*/and' "$log" >&2
exit $rc
