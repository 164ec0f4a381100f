#!/usr/bin/env python3
"""check_html.py: check that build/book.html is one self-contained page whose figures, links,
numbering and code are what a reader should see. Usage: check_html.py build/book.html"""

import base64
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

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
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


def main(path):
    page = Page()
    with open(path, encoding="utf-8") as f:
        page.feed(f.read())
    base = os.path.dirname(os.path.abspath(path))
    results = []

    def check(name, problems):
        results.append((name, problems))

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

    files = [h for h in page.hrefs if not re.match(r"^(#|[a-z]+:)", h)]
    check(f"all {len(files)} links to repository files resolve",
          [h for h in files if not os.path.exists(os.path.join(base, urllib.parse.unquote(h)))])

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
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/book.html"))
