#!/usr/bin/env python3
"""check_browser.py: open every page of the site in headless Chromium (one browser, driven by
cdp.py) at 320, 390, 768, 1280 and 1920 px, light and dark, and check what a reader
meets: images load; figures scale to their column and open full size; code wraps, never inside a
name; tables fit, or scroll in a box that fits; numbers and units never break; nothing lies
outside the column; the search results lie inside the window; each chapter's outline marks the
section on screen; repository files open as pages; the copy button is outside the text; every heading has an anchor;
a wide table says that it scrolls; the closed phone menu keeps its links out of the Tab order
and Esc or a tap outside closes it; ← and → turn the page; the theme toggle works and is
remembered; printing shows the text and the solutions; a link to a solution opens it; search
finds misspellings, counts in good English, and each result lands on its section with the query
marked; no SVG text touches the drawing's edge, overlaps other text or has a line through it.
Keeps screenshots of the first chapter and index.html at every width, light and dark.
Usage: check_browser.py build/book/site build/book-test [--quick]   (--quick: 390 and 1280 px,
       light only, no screenshots; for the tests of the checks themselves)"""

import html
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cdp import Browser, Error  # noqa: E402

WIDTHS = (320, 390, 768, 1280, 1920)
HEIGHT = 900


def url(site, name):
    return "file://" + os.path.abspath(os.path.join(site, name))


def search_word(site):
    """The longest word of the first chapter's title: the search must find it."""
    first = sorted(n for n in os.listdir(site) if re.match(r"ch\d\d\.html$", n))
    if not first:
        return "preface"
    with open(os.path.join(site, first[0]), encoding="utf-8") as f:
        title = re.search(r"<title>(.*?)</title>", f.read(), re.S).group(1).split("·")[0]
    return max(re.findall(r"[A-Za-z]+", html.unescape(title)), key=len).lower()


class Probe:
    def __init__(self, browser):
        self.b = browser
        with open(os.path.join(HERE, "probe.js"), encoding="utf-8") as f:
            self.script = f.read()

    def open(self, address, width, dark=False, print_media=False):
        self.b.open(address, width=width, height=HEIGHT, dark=dark, mobile=width < 600, print_media=print_media)
        self.b.js(self.script)
        return self

    def dark_in_place(self):
        """The open page switched to the system's dark theme without a reload (the CSS and book.js
        follow prefers-color-scheme), after two frames; False if the page does not see it."""
        self.b.call("Emulation.setEmulatedMedia", {"media": "", "features": [
            {"name": "prefers-color-scheme", "value": "dark"}]})
        return self.b.js("new Promise(function (done) { requestAnimationFrame(function () { requestAnimationFrame("
                         "function () { done(matchMedia('(prefers-color-scheme: dark)').matches); }); }); })")

    def call(self, expr):
        return self.b.js("window.BookProbe." + expr)

    def js(self, expr):
        return self.b.js(expr)


def svg_probe_page(site):
    """A page of the site with every SVG figure inline, for BookProbe.svgFigures."""
    img = os.path.join(site, "img")
    parts = []
    for name in sorted(os.listdir(img)) if os.path.isdir(img) else []:
        if name.endswith(".svg"):
            with open(os.path.join(img, name), encoding="utf-8") as f:
                svg = re.sub(r"<\?xml[^>]*\?>", "", f.read())
            parts.append(f'<div class="svg-probe" data-name="{html.escape(name)}" style="margin:10px">{svg}</div>')
    path = os.path.join(site, "_probe-svg.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff">'
                + "".join(parts) + "</body></html>")
    return path


def main(site, out, quick=False):
    global WIDTHS
    dark = not quick
    if quick:
        WIDTHS = (390, 1280)
    os.makedirs(out, exist_ok=True)
    results = []

    def check(name, problems):
        results.append((name, problems))

    names = sorted(n for n in os.listdir(site) if n.endswith(".html") and not n.startswith("_"))
    chapters = [n for n in names if re.match(r"ch\d\d\.html$", n)]
    first = chapters[0] if chapters else "index.html"
    word = search_word(site)
    started = time.time()
    with Browser() as browser:
        p = Probe(browser)

        # Every page at every width, light, then dark in the same tab (no second load); the index
        # is opened again in the dark for the search panel, as the light search has changed it.
        found, panels = {}, {}
        for width in WIDTHS:
            for n in names:
                try:
                    p.open(url(site, n), width)
                    found[(n, width)] = p.call("layout()")
                    if dark and n != "index.html":
                        if not p.dark_in_place():
                            raise Error("the page does not see the dark theme")
                        found[(n, f"{width} dark")] = p.call("layout()")
                    if n == "index.html":
                        panels[(n, width)] = p.call(f"searchPanel({json.dumps(word)})")
                        if dark:
                            p.open(url(site, n), width, dark=True)
                            found[(n, f"{width} dark")] = p.call("layout()")
                            panels[(n, f"{width} dark")] = p.call(f"searchPanel({json.dumps(word)})")
                except Error as e:
                    found.setdefault((n, width), None)
                    found[(n, f"{width} dark")] = None
                    print(f"    {n} at {width}px: {e}", file=sys.stderr)
        check("every page loads in Chromium and runs its scripts, at " + ", ".join(map(str, WIDTHS)) + " px"
              + (", light and dark" if dark else ""),
              [f"{n} at {w}px" for (n, w), r in found.items() if r is None])
        ok = {k: r for k, r in found.items() if r}
        at = lambda w: {n: r for (n, ww), r in ok.items() if ww == w}  # noqa: E731
        phone = at(390)
        total = sum(r["images"] for r in phone.values())
        check(f"all {total} images load and are drawn",
              [f"{n}: {b}" for n, r in phone.items() for b in r["broken"]])
        check("at 1280 px and wider no figure label is smaller than 11 px",
              sorted({f"{n}: {s}" for (n, w), r in ok.items() for s in r["small_labels"]}))
        check("at every width every figure fits its column, scaled, and opens full size on a tap",
              [f"{n} at {w}px: {f}" for (n, w), r in ok.items() for f in r["wide_figures"]])
        check("at every width no code block is wider than its column (long lines wrap)",
              [f"{n} at {w}px: {c}" for (n, w), r in ok.items() for c in r["wide_code"]])
        check("every code block has a copy button, outside the scrolling text and clear of its first line",
              [f"{n}: {r['copy_buttons']} buttons for {r['code_blocks']} blocks" for n, r in phone.items()
               if r["copy_buttons"] != r["code_blocks"]]
              + [f"{n} at {w}px: {c}" for (n, w), r in ok.items() for c in r["copy_bad"]])
        check("every heading has an anchor to itself, with a plain-ASCII id",
              [f"{n}: {h}" for n, r in phone.items() for h in r["no_anchor"]]
              + [f"{n}: id {i!r}" for n, r in phone.items() for i in r["non_ascii_ids"]])
        check("a table wider than its column scrolls and says so",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["tables_bad"]])
        check("every table's box fits its column; at 1280 px and wider every table fits whole; no cell of prose is squeezed",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["tables_fit"]])
        check("nothing of the text lies outside its column, at every width",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["outside_column"]])
        check("no code line breaks inside a name or a number (unless the name alone is longer than the line)",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["code_word_breaks"]])
        check("no number, date or unit breaks across lines",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["number_breaks"]])
        check("the points badge of an exercise stays on one line",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["badges_wrapped"]])
        check("pseudo-code written side by side is shown in columns, not one block that wraps",
              sorted({f"{n}: {t}" for (n, w), r in ok.items() for t in r["side_by_side"]}))
        check("each chapter has an outline of its sections: in the right margin at 1920 px, a closed list below",
              [f"{n} at {w}px: {t}" for (n, w), r in ok.items() for t in r["outline_bad"]])
        check("the search results lie inside the window at every width, no title cut",
              [f"at {w}px: {r}" for (n, w), r in panels.items()
               if not r["shown"] or r["left"] < 0 or r["right"] > r["width"] or r["bottom"] > r["height"] or r["titles_cut"]])
        check("at 390 px the sidebar is closed and the text starts on the first screen",
              [f"{n}: sidebar open" for n, r in phone.items() if r["sidebar_visible"]]
              + [f"{n}: text starts at {r['text_top']} px" for n, r in phone.items() if not 0 <= r["text_top"] < 450])
        check("below 1100 px the closed menu's links take no focus (Tab skips them)",
              [f"{n} at {w}px: {', '.join(r['sidebar_focusable'][:3])}" for (n, w), r in ok.items()
               if isinstance(w, int) and w < 1100 and r["sidebar_focusable"]])
        check("at no width is a page wider than the screen",
              [f"{n} at {w}px" for (n, w), r in ok.items() if r["wider_than_viewport"]])

        # The phone menu: Esc closes it, and so does a tap outside.
        problems = []
        p.open(url(site, first), 390)
        for how in ("Escape", "tap"):
            p.js("document.querySelector('.menu-toggle').click()")
            if not p.js("document.body.classList.contains('sidebar-open')"):
                problems.append("the menu button does not open the menu")
                break
            if how == "Escape":
                browser.key("Escape", keycode=27)
            else:
                browser.tap(380, 600)
            if p.js("document.body.classList.contains('sidebar-open')"):
                problems.append(f"{how} does not close the menu")
        check("on a phone, Esc or a tap outside closes the menu", problems)

        # ← and → turn the page.
        problems = []
        if len(chapters) >= 2:
            for key, code, want in (("ArrowRight", 39, "next"), ("ArrowLeft", 37, "prev")):
                p.open(url(site, chapters[1]), 1280)
                expect = p.js(f"document.querySelector('.prev-next a[rel={want}]').href")
                browser.key(key, keycode=code)
                try:
                    browser.wait_event("Page.loadEventFired", timeout=15)
                except Error:
                    pass
                now = p.js("location.href")
                if now != expect:
                    problems.append(f"{key} on {chapters[1]} leads to {now}, not {expect}")
        check("← and → go to the previous and next chapter", problems)

        # The theme toggle: system, light, dark; remembered.
        problems = []
        p.open(url(site, first), 1280)
        light_bg = p.js("getComputedStyle(document.body).backgroundColor")
        p.js("document.querySelector('.theme-toggle').click()")
        p.js("document.querySelector('.theme-toggle').click()")
        if p.js("document.documentElement.getAttribute('data-theme')") != "dark":
            problems.append("two clicks on the theme toggle do not give the dark theme")
        dark_bg = p.js("getComputedStyle(document.body).backgroundColor")
        if dark_bg == light_bg:
            problems.append(f"the dark theme has the light background {dark_bg}")
        p.open(url(site, "index.html"), 1280)
        if p.js("document.documentElement.getAttribute('data-theme')") != "dark":
            problems.append("the chosen theme is forgotten on the next page")
        p.js("document.querySelector('.theme-toggle').click()")
        if p.js("document.documentElement.getAttribute('data-theme')"):
            problems.append("a third click does not go back to the system's theme")
        check("the theme toggle switches between the system's theme, light and dark, and is remembered", problems)

        # Printing a page of the site: text only, the solutions shown.
        problems = []
        solutions = next((n for n in names if '<details class="solution"' in open(os.path.join(site, n), encoding="utf-8").read()), None)
        if solutions:
            p.open(url(site, solutions), 1280, print_media=True)
            r = p.js("""(function () {
              var bar = document.querySelector('.topbar'), side = document.getElementById('sidebar');
              var pre = document.querySelector('details.solution pre');
              return { bar: bar && bar.getClientRects().length > 0, side: side && side.getClientRects().length > 0,
                       code: pre ? pre.getClientRects().length > 0 : true };
            })()""")
            problems += ["the top bar prints"] if r["bar"] else []
            problems += ["the sidebar prints"] if r["side"] else []
            problems += ["a closed solution prints empty"] if not r["code"] else []
        check("a page of the site prints without its menus, with the solutions shown", problems)

        # A link to a solution opens its box.
        problems = []
        link = None
        for n in chapters:
            m = re.search(r'href="([^"]*#solution-[^"]+)"', open(os.path.join(site, n), encoding="utf-8").read())
            if m:
                link = html.unescape(m.group(1))
                break
        if link:
            r = p.open(url(site, link), 1280).call("landing()")
            if not r["found"] or r["open_after"] is False or not r["visible"]:
                problems.append(f"{link}: the solution stays closed ({r})")
        check("a link to a solution opens it", problems)

        # Search: results land on their section with the query marked; misspellings; grammar.
        problems = []
        p.open(url(site, "index.html"), 1280)
        words = p.call("indexWords()")
        main_hits = p.call(f"search({json.dumps(word)})")
        if len(main_hits["hrefs"]) < 2:
            problems.append(f"'{word}' (the first chapter's title) finds {len(main_hits['hrefs'])} sections")
        queries = [word]
        frequent = words.get("frequent")
        if frequent:
            typo = frequent[:2] + frequent[3:]           # "barrier" -> "barier"
            r = p.call(f"search({json.dumps(typo)})")
            if not r["hrefs"]:
                problems.append(f"the misspelt '{typo}' finds nothing ('{frequent}' is in {words})")
            queries.append(typo)
        if words.get("once"):
            r = p.call(f"search({json.dumps(words['once'])})")
            if not r["count"].startswith("1 section") or "sections" in r["count"]:
                problems.append(f"one hit for '{words['once']}' is counted as {r['count']!r}")
        solution_title = p.js("""(function () {
            var e = (window.BOOK_SEARCH_INDEX || []).filter(function (e) { return /#solution-/.test(e.u); })[0];
            return e ? e.t.replace(/^Exercise [\\w.]+: /, '') : null; })()""")
        if solution_title:
            queries.append(solution_title)
        landed = 0
        for q in queries:
            r = p.open(url(site, "index.html"), 1280).call(f"search({json.dumps(q)})")
            for href in r["hrefs"][:3]:
                res = p.open(url(site, href), 1280).call("landing()")
                landed += 1
                landed_top = res["top"] is not None and (-5 <= res["top"] <= 120 or (res["at_end"] and res["in_view"]))
                if not res["found"] or not res["visible"] or not landed_top:
                    problems.append(f"'{q}' -> {href}: not at its target ({res})")
                elif not res["marks"]:
                    problems.append(f"'{q}' -> {href}: the query is not marked on the page")
        check(f"search finds misspellings, counts in good English, and {landed} results land on their section with the query marked",
              problems)

        # "On this page" marks the section on screen, and the sidebar does too (wide screens).
        problems = []
        longest = max(chapters, key=lambda n: open(os.path.join(site, n), encoding="utf-8").read().count("<h2 "), default=None)
        if longest:
            for width in (1920, 390):
                p.open(url(site, longest), width)
                for k in (1, 2):
                    r = p.call(f"outlineAt({k})")
                    if r and not r["at_end"] and (r["outline"] != r["want"] or (width >= 1100 and r["sidebar"] != r["want"])):
                        problems.append(f"{longest} at {width}px, scrolled to {r['want']}: the outline marks "
                                        f"{r['outline']}, the sidebar {r['sidebar']}")
        check("the outline and the sidebar mark the section on screen", problems)

        # A solution's summary says Show, then Hide.
        problems = []
        if solutions:
            p.open(url(site, solutions), 1280)
            r = p.js("""(function () { var d = document.querySelector('details.solution'); if (!d) return null;
                var s = d.querySelector('summary'), before = s.textContent; s.click();
                return new Promise(function (done) { setTimeout(function () { done([before, s.textContent]); }, 100); }); })()""")
            if r and (not r[0].startswith("Show") or not r[1].startswith("Hide")):
                problems.append(f"the summary reads {r[0]!r}, then {r[1]!r} once open")
        check("a solution's button reads Show, then Hide once open", problems)

        # The search marks can be cleared.
        problems = []
        hits = p.open(url(site, "index.html"), 1280).call(f"search({json.dumps(word)})")["hrefs"]
        if hits:
            p.open(url(site, hits[0]), 1280)
            before = p.js("document.querySelectorAll('mark.search-hit').length")
            p.js("var b = document.querySelector('.clear-hits'); if (b) b.click()")
            after = p.js("[document.querySelectorAll('mark.search-hit').length, location.search]")
            if not before or after[0] or "highlight" in after[1]:
                problems.append(f"{hits[0]}: {before} marks, {after[0]} left after Clear, address {after[1]!r}")
        check("the marks a search result leaves on the page can be cleared", problems)

        # Repository files open as pages (highlighted, with their raw text beside), never as downloads.
        problems, opened = [], 0
        linked = sorted({h for n in names for h in re.findall(r'href="(src/[^"#]+)"', open(os.path.join(site, n), encoding="utf-8").read())})
        for href in [h for h in linked if h.endswith(".html")][:2] + [h for h in linked if not h.endswith(".html")]:
            if not href.endswith(".html"):
                problems.append(f"{href}: a browser downloads it instead of showing it")
                continue
            for width in (390, 1280):
                r = p.open(url(site, href), width).call("layout()")
                opened += 1
                raw = p.js("(function () { var a = document.querySelector('a.raw'); return a ? a.getAttribute('href') : null; })()")
                spans = p.js("document.querySelectorAll('main pre code span.ln').length")
                if not raw or not raw.endswith(".txt") or not spans or r["wide_code"] or r["wider_than_viewport"]:
                    problems.append(f"{href} at {width}px: raw {raw}, {spans} lines, wide code {r['wide_code'][:1]}")
        check(f"the {len(linked)} repository files the site links to open as pages with a raw link ({opened} opened)", problems)

        # SVG figures: text inside the drawing, not over other text, no line through it.
        probe_page = svg_probe_page(site)
        try:
            problems = p.open("file://" + os.path.abspath(probe_page), 1920).call("svgFigures()")
        finally:
            os.remove(probe_page)
        check("no SVG text touches the figure's edge, overlaps other text or has a line drawn through it", problems)

        # Screenshots for a person.
        shots = []
        for n in [first, "index.html"] if not quick else []:
            for w in WIDTHS:
                for theme in ("light", "dark"):
                    shot = os.path.join(out, f"{n[:-5]}-{w}-{theme}.png")
                    p.open(url(site, n), w, dark=theme == "dark")
                    shots.append(browser.screenshot(shot))
        if not quick:
            check(f"{len(shots)} screenshots are not blank ({out})",
                  [s for s in shots if not os.path.exists(s) or os.path.getsize(s) < 15000])

    failed = 0
    for name, problems in results:
        print(("not ok" if problems else "ok") + f" - browser: {name}")
        for pr in problems[:10]:
            print(f"    {pr}")
        failed += bool(problems)
    print(f"book-browser: {len(results) - failed} passed, {failed} failed ({time.time() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(main(args[0] if args else "build/book/site", args[1] if len(args) > 1 else "build/book-test",
                  quick="--quick" in sys.argv))
