#!/bin/sh
# deps.sh: make sure the Debian packages the book needs are installed (installs them as root).
# Usage: tools/book/deps.sh build   pandoc, weasyprint, gnuplot, fonts (for make book)
#        tools/book/deps.sh test    the above plus poppler-utils and chromium (for make test-book)
set -eu

missing=""
need_cmd() {  # need_cmd COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
need_pkg() {  # need_pkg PACKAGE (for packages without a command, such as fonts)
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed' || missing="$missing $1"
}

need_cmd pandoc pandoc
need_cmd weasyprint weasyprint
need_cmd gnuplot gnuplot-nox
need_pkg fonts-dejavu-core
need_pkg fonts-wqy-microhei      # Chinese and Korean titles in the credits
if [ "${1:-build}" = test ]; then
    need_cmd pdftoppm poppler-utils
    need_cmd chromium chromium
fi

[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "book: missing Debian packages:$missing" >&2
    echo "book: install them with:  sudo $cmd" >&2
    exit 1
fi
echo "book: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$cmd >/dev/null || { apt-get update >/dev/null && $cmd >/dev/null; } || {
    echo "book: could not install:$missing (tried: $cmd)" >&2
    exit 1
}
