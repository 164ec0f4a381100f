#!/usr/bin/env python3
"""check_pdf.py: check build/book.pdf as a reader would see it: no blank page, a contents page
with page numbers, numbered pages, nothing running off the page, every figure drawn, no link
to a local file, title, author, version and date.
Uses poppler-utils (pdfinfo, pdftoppm, pdftotext). Usage: check_pdf.py book.pdf book.html"""

import base64
import html
import os
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom

MM = 72 / 25.4              # PDF points per millimetre
DPI = 24                    # enough to see ink, fast to render
MARGIN_TOP_MM, MARGIN_BOTTOM_MM = 20, 22   # print.css @page margins: headers live there
SLACK_PT = 3                # text may not reach further than this into the side margins


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True).stdout


def read_pgm(path):
    """Return (width, height, bytes) of a binary 8-bit PGM file."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():]


def pages_with_body_words(pdf):
    """Page numbers that have at least one word between the top and bottom margins."""
    out = run("pdftotext", "-bbox", pdf, "-").decode("utf-8", "replace")
    found = set()
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", out, re.S), 1):
        height = float(re.search(r'height="([\d.]+)"', page).group(1))
        for y0, y1 in re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">', page):
            if float(y0) >= MARGIN_TOP_MM * MM - SLACK_PT and float(y1) <= height - MARGIN_BOTTOM_MM * MM + SLACK_PT:
                found.add(n)
                break
    return found


def blank_pages(pdf):
    """Pages whose body (inside the top and bottom margins) has no ink and no
    words (a few lines of small code leave too little ink at this resolution)."""
    texty = pages_with_body_words(pdf)
    blank = []
    with tempfile.TemporaryDirectory() as tmp:
        run("pdftoppm", "-r", str(DPI), "-gray", pdf, os.path.join(tmp, "p"))
        for name in sorted(os.listdir(tmp)):
            w, h, px = read_pgm(os.path.join(tmp, name))
            top = int(MARGIN_TOP_MM * MM * DPI / 72)
            bottom = h - int(MARGIN_BOTTOM_MM * MM * DPI / 72)
            ink = sum(1 for y in range(top, bottom) for v in px[y * w:(y + 1) * w] if v < 160)
            page = int(re.search(r"(\d+)", name).group(1))
            if ink < 15 and page not in texty:
                blank.append(page)
    return blank


def words_off_page(pdf):
    """Words whose box reaches past the side margins (code that runs off the page)."""
    out = run("pdftotext", "-bbox", pdf, "-").decode("utf-8", "replace")
    bad = []
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", out, re.S), 1):
        width = float(re.search(r'width="([\d.]+)"', page).group(1))
        for x0, x1, word in re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', page):
            if float(x1) > width - 18 * MM + SLACK_PT or float(x0) < 18 * MM - SLACK_PT:
                bad.append(f"page {n}: {html.unescape(word)[:40]!r} at x={float(x0):.0f}..{float(x1):.0f} of {width:.0f}")
    return bad


def svg_labels(book_html):
    """For each SVG image embedded in the HTML: (alt text, list of its <text> labels)."""
    with open(book_html, encoding="utf-8") as f:
        page = f.read()
    figures = []
    for m in re.finditer(r'<img src="data:image/svg\+xml;base64,([^"]+)"[^>]*?alt="([^"]*)"', page):
        doc = xml.dom.minidom.parseString(base64.b64decode(m.group(1)))
        labels = []
        for t in doc.getElementsByTagName("text"):
            s = " ".join("".join(n.data for n in _texts(t)).split())
            if len(s) >= 3:
                labels.append(s)
        figures.append((html.unescape(m.group(2)), labels))
    return figures


def _texts(node):
    for c in node.childNodes:
        if c.nodeType == c.TEXT_NODE:
            yield c
        else:
            yield from _texts(c)


def main(pdf, book_html):
    results = []
    pages = int(re.search(rb"Pages:\s+(\d+)", run("pdfinfo", pdf)).group(1))
    text = run("pdftotext", "-layout", pdf, "-").decode("utf-8", "replace")
    page_texts = text.split("\f")[:pages]
    flat = " ".join(text.split())

    results.append((f"none of the {pages} pages is blank", [f"page {p}" for p in blank_pages(pdf)]))

    toc = next((i for i, t in enumerate(page_texts[:6]) if re.search(r"^\s*Contents\s*$", t, re.M)), None)
    toc_lines = re.findall(r"\S.*?\.{3,}\s*(\d+)\s*$", page_texts[toc], re.M) if toc is not None else []
    results.append(("a contents page lists sections with page numbers",
                    ["no page titled Contents"] if toc is None else
                    ([] if len(toc_lines) >= 2 else ["no 'title .... page' lines on it"])))
    # The contents may run over several pages: the Contents page and the pages after it that still
    # list 'title .... page' lines.
    toc_text = ""
    if toc is not None:
        toc_text = page_texts[toc]
        for t in page_texts[toc + 1:toc + 6]:
            if not re.search(r"\.{3,}\s*\d+\s*$", t, re.M):
                break
            toc_text += t

    with open(book_html, encoding="utf-8") as f:
        chapters = re.findall(r'<h1[^>]*>\s*<span\s+class="header-section-number">([^<]+)</span>\s*(.*?)</h1>', f.read(), re.S)
    results.append((f"{len(chapters)} numbered chapters appear in the contents",
                    [f"{n} {t}" for n, t in chapters
                     if toc is None or not re.search(re.escape(n) + r"\s+" + re.escape(" ".join(
                         html.unescape(re.sub(r"<[^>]+>", "", t)).split()[:2])), toc_text)]))

    unnumbered = [str(i) for i, t in enumerate(page_texts, 1)
                  if i > 1 and (not t.strip() or t.strip().split("\n")[-1].strip() != str(i))]
    results.append(("every page after the title page shows its number", [f"page {p}" for p in unnumbered]))

    results.append(("no text runs off the page (code included)", words_off_page(pdf)))

    with open(pdf, "rb") as f:
        raw = f.read()
    uris = [u.decode("latin-1") for u in re.findall(rb"/URI\s*\(([^)]*)\)", raw)]
    results.append(("no link points at a local file (file://)", sorted({u for u in uris if not re.match(r"https?:|mailto:", u)})))

    info = run("pdfinfo", pdf).decode("utf-8", "replace")
    meta = {k: v.strip() for k, v in re.findall(r"^(\w+):\s*(.*)$", info, re.M)}
    results.append(("the PDF names its title, author and date",
                    [k for k in ("Title", "Author", "CreationDate") if not meta.get(k)]))
    results.append(("the title page gives the version and the date",
                    [] if re.search(r"Version \S+ · \d{4}-\d\d-\d\d", page_texts[0]) else ["no 'Version X · YYYY-MM-DD' on page 1"]))

    for alt, labels in svg_labels(book_html):
        found = [l for l in labels if l in flat]
        ok = not labels or len(found) * 2 >= len(labels)
        results.append((f"figure drawn in the PDF: {alt[:60]}",
                        [] if ok else [f"only {len(found)} of {len(labels)} labels found, e.g. missing {next(l for l in labels if l not in found)!r}"]))

    failed = 0
    for name, problems in results:
        print(("not ok" if problems else "ok") + f" - pdf: {name}")
        for p in problems[:10]:
            print(f"    {p}")
        failed += bool(problems)
    print(f"book-pdf: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/book.pdf",
                  sys.argv[2] if len(sys.argv) > 2 else "build/book.html"))
