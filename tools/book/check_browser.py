#!/usr/bin/env python3
"""check_browser.py: open every page of the site in headless Chromium at a phone's width (420 px)
and check what a reader meets: images load, figure labels stay legible, every code block has a
copy button, the sidebar is closed and the text comes first, nothing is wider than the screen,
search finds a chapter's title word. Keeps screenshots at 1280 px and 420 px, light and dark, for a person.
Usage: check_browser.py build/book/site build/book-test"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--virtual-time-budget=4000"]


def chrome(profile, *args):
    return subprocess.run(["chromium", *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120).stdout


def search_word(site):
    """The longest word of the first chapter's title: the search must find it."""
    first = sorted(n for n in os.listdir(site) if re.match(r"ch\d\d\.html$", n))
    if not first:
        return "preface"
    with open(os.path.join(site, first[0]), encoding="utf-8") as f:
        title = re.search(r"<title>(.*?)</title>", f.read(), re.S).group(1).split("·")[0]
    return max(re.findall(r"[A-Za-z]+", html.unescape(title)), key=len).lower()


def probe(site, name, profile, query):
    """The probe's measurements of one page at 420 x 900 (opened with ?q=query), or None."""
    with open(os.path.join(site, name), encoding="utf-8") as f:
        page = f.read()
    with open(os.path.join(HERE, "probe.js"), encoding="utf-8") as f:
        script = f.read()
    path = os.path.join(site, "_probe-" + name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", f"<script>{script}</script></body>"))
    try:
        dom = chrome(profile, "--window-size=420,900", "--dump-dom",
                     "file://" + os.path.abspath(path) + "?q=" + query)
    finally:
        os.remove(path)
    m = re.search(r'data-probe="([^"]*)"', dom)
    return json.loads(html.unescape(m.group(1))) if m else None


def screenshots(site, out, profile):
    """index.html and the first chapter at 1280 and 420 px, light and dark."""
    pages = sorted(n for n in os.listdir(site) if re.match(r"ch\d\d\.html$", n))[:1] + ["index.html"]
    shots = []
    for name in pages:
        for width, height in ((1280, 900), (420, 900)):
            for theme, extra in (("light", []), ("dark", ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"])):
                shot = os.path.join(out, f"{name[:-5]}-{width}-{theme}.png")
                if os.path.exists(shot):
                    os.remove(shot)
                chrome(profile, f"--window-size={width},{height}", *extra, f"--screenshot={shot}",
                       "file://" + os.path.abspath(os.path.join(site, name)))
                shots.append(shot)
    return shots


def main(site, out):
    os.makedirs(out, exist_ok=True)
    results = []

    def check(name, problems):
        results.append((name, problems))

    profile = tempfile.mkdtemp()
    try:
        names = sorted(n for n in os.listdir(site) if n.endswith(".html"))
        word = search_word(site)
        found = {n: probe(site, n, profile, word) for n in names}
        check("every page loads in Chromium and runs its scripts", [n for n, r in found.items() if r is None])
        found = {n: r for n, r in found.items() if r}
        total = sum(r["images"] for r in found.values())
        check(f"all {total} images load and are drawn", [f"{n}: {b}" for n, r in found.items() for b in r["broken"]])
        check("at 420 px no figure label is smaller than 8.5 px",
              [f"{n}: {s}" for n, r in found.items() for s in r["small_labels"]])
        check("every code block has a copy button",
              [f"{n}: {r['copy_buttons']} buttons for {r['code_blocks']} blocks" for n, r in found.items()
               if r["copy_buttons"] != r["code_blocks"]])
        check("at 420 px the sidebar is closed and the text starts on the first screen",
              [f"{n}: sidebar open" for n, r in found.items() if r["sidebar_visible"]]
              + [f"{n}: text starts at {r['text_top']} px" for n, r in found.items() if not 0 <= r["text_top"] < 450])
        check("at 420 px no page is wider than the screen",
              [n for n, r in found.items() if r["wider_than_viewport"]])
        index = found.get("index.html")
        check(f"search finds '{word}' (from the first chapter's title) in several sections",
              ["index.html did not load"] if not index else
              ([] if index["search_hits"] >= 2 and index["search_first"] else [f"{index['search_hits']} hits"]))
        shots = screenshots(site, out, profile)
        check(f"{len(shots)} screenshots are not blank ({out})",
              [s for s in shots if not os.path.exists(s) or os.path.getsize(s) < 15000])
    finally:
        shutil.rmtree(profile, ignore_errors=True)

    failed = 0
    for name, problems in results:
        print(("not ok" if problems else "ok") + f" - browser: {name}")
        for p in problems[:10]:
            print(f"    {p}")
        failed += bool(problems)
    print(f"book-browser: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/book/site",
                  sys.argv[2] if len(sys.argv) > 2 else "build/book-test"))
