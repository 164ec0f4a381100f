#!/usr/bin/env python3
"""check_pdf.py: check build/book.pdf as a reader would see it: no blank page, a contents page
with page numbers, numbered pages, nothing running off the page, every figure drawn with labels
large enough to read, every link visible as a link, no words meant for a screen ("hover over the
link"), no link to a local file, title, author, version and date.
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
DPI = 50                    # enough to see ink and the colour of a linked word, fast to render
MIN_LABEL_PT = 6.4          # print.lua sizes figures for 6.5 pt labels; 4.5 pt is unreadable
EM_HEIGHT = 1.164           # a DejaVu word's box (pdftotext -bbox) is this many times its size
WEB_ONLY = re.compile(r"\b(hover(ing)? over|click(ing)? (on|here)|tap (on|here)|collapsed here|until you open it|"
                      r"scroll (down|up|sideways))\b", re.I)
MARGIN_TOP_MM, MARGIN_BOTTOM_MM = 20, 22   # print.css @page margins: headers live there
SLACK_PT = 3                # text may not reach further than this into the side margins


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True).stdout


def render(pdf):
    """Every page as (width, height, RGB bytes) at DPI."""
    pages = []
    with tempfile.TemporaryDirectory() as tmp:
        run("pdftoppm", "-r", str(DPI), pdf, os.path.join(tmp, "p"))
        for name in sorted(os.listdir(tmp), key=lambda n: int(re.search(r"(\d+)", n).group(1))):
            with open(os.path.join(tmp, name), "rb") as f:
                data = f.read()
            m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
            pages.append((int(m.group(1)), int(m.group(2)), data[m.end():]))
    return pages


def bbox_pages(pdf):
    """pdftotext -bbox: per page (width, height, [(x0, y0, x1, y1, word)])."""
    out = run("pdftotext", "-bbox", pdf, "-").decode("utf-8", "replace")
    pages = []
    for page in re.findall(r"<page (.*?)</page>", out, re.S):
        w = float(re.search(r'width="([\d.]+)"', page).group(1))
        h = float(re.search(r'height="([\d.]+)"', page).group(1))
        words = [(float(a), float(b), float(c), float(d), html.unescape(t)) for a, b, c, d, t in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', page)]
        pages.append((w, h, words))
    return pages


def blank_pages(images, boxes):
    """Pages whose body (inside the top and bottom margins) has no ink and no words (a few lines
    of small code leave too little ink at this resolution)."""
    blank = []
    for n, ((w, h, px), (_, height, words)) in enumerate(zip(images, boxes), 1):
        texty = any(y0 >= MARGIN_TOP_MM * MM - SLACK_PT and y1 <= height - MARGIN_BOTTOM_MM * MM + SLACK_PT
                    for _, y0, _, y1, _ in words)
        top = int(MARGIN_TOP_MM * MM * DPI / 72)
        bottom = h - int(MARGIN_BOTTOM_MM * MM * DPI / 72)
        ink = 0
        for y in range(top, bottom):
            row = px[3 * y * w:3 * (y + 1) * w]
            ink += sum(1 for k in range(0, len(row), 3) if row[k] + row[k + 1] + row[k + 2] < 480)
            if ink >= 15:
                break
        if ink < 15 and not texty:
            blank.append(n)
    return blank


MAX_HOLE = 0.25            # a page inside a chapter may leave at most this much of its body empty
CHAPTER_TITLE_PT = 20       # a word this tall (pdftotext box) is a chapter's title: a chapter starts


def caption_at(words, lo, hi):
    """Whether a figure caption ("Figure 3.1:") starts between heights lo and hi of a page."""
    return any(t == "Figure" and lo <= y0 <= hi and k + 1 < len(words) and re.match(r"\d+\.\d+:$", words[k + 1][4])
               for k, (_, y0, _, _, t) in enumerate(words))


def holes(images, boxes, first):
    """Pages from `first` on whose body is more than MAX_HOLE empty at its foot, unless the next
    page starts a chapter (or there is none), or the page ends with a figure and the next one
    starts with another (two figures that do not fit one page, with no text between them to fill
    the gap): [(page, empty fraction)]."""
    out = []
    for n in range(first, len(images)):
        w, h, px = images[n - 1]
        nxt = boxes[n][2] if n < len(boxes) else []
        if any(y1 - y0 >= CHAPTER_TITLE_PT for _, y0, _, y1, _ in nxt):
            continue
        words_here = boxes[n - 1][2]
        bottom_text = max((y1 for _, _, _, y1, _ in words_here if y1 <= boxes[n - 1][1] - MARGIN_BOTTOM_MM * MM), default=0)
        if caption_at(words_here, bottom_text - 40, bottom_text) and nxt and \
                caption_at(nxt, 0, MARGIN_TOP_MM * MM + 0.75 * (boxes[n][1] - (MARGIN_TOP_MM + MARGIN_BOTTOM_MM) * MM)):
            continue
        top = int(MARGIN_TOP_MM * MM * DPI / 72)
        foot = h - int(MARGIN_BOTTOM_MM * MM * DPI / 72)
        low = top
        for y in range(foot - 1, top, -1):
            row = px[3 * y * w:3 * (y + 1) * w]
            if sum(1 for k in range(0, len(row), 3) if row[k] + row[k + 1] + row[k + 2] < 600) >= 2:
                low = y
                break
        words = [y1 for _, y0, _, y1, _ in boxes[n - 1][2] if y1 <= boxes[n - 1][1] - MARGIN_BOTTOM_MM * MM]
        low = max(low, int(max(words, default=0) * DPI / 72))
        empty = (foot - low) / (foot - top)
        if empty > MAX_HOLE:
            out.append((n, empty))
    return out


def pdf_objects(raw):
    """{object number: body} of an uncompressed PDF (WeasyPrint's objects are; streams are not read)."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(<<.*?>>)\s*(?:endobj|stream)", raw, re.S)}


def link_rects(raw):
    """Per page (in order), the rectangles of its link annotations: [(x0, y0, x1, y1, target)]."""
    objs = pdf_objects(raw)
    pages_obj = next((b for b in objs.values() if re.search(rb"/Type\s*/Pages\b", b)), b"")
    kids = [int(k) for k in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids\s*\[(.*?)\]", pages_obj, re.S).group(1))] \
        if pages_obj else []
    out = []
    for k in kids:
        rects = []
        annots = re.search(rb"/Annots\s*\[(.*?)\]", objs.get(k, b""), re.S)
        for ref in re.findall(rb"(\d+) 0 R", annots.group(1)) if annots else []:
            a = objs.get(int(ref), b"")
            r = re.search(rb"/Rect\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", a)
            if r and b"/Link" in a:
                x0, y0, x1, y1 = (float(v) for v in r.groups())
                target = re.search(rb"/Dest\s*\((.*?)\)|/URI\s*\((.*?)\)", a)
                t = (target.group(1) or target.group(2) or b"").decode("latin-1") if target else ""
                rects.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), t))
        out.append(rects)
    return out


def invisible_links(images, rects, skip_pages, boxes):
    """Links whose words look like the text around them: no pixel of the link colour in their box
    (a glossary term printed in black, without underline, is not seen as a link)."""
    bad = []
    for n, ((w, h, px), page_rects) in enumerate(zip(images, rects), 1):
        if n in skip_pages:
            continue
        scale = DPI / 72
        for x0, y0, x1, y1, target in page_rects:
            if x1 - x0 < 2:     # Pandoc's empty anchor on each line of highlighted code
                continue
            # PDF y grows upwards; the image's downwards.
            c0, c1 = int(x0 * scale), min(w, int(x1 * scale) + 1)
            r0, r1 = max(0, int(h - y1 * scale)), min(h, int(h - y0 * scale) + 1)
            blue = 0
            for y in range(r0, r1):
                for x in range(c0, c1):
                    i = 3 * (y * w + x)
                    if px[i + 2] - px[i] > 30:
                        blue += 1
            if blue < 2:
                words = [t for a, b, c, d, t in boxes[n - 1][2]
                         if a >= x0 - 1 and c <= x1 + 1 and b >= boxes[n - 1][1] - y1 - 1 and d <= boxes[n - 1][1] - y0 + 1]
                bad.append(f"page {n}: link to {target[:40]} on {' '.join(words)[:50]!r} looks like plain text")
    return bad


def small_figure_labels(boxes, figures):
    """For each figure (alt text, labels), the smallest of its label words on the page of its
    caption, in pt, when smaller than MIN_LABEL_PT."""
    bad = []
    for alt, labels in figures:
        m = re.match(r"(Figure [\w.]+:)", alt)
        if not m:
            continue
        label_words = {w for l in labels for w in l.split() if len(w) >= 2}
        for n, (_, _, words) in enumerate(boxes, 1):
            caption = next((k for k, (_, _, _, _, t) in enumerate(words) if t == m.group(1).split()[1]
                            and k > 0 and words[k - 1][4] == "Figure"), None)
            if caption is None:
                continue
            cap_y = words[caption][1]
            sizes = [((y1 - y0) / EM_HEIGHT, t) for x0, y0, x1, y1, t in words if y1 <= cap_y and t in label_words]
            if sizes:
                pt, word = min(sizes)
                if pt < MIN_LABEL_PT:
                    bad.append(f"{m.group(1)} page {n}: {word!r} prints at {pt:.1f} pt (at least {MIN_LABEL_PT})")
            break
    return bad


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

    with open(pdf, "rb") as f:
        raw = f.read()
    images, boxes = render(pdf), bbox_pages(pdf)
    results.append((f"none of the {pages} pages is blank", [f"page {p}" for p in blank_pages(images, boxes)]))

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

    uris = [u.decode("latin-1") for u in re.findall(rb"/URI\s*\(([^)]*)\)", raw)]
    results.append(("no link points at a local file (file://)", sorted({u for u in uris if not re.match(r"https?:|mailto:", u)})))

    info = run("pdfinfo", pdf).decode("utf-8", "replace")
    meta = {k: v.strip() for k, v in re.findall(r"^(\w+):\s*(.*)$", info, re.M)}
    results.append(("the PDF names its title, author and date",
                    [k for k in ("Title", "Author", "CreationDate") if not meta.get(k)]))
    results.append(("the title page gives the version and the date",
                    [] if re.search(r"Version \S+ · \d{4}-\d\d-\d\d", page_texts[0]) else ["no 'Version X · YYYY-MM-DD' on page 1"]))

    contents_end = (toc or 0) + 1 + len([t for t in page_texts[(toc or 0) + 1:(toc or 0) + 6]
                                          if re.search(r"\.{3,}\s*\d+\s*$", t, re.M)])
    results.append((f"no page inside a chapter is more than {MAX_HOLE:.0%} empty (figures float, tables and boxes break)",
                    [f"page {n}: {e:.0%} empty" for n, e in holes(images, boxes, contents_end + 1)]))

    figures = svg_labels(book_html)
    results.append((f"the smallest label of every figure prints at {MIN_LABEL_PT} pt or more",
                    small_figure_labels(boxes, figures)))
    contents_pages = set(range(1, (toc or 0) + 2 + len([t for t in page_texts[(toc or 0) + 1:(toc or 0) + 6]
                                                         if re.search(r"\.{3,}\s*\d+\s*$", t, re.M)])))
    results.append(("every link is visibly a link (link colour), glossary terms included",
                    invisible_links(images, link_rects(raw), contents_pages, boxes)))
    results.append(("no words meant for a screen (hover, click, collapsed until opened)",
                    sorted({m.group(0) for m in WEB_ONLY.finditer(flat)})))

    for alt, labels in figures:
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
