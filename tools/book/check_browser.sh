#!/bin/sh
# check_browser.sh: open the book in headless Chromium: every image must load and be drawn
# with a size; a screenshot of the first screen is kept for a person to look at.
# Usage: tools/book/check_browser.sh build/book.html build/book-test
set -u
html=$1
out=$2
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chrome() {
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --virtual-time-budget=3000 "$@" 2>/dev/null
}

# The probe is the book plus a script that, after load, counts images that did not decode
# or take no space, and writes the result on the <html> element for --dump-dom to show.
probe=$out/probe.html
sed 's#</body>#<script>\
window.addEventListener("load", function () {\
  var imgs = document.images, bad = [];\
  for (var i = 0; i < imgs.length; i++) {\
    var r = imgs[i].getBoundingClientRect();\
    if (!imgs[i].complete || imgs[i].naturalWidth === 0 || r.width < 8 || r.height < 8)\
      bad.push(imgs[i].alt || ("image " + i));\
  }\
  document.documentElement.setAttribute("data-book-images", imgs.length + " " + bad.length);\
  document.documentElement.setAttribute("data-book-broken", bad.join(" | "));\
});\
</script></body>#' "$html" > "$probe"

passed=0
failed=0
report() {  # report STATUS NAME [detail]
    if [ "$1" -eq 0 ]; then passed=$((passed + 1)); echo "ok - browser: $2"
    else failed=$((failed + 1)); echo "not ok - browser: $2"; [ -n "${3:-}" ] && echo "    $3"; fi
}

dom=$(chrome --dump-dom "file://$(realpath "$probe")")
counts=$(printf '%s' "$dom" | sed -n 's/.*data-book-images="\([0-9]*\) \([0-9]*\)".*/\1 \2/p' | head -1)
if [ -z "$counts" ]; then
    report 1 "the page loads in Chromium" "no result from the probe script (did Chromium start?)"
else
    total=${counts% *}
    broken=${counts#* }
    report 0 "the page loads in Chromium"
    report "$broken" "all $total images load and are drawn" \
        "broken: $(printf '%s' "$dom" | sed -n 's/.*data-book-broken="\([^"]*\)".*/\1/p' | head -1)"
fi

shot=$out/book-top.png
rm -f "$shot"
chrome --window-size=1280,1600 --screenshot="$shot" "file://$(realpath "$html")" >/dev/null
# A blank 1280x1600 PNG is a few KB; the title page and contents are far more.
[ "$(wc -c < "$shot" 2>/dev/null || echo 0)" -gt 20000 ]
report $? "screenshot of the first screen is not blank ($shot)"

echo "book-browser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
