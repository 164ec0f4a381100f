#!/usr/bin/env python3
"""check_html.py: check the print edition (build/book.html: one self-contained page, printed to
the PDF) and the site (build/book/site: one page per chapter) as a reader would use them: figures,
links, references, numbering, code width, search index, every page reachable, plain-ASCII ids and
an anchor on every heading, cited sources linked and listed, plot captions that state their
data once, no words meant for a screen in print, nothing in an SVG that WeasyPrint mis-draws.
Usage: check_html.py build/book.html [build/book/site] [--columns N]"""

import argparse
import base64
import html
import json
import os
import re
import sys
import urllib.parse
import xml.dom.minidom
from html.parser import HTMLParser

WEB_ONLY = re.compile(r"\b(hover(ing)? over|click(ing)? (on|here)|tap (on|here)|collapsed here|until you open it|"
                      r"scroll (down|up|sideways))\b", re.I)
# A citation left as plain text: an arXiv id or a GitHub issue (cite.lua links both).
UNLINKED_CITATION = re.compile(r"\barXiv[: ]\d{4}\.\d{4,5}|(?<![\w/.])[\w][\w.-]*/[\w.-]+#\d+\b")
# SVG that WeasyPrint (the PDF) draws wrong: markers come out as squares.
WEASYPRINT_SVG = re.compile(r"<marker\b|orient=\"auto-start-reverse\"")
HIDDEN_LINE = re.compile(r"BOOK-BEGIN\(|BOOK-END\(|^\s*// (BEGIN|END) SOLUTION|^\s*//~", re.M)


class Page(HTMLParser):
    """Collects what the checks need in one pass over the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs, self.imgs, self.external = set(), [], [], []
        self.h1s = []            # (classes, id, has_number)
        self.toc_hrefs, self.in_toc = [], False
        self.pre_depth, self.pre_text, self.pres = 0, [], []
        self.math_depth, self.math_text, self.maths = 0, [], []
        self.details_open = 0
        self.h1 = None
        self.stack = []          # open elements: (tag, classes)
        self.prose = []          # text outside links, code, headings and exercise heads
        self.headings = []       # (tag, id, [hrefs of links inside it])
        self.heading = None
        self.captions, self.caption = [], None   # figcaption texts
        self.chapter = ""        # id of the current h1
        self.web_links = {}      # chapter id -> [urls linked in its text]
        self.reference_urls = {} # chapter id -> [urls listed in its References]
        self.in_refs = 0
        self.details_code = []   # text of code inside <details> (the solutions)
        self.details_depth = 0

    VOID = {"img", "br", "hr", "meta", "link", "input", "wbr", "source", "col", "area", "base"}
    NOT_PROSE = {"a", "pre", "code", "h1", "h2", "h3", "h4", "h5", "h6", "title", "script", "style", "nav"}

    def in_prose(self):
        return not any(t in self.NOT_PROSE or "exercise-head" in c or "references" in c for t, c in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in self.VOID:
            self.stack.append((tag, (a.get("class") or "").split()))
        if a.get("id"):
            self.ids.add(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "nav" and a.get("id") == "TOC":
            self.in_toc = True
        if tag in ("h1", "h2", "h3", "h4"):
            self.heading = [tag, a.get("id", ""), []]
            if tag == "h1" and a.get("id"):
                self.chapter = a["id"]
        if tag == "figcaption":
            self.caption = []
        if tag == "div" and "references" in cls:
            self.in_refs = len(self.stack)
        if tag == "details":
            self.details_depth += 1
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
            if self.heading is not None:
                self.heading[2].append(a["href"])
            if re.match(r"https?://", a["href"]) and not self.in_toc:
                key = "reference_urls" if self.in_refs else "web_links"
                getattr(self, key).setdefault(self.chapter, []).append(a["href"])
            if self.in_toc:
                self.toc_hrefs.append(a["href"])
        if tag == "img":
            self.imgs.append((a.get("src", ""), a.get("alt", "")))
        if tag == "script" and a.get("src"):
            self.external.append("script " + a["src"])
        if tag == "link" and a.get("href") and not a["href"].startswith("data:"):
            self.external.append("link " + a["href"])
        if tag == "h1":
            self.h1 = [cls, a.get("id", ""), False]
        if tag == "span" and "header-section-number" in cls and self.h1 is not None:
            self.h1[2] = True
        if tag == "pre":
            self.pre_depth += 1
        if tag == "span" and "math" in cls:
            self.math_depth = 1
        elif tag == "span" and self.math_depth:
            self.math_depth += 1
        if tag == "details" and "open" in a:
            self.details_open += 1

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                break
        if self.in_refs and len(self.stack) < self.in_refs:
            self.in_refs = 0
        if tag in ("h1", "h2", "h3", "h4") and self.heading is not None:
            self.headings.append(tuple(self.heading))
            self.heading = None
        if tag == "figcaption" and self.caption is not None:
            self.captions.append(" ".join("".join(self.caption).split()))
            self.caption = None
        if tag == "details" and self.details_depth:
            self.details_depth -= 1
        if tag == "nav":
            self.in_toc = False
        if tag == "h1" and self.h1 is not None:
            self.h1s.append(tuple(self.h1))
            self.h1 = None
        if tag == "pre" and self.pre_depth:
            self.pre_depth -= 1
            if not self.pre_depth:
                self.pres.append("".join(self.pre_text))
                self.pre_text = []
        if tag == "span" and self.math_depth:
            self.math_depth -= 1
            if not self.math_depth:
                self.maths.append("".join(self.math_text))
                self.math_text = []

    def handle_data(self, data):
        if self.in_prose():
            self.prose.append(data)
        if self.pre_depth:
            self.pre_text.append(data)
            if self.details_depth:
                self.details_code.append(data)
        if self.caption is not None:
            self.caption.append(data)
        if self.math_depth:
            self.math_text.append(data)


def plot_captions_once(captions):
    """Captions that state where their data was measured more than once, or without a date, or
    with a driver that is a bare number (cudaDriverGetVersion's 13000 is CUDA 13.0)."""
    bad = []
    for c in captions:
        csvs = re.findall(r"[\w./-]+\.csv\b", c)
        measured = c.count("Measured on")
        if measured > 1 or (measured and len(csvs) > 1) or len(set(csvs)) < len(csvs):
            bad.append(f"data named twice: {c[:90]}")
        if measured and not re.search(r"Measured on .*\d{4}-\d\d-\d\d", c):
            bad.append(f"no date: {c[:90]}")
        if re.search(r"\bdriver \d{4,}\b(?![.\d])", c):
            bad.append(f"'driver NNNNN' is a CUDA version: {c[:90]}")
    return bad


def ascii_ids(ids):
    return sorted(i for i in ids if not re.fullmatch(r"[\x21-\x7e]+", i))


def references_listed(page):
    """Chapters that link to the web without listing every such source in their References."""
    bad = []
    for chapter, urls in page.web_links.items():
        listed = set(page.reference_urls.get(chapter, []))
        missing = sorted(set(urls) - listed)
        if missing:
            bad.append(f"#{chapter}: {len(missing)} not in its References, e.g. {missing[0]}")
    return bad


def decode_data_uri(src):
    """Return (mime, bytes) of a data: URI, or (None, None) when it is not one."""
    m = re.match(r"data:([^;,]+)(;base64)?,(.*)", src, re.S)
    if not m:
        return None, None
    body = m.group(3)
    data = base64.b64decode(body) if m.group(2) else urllib.parse.unquote(body).encode()
    return m.group(1), data


REFERENCE = re.compile(r"\b(Chapters?|Figures?|Exercises?|Appendix|Appendices|Sections?)\s+(\d+(?:\.\d+)*|[A-Z])\b(?![\w.]*:)",
                       re.I)


def plain_references(page):
    """References like "Figure 1.2" or "chapter 3" left as plain text (not links). A caption's own
    label ("Figure 1.2:") is not a reference."""
    text = " ".join("".join(page.prose).split())
    return [m.group(0) for m in REFERENCE.finditer(text)]


def long_code_lines(pres, columns):
    out = []
    for p in pres:
        for line in p.split("\n"):
            if len(line.expandtabs(4)) > columns:
                out.append(f"{len(line)} > {columns}: {line[:70]}...")
    return out


def check_print(path, columns, results):
    page = Page()
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    page.feed(raw)
    base = os.path.dirname(os.path.abspath(path))

    def check(name, problems):
        results.append(("print: " + name, problems))

    # The last rule for a.term that sets text-decoration wins on paper: no underline on every term.
    styles = " ".join(re.findall(r"<style[^>]*>(.*?)</style>", raw, re.S))
    decorations = re.findall(r"a\.term\s*\{[^}]*?text-decoration:\s*([^;}]*)", styles)
    check("glossary terms print in the link colour, not underlined",
          [f"a.term: text-decoration {decorations[-1].strip()}"] if decorations and "underline" in decorations[-1] else [])

    check("page loads nothing from outside itself", page.external
          + [f"image {src[:60]}" for src, _ in page.imgs if not src.startswith("data:")])

    bad = []
    for src, alt in page.imgs:
        mime, data = decode_data_uri(src)
        if mime is None:
            continue
        if not data:
            bad.append(f"{alt or src[:40]}: empty")
        elif mime == "image/svg+xml":
            try:
                doc = xml.dom.minidom.parseString(data)
                if doc.documentElement.tagName != "svg":
                    bad.append(f"{alt}: not an <svg>")
            except Exception as e:  # a broken SVG shows as a broken image
                bad.append(f"{alt}: SVG does not parse ({e})")
    check(f"all {len(page.imgs)} images are embedded and decode", bad)

    check("every #link points at an id on the page",
          [h for h in page.hrefs if h.startswith("#") and h[1:] not in page.ids])

    check("no link to a local file (a PDF has no repository next to it)",
          [h for h in page.hrefs if not re.match(r"^(#|https?:|mailto:)", h)])

    check("every Chapter/Figure/Exercise/Appendix/Section reference is a link", plain_references(page))

    if columns:
        check(f"no code line is wider than the PDF's {columns} columns", long_code_lines(page.pres, columns))

    chapters = [(c, i) for c, i, _ in page.h1s if "title" not in c]
    check("the contents list every chapter",
          (["no contents (nav#TOC)"] if not page.toc_hrefs else [])
          + [f"#{i}" for c, i in chapters if f"#{i}" not in page.toc_hrefs])

    check("chapters and appendices are numbered",
          [f"#{i}" for c, i, numbered in page.h1s
           if "title" not in c and "unnumbered" not in c and not numbered])

    check(f"no marker, solution or //~ line in {len(page.pres)} code blocks",
          [m.group(0) for p in page.pres for m in [HIDDEN_LINE.search(p)] if m])

    check("all math renders as text, none as raw TeX", [m for m in page.maths if "\\" in m])

    check("solutions are collapsed", [f"{page.details_open} <details open>"] if page.details_open else [])

    check("every id is plain ASCII (no curly quotes in a URL)", ascii_ids(page.ids))

    check("no words meant for a screen (hover, click, collapsed until opened)",
          sorted({m.group(0) for m in WEB_ONLY.finditer(" ".join("".join(page.prose).split()))}))

    check("every plot caption states its data source once, with its date", plot_captions_once(page.captions))

    check("every cited paper and issue is a link (arXiv ids, owner/repo#N)",
          sorted({m.group(0) for m in UNLINKED_CITATION.finditer(" ".join("".join(page.prose).split()))}))

    check("every chapter lists the sources it links to in its References", references_listed(page))

    svgs = [(alt, decode_data_uri(src)[1] or b"") for src, alt in page.imgs if src.startswith("data:image/svg")]
    check("no SVG uses what WeasyPrint draws wrong (<marker>: arrowheads print as squares)",
          [f"{alt[:50]}: {m.group(0)}" for alt, data in svgs
           for m in [WEASYPRINT_SVG.search(data.decode("utf-8", "replace"))] if m])



def site_pages(site):
    """{name: Page} for every .html file of the site."""
    pages = {}
    for name in sorted(os.listdir(site)):
        if name.endswith(".html"):
            page = Page()
            with open(os.path.join(site, name), encoding="utf-8") as f:
                page.feed(f.read())
            pages[name] = page
    return pages


def check_site(site, results):
    def check(name, problems):
        results.append(("site: " + name, problems))

    pages = site_pages(site)
    check("has index.html and a page per chapter", [] if "index.html" in pages and len(pages) >= 2
          else [f"pages: {sorted(pages)}"])
    if "index.html" not in pages:
        return

    broken, files, external = [], [], []
    for name, page in pages.items():
        for h in page.hrefs:
            if h.startswith("file:"):
                broken.append(f"{name}: {h}")
            elif re.match(r"^[a-z][a-z0-9+.-]*:", h):
                external.append(h)
            else:
                target, _, frag = h.partition("#")
                target = urllib.parse.unquote(target) or name
                if target.endswith(".html") and "/" not in target:
                    if target not in pages:
                        broken.append(f"{name}: {h} (no such page)")
                    elif frag and urllib.parse.unquote(frag) not in pages[target].ids:
                        broken.append(f"{name}: {h} (no such id)")
                else:
                    files.append((name, target))
    check("no file:// link, and every link between pages lands on a page and an id", broken)
    check(f"all {len(files)} links to repository files and images resolve",
          [f"{n}: {t}" for n, t in files if not os.path.exists(os.path.join(site, t))])
    check("every image is a file of the site",
          [f"{n}: {src[:60]}" for n, p in pages.items() for src, _ in p.imgs
           if not os.path.exists(os.path.join(site, urllib.parse.unquote(src)))])

    reached, todo = {"index.html"}, ["index.html"]
    while todo:
        for h in pages[todo.pop()].hrefs:
            target = urllib.parse.unquote(h.partition("#")[0])
            if target in pages and target not in reached:
                reached.add(target)
                todo.append(target)
    check(f"all {len(pages)} pages are reachable from index.html", sorted(set(pages) - reached))

    check("every page has the sidebar and the search box",
          [n for n, p in pages.items() if not {"sidebar", "search-input"} <= p.ids])
    order = re.findall(r'<li[^>]*><a href="([^"#]+)"', open(os.path.join(site, "index.html"), encoding="utf-8")
                       .read().split('<nav id="sidebar"', 1)[-1].split("</nav>", 1)[0])
    check("the sidebar lists every page, and each page links to the next and the previous",
          sorted(set(pages) - set(order))
          + [f"{a} does not link to {b} as next" for a, b in zip(order, order[1:])
             if f'rel="next" href="{b}"' not in open(os.path.join(site, a), encoding="utf-8").read()]
          + [f"{b} does not link to {a} as previous" for a, b in zip(order, order[1:])
             if f'rel="prev" href="{a}"' not in open(os.path.join(site, b), encoding="utf-8").read()])

    problems = []
    index = []
    try:
        with open(os.path.join(site, "search-index.js"), encoding="utf-8") as f:
            body = f.read()
        index = json.loads(body[body.index("=") + 1:].strip().rstrip(";"))
        covered = {e["u"].partition("#")[0] for e in index}
        problems = [f"no entry for {n}" for n in pages if n not in covered]
        problems += [f"entry without text or link: {e}" for e in index if not e.get("u") or "x" not in e][:5]
    except (OSError, ValueError) as e:
        problems = [f"search-index.js: {e}"]
    check("the search index covers every page", problems)

    check("every id is plain ASCII (no curly quotes in a URL)",
          [f"{n}: {i}" for n, p in pages.items() for i in ascii_ids(p.ids)])
    check("every heading has an anchor link to itself",
          [f"{n}: <{tag} id={ident!r}>" for n, p in pages.items() for tag, ident, links in p.headings
           if tag != "h1" or "title" not in ident
           if ident and f"#{ident}" not in links] +
          [f"{n}: <{tag}> without an id" for n, p in pages.items() for tag, ident, _ in p.headings
           if not ident and tag in ("h2", "h3")])
    check("no link leaves the site folder (it works when copied or hosted)",
          [f"{n}: {h}" for n, p in pages.items() for h in p.hrefs if h.startswith(("../", "/", "file:"))])
    check("every page links to the PDF",
          [n for n, p in pages.items() if "book.pdf" not in p.hrefs])
    # A web server sends .cu as application/cu-seeme, .md and .csv as downloads: a repository
    # file the text links to is a page of the site (src/PATH.html) with its raw text (.txt).
    shown = (".html", ".txt", ".pdf", ".svg", ".png", ".jpg", ".css", ".js")
    check("every repository file the site links to opens as a page (no .cu, .md or .csv to download)",
          sorted({f"{n}: {t}" for n, t in files if not t.lower().endswith(shown)}))
    raw_missing = []
    for n, t in files:
        if t.startswith("src/") and t.endswith(".html"):
            path = os.path.join(site, t)
            body = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            raw = re.search(r'<a class="tool raw" href="([^"]+)"', body)
            if not raw or not raw.group(1).endswith(".txt") or not os.path.exists(os.path.join(os.path.dirname(path), raw.group(1))) \
                    or 'class="sourceCode' not in body and not t.endswith((".csv.html", ".txt.html")):
                raw_missing.append(t)
    check("each repository file's page shows it highlighted, with a raw link to its text", sorted(set(raw_missing)))
    # Plots (gnuplot SVGs): at most 5 series in a panel. A series is a group gnuplot_plot_N<panel>
    # that draws data: its lines and markers span more than a key entry's sample does.
    crowded = []
    img = os.path.join(site, "img")
    for name in sorted(os.listdir(img)) if os.path.isdir(img) else []:
        if not name.endswith(".svg"):
            continue
        with open(os.path.join(img, name), encoding="utf-8") as f:
            svg = f.read()
        panels = {}
        for chunk in svg.split('<g id="gnuplot_plot_')[1:]:
            panel = re.match(r"\d+([a-z]*)", chunk).group(1)
            depth, end = 1, len(chunk)
            for m in re.finditer(r"<g\b|</g>", chunk):
                depth += 1 if m.group(0) == "<g" else -1
                if depth == 0:
                    end = m.start()
                    break
            body = re.sub(r"<defs>.*?</defs>", "", chunk[:end], flags=re.S)   # fill patterns: their own coordinates
            xy = [(float(x), float(y)) for d in re.findall(r"\bd=['\"]([^'\"]*)", body)
                  for x, y in re.findall(r"[ML]\s*(-?[\d.]+),(-?[\d.]+)", d)]
            xy += [(float(x), float(y)) for x, y in re.findall(r"translate\((-?[\d.]+),(-?[\d.]+)\) scale", body)]
            if xy and (max(x for x, _ in xy) - min(x for x, _ in xy) > 60 or max(y for _, y in xy) - min(y for _, y in xy) > 40):
                panels[panel] = panels.get(panel, 0) + 1
        crowded += [f"{name}: panel {k or 'a'} has {v} series" for k, v in panels.items() if v > 5]
    check("every plot shows at most 5 series in a panel", crowded)
    # Identifiers in an exercise's task are in code font, also when the task has a backtick.
    plain_ids = []
    for n in pages:
        with open(os.path.join(site, n), encoding="utf-8") as f:
            raw = f.read()
        for box in re.findall(r'<div id="[^"]+" class="exercise">(.*?)<div class="exercise-run">', raw, re.S):
            text = re.sub(r"<code\b.*?</code>|<a\b[^>]*>|<[^>]+>", " ", box, flags=re.S)
            plain_ids += [f"{n}: {w}" for w in re.findall(r"(?<![\w/.-])[A-Za-z]\w*_\w+(?:\(\))?", html.unescape(text))]
    check("exercise boxes set identifiers in code font (task text with a backtick too)", plain_ids)

    problems = []
    try:
        index_entries = index
        urls = {e["u"] for e in index_entries}
        for n, p in pages.items():
            for tag, ident, _ in p.headings:
                if ident.startswith("solution-") and f"{n}#{ident}" not in urls:
                    problems.append(f"no entry for {n}#{ident}")
            code = [l.strip() for l in "".join(p.details_code).split("\n") if len(l.strip()) >= 30]
            for line in code[:400]:
                hit = next((e["u"] for e in index_entries if e["u"].partition("#")[0] == n and line in e["x"]), None)
                if hit:
                    problems.append(f"{hit} shows solution code: {line[:50]}")
                    break
    except NameError:
        problems = ["no search index"]
    check("search results for a solution land on it (#solution-…) and never show its code", problems)

    with open(os.path.join(site, "site.css"), encoding="utf-8") as f:
        css = f.read()
    check("a dark theme follows the system setting", [] if "prefers-color-scheme: dark" in css else ["site.css"])
    check("every page loads book.js (menu, copy buttons, search)",
          [n for n, p in pages.items() if "script book.js" not in p.external])
    check("every Chapter/Figure/Exercise/Appendix/Section reference is a link",
          [f"{n}: {r}" for n, p in pages.items() for r in plain_references(p)])
    check("every plot caption states its data source once, with its date",
          [f"{n}: {b}" for n, p in pages.items() for b in plot_captions_once(p.captions)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("book_html", nargs="?", default="build/book.html")
    ap.add_argument("site", nargs="?")
    ap.add_argument("--columns", type=int, default=0)
    args = ap.parse_args()
    results = []
    check_print(args.book_html, args.columns, results)
    if args.site:
        check_site(args.site, results)
    failed = 0
    for name, problems in results:
        if problems:
            failed += 1
            print(f"not ok - html: {name}")
            for p in problems[:10]:
                print(f"    {p}")
        else:
            print(f"ok - html: {name}")
    print(f"book-html: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
