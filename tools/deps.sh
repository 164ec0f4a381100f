#!/usr/bin/env bash
# tools/deps.sh: installs the Debian packages DSMEM Lab needs that are missing (as root or with passwordless sudo), or prints the apt-get command.
#
# usage: tools/deps.sh [grade|all]
#   grade  what `make grade` needs: gcc, make, cmocka (no GPU, no nvcc)
#   all    also what `make test` needs: g++ (nvcc's host compiler), and for
#          the book pandoc, weasyprint, gnuplot-nox, poppler-utils, chromium
#
# Exits 0 when everything is there (or was installed), 1 when something is
# missing and could not be installed (the command to run is printed).
set -euo pipefail

what=${1:-all}
case "$what" in
grade) packages=(gcc make libcmocka-dev) ;;
all) packages=(gcc g++ make patch libcmocka-dev pandoc weasyprint gnuplot-nox poppler-utils chromium) ;;
*) echo "usage: tools/deps.sh [grade|all]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "tools/deps.sh: not a Debian/Ubuntu system; make sure you have: ${packages[*]}" >&2
    exit 0
fi

# Ubuntu ships Chromium as chromium-browser (a snap wrapper).
if grep -qs '^ID=ubuntu' /etc/os-release; then
    packages=("${packages[@]/#chromium/chromium-browser}")
fi

installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${packages[@]}" 2>/dev/null || true)"
missing=()
for p in "${packages[@]}"; do
    [[ "$installed" == *" $p:installed "* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "DSMEM Lab needs these Debian packages: ${missing[*]}" >&2
    echo "Install them, then run make again:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

echo "tools/deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
