#!/usr/bin/env python3
"""check_html.py: check the print edition (build/book.html: one self-contained page, printed to
the PDF) and the site (build/book/site: one page per chapter) as a reader would use them: figures,
links, references, numbering, code width, search index, every page reachable.
Usage: check_html.py build/book.html [build/book/site] [--columns N]"""

import argparse
import base64
import json
import os
import re
import sys
import urllib.parse
import xml.dom.minidom
from html.parser import HTMLParser

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

    VOID = {"img", "br", "hr", "meta", "link", "input", "wbr", "source", "col", "area", "base"}
    NOT_PROSE = {"a", "pre", "code", "h1", "h2", "h3", "h4", "h5", "h6", "title", "script", "style", "nav"}

    def in_prose(self):
        return not any(t in self.NOT_PROSE or "exercise-head" in c for t, c in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in self.VOID:
            self.stack.append((tag, (a.get("class") or "").split()))
        if a.get("id"):
            self.ids.add(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "nav" and a.get("id") == "TOC":
            self.in_toc = True
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
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
        if self.math_depth:
            self.math_text.append(data)


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
        page.feed(f.read())
    base = os.path.dirname(os.path.abspath(path))

    def check(name, problems):
        results.append(("print: " + name, problems))

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

    with open(os.path.join(site, "site.css"), encoding="utf-8") as f:
        css = f.read()
    check("a dark theme follows the system setting", [] if "prefers-color-scheme: dark" in css else ["site.css"])
    check("every page loads book.js (menu, copy buttons, search)",
          [n for n, p in pages.items() if "script book.js" not in p.external])
    check("every Chapter/Figure/Exercise/Appendix/Section reference is a link",
          [f"{n}: {r}" for n, p in pages.items() for r in plain_references(p)])


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
