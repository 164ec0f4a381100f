# cmocka.sh: sourced by the tools/gpu scripts: sets cm to "CMOCKA_PREFIX=/tmp/cmocka" (a make argument) after
# unpacking .deps/*.deb (libcmocka0, libcmocka-dev) there when the system has no cmocka; else to "".
cm=""
if [ ! -f /usr/include/cmocka.h ] && ls .deps/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/cmocka && for d in .deps/*.deb; do dpkg -x "$d" /tmp/cmocka; done
  cm="CMOCKA_PREFIX=/tmp/cmocka"
fi
