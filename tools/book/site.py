#!/usr/bin/env python3
"""site.py: split the book (one HTML fragment written by Pandoc) into the multi-page site:
index.html (title page, preface, contents) and one page per chapter and appendix, with a
sidebar, previous/next links, anchors on headings, a search index, code blocks that wrap with a
continuation mark, figures that open full size, and links to the PDF and to each page's source.
The fragment starts with the title page (<header class="title-page">, fragment.html).
Links to repository files (exercise skeletons, tests, plot data) become pages of the site
(src/PATH.html, highlighted, with the raw text src/PATH.txt beside), so that it works wherever it
is copied or hosted and no browser downloads a .cu; --source-url gives each page a link to its
Markdown source there.
Usage: site.py BOOK_FRAGMENT.html SITE_DIR --version V --date D --highlight-css FILE
               [--repo-root DIR] [--pdf build/book.pdf] [--source-url URL] [--pandoc PANDOC]"""

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
H1 = re.compile(r"<h1\b[^>]*>.*?</h1>", re.S)
ID_ATTR = re.compile(r'\bid="([^"]+)"')
TAG = re.compile(r"<[^>]+>")
TAB = 4                 # site.css: tab-size
PROSE_CELL = 60         # characters from which a table cell is prose: site.css gives it a measure
HANG_MAX = 24           # continuation lines of a wrapped code line start at most this far in

BLOCK_TAG = re.compile(r"</?(?:p|div|li|h\d|pre|tr|td|th|br|dd|dt|dl|figure|figcaption|table|ul|ol|"
                       r"blockquote|details|summary|nav|header|section|span class=\"ln\")\b[^>]*>")


def text_of(fragment):
    """Visible text of an HTML fragment, whitespace collapsed (inline tags join their words)."""
    return " ".join(html.unescape(TAG.sub("", BLOCK_TAG.sub(" ", fragment))).split())


def heading_parts(h):
    """(id, number, title text, classes) of an <hN> element."""
    m = re.match(r'<h\d\b([^>]*)>(.*)</h\d>', h, re.S)
    attrs, inner = m.group(1), m.group(2)
    ident = (ID_ATTR.search(attrs) or [None, ""])[1]
    classes = (re.search(r'class="([^"]*)"', attrs) or [None, ""])[1].split()
    inner = re.sub(r'<a class="anchor"[^>]*>.*?</a>', "", inner)
    num = re.search(r'<span\s+class="header-section-number">([^<]*)</span>', inner)
    title = text_of(re.sub(r'<span\s+class="header-section-number">[^<]*</span>', "", inner))
    return ident, num.group(1) if num else "", title, classes


class Page:
    def __init__(self, name, body):
        self.name, self.body = name, body
        first = H1.search(body)
        self.id, self.number, self.title, _ = heading_parts(first.group(0)) if first else ("", "", "", [])
        src = re.search(r'\bdata-source="([^"]+)"', first.group(0)) if first else None
        self.source = html.unescape(src.group(1)) if src else ""
        self.ids = set(ID_ATTR.findall(body))
        self.sections = [heading_parts(h) for h in re.findall(r"<h2\b[^>]*>.*?</h2>", body, re.S)]
        self.outline = [(h[2], heading_parts(h)) for h in re.findall(r"<h[23]\b[^>]*>.*?</h[23]>", body, re.S)]

    def label(self):
        """'3 The lifetime trap' / 'A Solutions' / the title alone."""
        return f"{self.number} {self.title}".strip()


def split_pages(fragment):
    """The front part (until the first numbered h1) is index.html; each numbered h1 starts a page."""
    starts = [m.start() for m in H1.finditer(fragment) if "header-section-number" in m.group(0)]
    if not starts:
        return [Page("index.html", fragment)]
    pages = [Page("index.html", fragment[:starts[0]])]
    for a, b in zip(starts, starts[1:] + [len(fragment)]):
        page = Page("", fragment[a:b])
        page.name = page.id + ".html"
        pages.append(page)
    return pages


def headings_own_ids(fragment):
    """Pandoc writes a div that starts with a heading as <section id=X><hN>: the id moves to the
    heading, which is what a link, an anchor and a search result point at."""
    return re.sub(r'<section id="([^"]+)"([^>]*)>(\s*)<h([1-6])\b(?![^>]*\bid=)',
                  r'<section\2>\3<h\4 id="\1"', fragment)


# The page of one repository file (Sources.write_pages): str.format slots, so CSS braces doubled.
SOURCE_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1.0" />
  <meta name="color-scheme" content="light dark" />
  <title>{title}</title>
  <script>try {{ var t = localStorage.getItem("book-theme"); if (t === "light" || t === "dark") document.documentElement.setAttribute("data-theme", t); }} catch (e) {{}}</script>
  <link rel="stylesheet" href="{up}highlight.css" />
  <link rel="stylesheet" href="{up}book.css" />
  <link rel="stylesheet" href="{up}site.css" />
</head>
<body class="site source-page">
<header class="topbar">
  <a class="book-name" href="{up}index.html">&#8592; The book</a>
  <nav class="tools" aria-label="This file"><a class="tool raw" href="{name}.txt" title="The file as plain text">raw</a></nav>
</header>
<main id="content">
<h1 class="source-title"><code>{title}</code></h1>
{body}
</main>
</body>
</html>
"""

LANGUAGES = {".cu": "c", ".cuh": "c", ".c": "c", ".h": "c", ".py": "python", ".sh": "bash", ".md": "markdown",
             ".ini": "ini", ".gp": "gnuplot", ".json": "json", ".mk": "makefile", ".lua": "lua"}


class Sources:
    """Repository files the site links to. Each becomes a page of its own, src/PATH.html (the
    file highlighted, with a link to its raw text src/PATH.txt), so that a browser shows it
    instead of downloading it (web servers send .cu as application/cu-seeme). `url`, when
    given, is where each page's Markdown source is linked (the top bar's Source)."""

    def __init__(self, site, repo_root, url):
        self.site, self.root, self.url, self.copied = site, repo_root, url, []

    def href(self, path):
        """The href for repository file `path` from a page of the site, or None if it is missing."""
        path = os.path.normpath(path).replace(os.sep, "/")
        if path.startswith("../") or not os.path.isfile(os.path.join(self.root, path)):
            return None
        if path not in self.copied:
            dest = os.path.join(self.site, "src", path + ".txt")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(self.root, path), dest)
            self.copied.append(path)
        return "src/" + path + ".html"

    def page_source(self, path):
        """The link to a page's Markdown source under --source-url, or None when it is unset."""
        return self.url + path if self.url and os.path.isfile(os.path.join(self.root, path)) else None

    def write_pages(self, template, pandoc):
        """src/PATH.html for every file linked: all highlighted by one Pandoc run."""
        if not self.copied:
            return
        md = []
        for k, path in enumerate(self.copied):
            with open(os.path.join(self.root, path), encoding="utf-8", errors="replace") as f:
                text = f.read()
            fence = "~" * max(12, max((len(m) + 1 for m in re.findall(r"~+", text)), default=0))
            lang = LANGUAGES.get(os.path.splitext(path)[1], "")
            md.append(f'::: {{#srcfile-{k}}}\n{fence} {{.{lang or "text"}}}\n{text.rstrip()}\n{fence}\n:::\n')
        out = subprocess.run([pandoc, "-f", "markdown", "-t", "html5", "--highlight-style=tango", "--wrap=none"],
                             input="\n".join(md), capture_output=True, text=True, check=True).stdout
        parts = re.split(r'<div id="srcfile-(\d+)">', out)
        for k, body in zip(parts[1::2], parts[2::2]):
            path = self.copied[int(k)]
            body = body.rsplit("</div>", 1)[0]
            page = Page("", body)
            wrap_code([page])
            up = "../" * (path.count("/") + 1)
            name = os.path.basename(path)
            with open(os.path.join(self.site, "src", path + ".html"), "w", encoding="utf-8") as f:
                f.write(template.format(title=html.escape(path), up=up, name=html.escape(name, quote=True),
                                        body=page.body))


def rewrite_links(pages, sources):
    """#id links to another page become page.html#id; links to repository files (written from
    the repository root) go to the site's copy of the file."""
    where = {}
    for p in pages:
        for i in p.ids:
            where.setdefault(i, p)
    for p in pages:
        def fix(m):
            href = html.unescape(m.group(1))
            if href.startswith("#"):
                target = where.get(href[1:])
                if target is None or target is p:
                    return m.group(0)
                if target.id == href[1:]:
                    return f'href="{target.name}"'
                return f'href="{target.name}{html.escape(href, quote=True)}"'
            if re.match(r"^[a-z][a-z0-9+.-]*:", href) or href.startswith("/"):
                return m.group(0)
            path, _, frag = href.partition("#")
            new = sources.href(path)
            if new is None:
                return m.group(0)   # check_html.py reports it
            return f'href="{html.escape(new + ("#" + frag if frag else ""), quote=True)}"'
        p.body = re.sub(r'href="([^"]*)"', fix, p.body)


# A number with its unit, a date, a number in groups of three or a unit like TB/s: one
# unbreakable piece of text (site.css: .nobr), so that "18 677 760", "2026-12-02" and "2.1 TB/s"
# never break across lines.
UNIT = r"(?:[KMGT]i?B/s|[KMGT]i?B|B/s|ms|µs|us|ns|s|MHz|GHz|W|%|×|x|px|pt|mm|cycles|clk|SMs?|CTAs?|KB|bytes?)(?![\w/])"
KEEP_TOGETHER = re.compile(
    r"\d{4}-\d\d-\d\d(?!\d)"
    r"|(?<![\w.])\d{1,3}(?:[ \u2006\u2009\u202f\u00a0]\d{3})+(?![\d])(?:\.\d+)?(?:[ \u2006\u2009\u202f\u00a0]?" + UNIT + ")?"
    r"|(?<![\w.])\d+(?:[.,]\d+)?[ \u2006\u2009\u202f\u00a0]?(?:[×x][ \u2006\u2009\u202f\u00a0]?\d+(?:\.\d+)?[ \u2006\u2009\u202f\u00a0]?)?" + UNIT +
    r"|(?<![\w/])[KMGT]i?B/s(?![\w/])")
SKIP_TEXT = re.compile(r"(<pre\b.*?</pre>|<script\b.*?</script>|<[^>]+>)", re.S)


def keep_together(pages):
    """Numbers with their units, dates and grouped numbers in running text (inline code too) go in <span
    class="nobr"> where they hold a place a line could break (a space, a slash, a hyphen)."""
    def nobr(m):
        t = m.group(0)
        return f'<span class="nobr">{t}</span>' if re.search(r"[\s\u2006\u2009\u202f/-]", t) else t

    for p in pages:
        parts = SKIP_TEXT.split(p.body)
        p.body = "".join(part if k % 2 else KEEP_TOGETHER.sub(nobr, part) for k, part in enumerate(parts))


def add_anchors(pages):
    """Every heading with an id gets a link to itself (shown on hover), as in mdBook."""
    def anchor(m):
        ident = ID_ATTR.search(m.group(2))
        if not ident:
            return m.group(0)
        return (f'<h{m.group(1)}{m.group(2)}>{m.group(3)}<a class="anchor" href="#{ident.group(1)}" '
                f'aria-label="Link to this section">#</a></h{m.group(1)}>')
    for p in pages:
        p.body = re.sub(r"<h([1-4])\b([^>]*)>(.*?)</h\1>", anchor, p.body, flags=re.S)


def width(s):
    return len(s.expandtabs(TAB))


def hang(plain, output, column=0):
    """Where a wrapped line continues, in characters: for program output, under the text after a
    label ("  fix       use ..." continues under "use"; `column` is the block's usual label
    width, which also serves a label with one space, "  last wait this ..."), else 4 columns
    deeper than the line."""
    indent = width(re.match(r"^\s*", plain).group(0))
    h = indent + 4
    if output:
        label = re.match(r"^(\s*\S+\s\s+)\S", plain)
        if label:
            h = width(label.group(1))
        elif column > indent + 1 and plain[column - 1:column] == " " and plain[column:column + 1].strip():
            h = column
    return max(3, min(h, HANG_MAX))


def label_column(plains):
    """The most common label width of an output block's lines (0 when none has a label)."""
    widths = [width(m.group(1)) for m in (re.match(r"^(\s*\S+\s\s+)\S", p) for p in plains) if m]
    return max(set(widths), key=widths.count) if widths else 0


# Where a long code line may wrap besides its spaces: after ( [ { , ; :: ) / and before . or
# -> between names; never inside a name or a number (site.css breaks inside a word only when the
# word alone is longer than the line).
CODE_BREAK = re.compile(r"(?<=[(\[{,;])(?=[^\s)\]},;])|(?<=::)(?=\w)|(?<=[A-Za-z_\])])(?=\.[A-Za-z_]|->)"
                        r"|(?<=\))(?=\w)|(?<=/)(?=\w)|(?<=\w:)(?=\d)")


def code_breaks(line_html):
    """One code line's HTML with <wbr> at the places CODE_BREAK finds in its text."""
    plain = html.unescape(TAG.sub("", line_html))
    at = {m.start() for m in CODE_BREAK.finditer(plain)}
    if not at:
        return line_html
    out, n = [], 0
    for part in re.split(r"(<[^>]+>)", line_html):
        if part.startswith("<"):
            out.append(part)
            continue
        for piece in re.findall(r"&[#\w]+;|[^&]|&", part):
            if n in at:
                out.append("<wbr>")
            out.append(piece)
            n += 1
    return "".join(out)


def split_columns(plains):
    """The column where pseudo-code written side by side (two programs, each line "left   right")
    splits, or None: every line has 2 spaces before it (or ends before it), both sides are
    substantial, the right one is not just comments beside code, and the block is too wide for
    one column of the site."""
    lines = [p.expandtabs(TAB).rstrip() for p in plains]
    full = [l for l in lines if l.strip()]
    longest = max((len(l) for l in full), default=0)
    if len(full) < 3 or longest <= 80:
        return None
    for c in range(30, longest - 20):
        if any(len(l) > c - 2 and l[c - 2:c] != "  " for l in full):
            continue
        if not any(len(l) > c and l[c] != " " for l in full):
            continue
        right = sum(1 for l in full if l[c:].strip())
        left = sum(1 for l in full if l[:c].strip())
        comments = all(l[c:].strip().startswith(("//", "#", "/*")) for l in full if l[c:].strip())
        if right * 5 >= len(full) * 3 and left * 5 >= len(full) * 3 and not comments:
            return c
    return None


def wrap_code(pages):
    """Each line of a code block becomes <span class="ln" style="--h:Nch">: site.css wraps it
    with a hanging indent of N characters and a continuation mark; the block sits in
    <div class="code">, which holds the copy button outside the text."""
    line_span = re.compile(r'<span id="([^"]+)">(?:<a href="#[^"]*" aria-hidden="true" tabindex="-1"></a>)?'
                           r'(.*)</span>$', re.S)

    def lines(body, output):
        rows = []
        for raw in body.split("\n"):
            m = line_span.match(raw)
            rows.append((m.group(1), m.group(2)) if m else (None, raw))
        plains = [html.unescape(TAG.sub("", text)) for _, text in rows]
        column = label_column(plains) if output else 0
        out = []
        for (ident, text), plain in zip(rows, plains):
            ida = f' id="{ident}"' if ident else ""
            out.append(f'<span{ida} class="ln" style="--h:{hang(plain, output, column)}ch">{code_breaks(text)}</span>')
        return "\n".join(out)

    def columns(body):
        """Side-by-side pseudo-code as two blocks, or None."""
        plains = [html.unescape(TAG.sub("", raw)) for raw in body.split("\n")]
        c = split_columns(plains)
        if c is None:
            return None
        sides = []
        for part in (slice(0, c), slice(c, None)):
            rows = [p.expandtabs(TAB).rstrip()[part] for p in plains]
            indent = min((len(r) - len(r.lstrip()) for r in rows if r.strip()), default=0)
            text = "\n".join(html.escape(r[indent:], quote=False) for r in rows)
            sides.append(f'<div class="code output"><pre><code>{lines(text, True)}</code></pre></div>')
        return '<div class="code-columns">' + "".join(sides) + "</div>"

    def block(m):
        pre_open, code_open, body = m.group(2), m.group(3), m.group(4)
        output = "sourceCode" not in pre_open
        kind = "output" if output else "source"
        if body.endswith("\n"):
            body = body[:-1]
        split = columns(body) if output else None
        if split:
            return split
        inner = f"{pre_open}{code_open}{lines(body, output)}</code></pre>"
        if m.group(1):
            inner = f"{m.group(1)}{inner}</div>"
        return f'<div class="code {kind}">{inner}</div>'

    pattern = re.compile(r'(<div class="sourceCode"[^>]*>)?(<pre\b[^>]*>)(<code\b[^>]*>)(.*?)</code></pre>'
                         r'(?(1)</div>)', re.S)
    for p in pages:
        p.body = pattern.sub(block, p.body)


def svg_fonts(path):
    """(width in px, smallest font size) of an SVG figure, or (0, 0)."""
    try:
        with open(path, encoding="utf-8") as f:
            svg = f.read(400000)
    except OSError:
        return 0, 0
    m = re.search(r'<svg\b[^>]*\bwidth="([\d.]+)', svg)
    sizes = [float(s) for s in re.findall(r'font-size[=:]\s*"?([\d.]+)', svg)]
    if not m or not sizes:
        return 0, 0
    return float(m.group(1)), min(sizes)


def place_figures(pages, site, repo_root):
    """Copy every image into site/img/ and make each figure open full size when clicked."""
    os.makedirs(os.path.join(site, "img"), exist_ok=True)
    copied = {}

    def copy(src):
        if src not in copied:
            name = os.path.basename(src)
            if name in copied.values():
                name = src.replace("/", "-")
            shutil.copyfile(os.path.join(repo_root, src), os.path.join(site, "img", name))
            copied[src] = name
        return "img/" + copied[src]

    def figure(m):
        fig = m.group(0)
        src = re.search(r'<img src="([^"]+)"', fig).group(1)
        if src.startswith("data:"):
            return fig
        local = copy(html.unescape(src))
        width, font = svg_fonts(os.path.join(repo_root, html.unescape(src)))
        # A figure scales to the column at every width and opens full size on a tap;
        # check_browser.py reads data-min-font (its smallest label, in the SVG's own px).
        style = f' data-min-font="{font:g}"' if width else ""
        fig = fig.replace(f'src="{src}"', f'src="{local}"{style}', 1)
        return re.sub(r"(<img\b[^>]*>)", lambda i: f'<a class="figure-open" href="{local}" '
                      f'title="Open the figure full size">{i.group(1)}</a>', fig, count=1)

    for p in pages:
        p.body = re.sub(r"<figure>.*?</figure>", figure, p.body, flags=re.S)
        p.body = re.sub(r'<img src="(?!img/|data:)([^"]+)"',
                        lambda m: f'<img src="{copy(html.unescape(m.group(1)))}"', p.body)


def wrap_tables(pages):
    """Tables scroll sideways on a narrow screen instead of breaking identifiers mid-word (book.js
    says so under a table that does); identifiers in cells may break after :: . _ / or inside
    camelCase only."""
    def cell_code(m):
        code = re.sub(r"(::|\.|_|/)(?=[^<])", r"\1<wbr>", m.group(1))
        code = re.sub(r"([a-z])(?=[A-Z])", r"\1<wbr>", code)
        return f"<code>{code}</code>"

    def prose(m):
        return m.group(0) if len(text_of(m.group(2))) < PROSE_CELL else f"<td{m.group(1)} class=\"prose\">{m.group(2)}</td>"

    def table(m):
        t = re.sub(r"<code>([^<]*)</code>", cell_code, m.group(0))
        t = re.sub(r"<td((?:\s+(?!class=)[\w-]+=\"[^\"]*\")*)>(.*?)</td>", prose, t, flags=re.S)
        return f'<div class="scroll-x table-wrap" tabindex="0">{t}</div>'

    for p in pages:
        p.body = re.sub(r"<table\b.*?</table>", table, p.body, flags=re.S)


HIDDEN = re.compile(r'<details class="solution">.*?</details>|<(span|div) class="print-only">.*?</\1>', re.S)


def search_entries(page):
    """One entry per section (the text from one h1/h2/h3 to the next) of a page; the solutions
    stay out of the text (they are closed until the reader opens one)."""
    out = []
    parts = re.split(r"(<h[123]\b[^>]*>.*?</h[123]>)", HIDDEN.sub(" ", page.body), flags=re.S)
    head = ("", page.title or "Preface")
    for chunk in parts:
        if re.match(r"<h[123]\b", chunk):
            ident, num, title, _ = heading_parts(chunk)
            head = (ident, f"{num} {title}".strip())
            continue
        text = text_of(chunk)
        if text or head[0]:
            out.append({"u": page.name + (f"#{head[0]}" if head[0] else ""), "t": head[1],
                        "p": page.label() or "Preface", "x": text})
    return out


def sidebar(pages, current):
    items = []
    for p in pages:
        label = html.escape(p.label() if p.name != "index.html" else "Preface and contents")
        num = ""
        if p.number:
            num = f'<span class="num">{html.escape(p.number)}</span> '
            label = html.escape(p.title)
        cls = ' class="current"' if p is current else ""
        sub = ""
        if p is current and p.sections:
            subs = "".join(f'<li><a href="#{html.escape(i, quote=True)}">'
                           + (f'<span class="num">{html.escape(n)}</span> ' if n else "")
                           + f"{html.escape(t)}</a></li>" for i, n, t, _ in p.sections)
            sub = f"<ul>{subs}</ul>"
        items.append(f'<li{cls}><a href="{p.name}">{num}{label}</a>{sub}</li>')
    return "<ul>" + "".join(items) + "</ul>"


def prev_next(pages, i):
    links = []
    if i > 0:
        p = pages[i - 1]
        links.append(f'<a class="prev" rel="prev" href="{p.name}" title="Previous chapter (←)"><span>Previous</span>'
                     f'{html.escape(p.label() or "Preface")}</a>')
    if i + 1 < len(pages):
        p = pages[i + 1]
        links.append(f'<a class="next" rel="next" href="{p.name}" title="Next chapter (→)"><span>Next</span>'
                     f'{html.escape(p.label())}</a>')
    return '<nav class="prev-next" aria-label="Previous and next chapter">' + "".join(links) + "</nav>"


def contents(pages):
    """The full table of contents for index.html: chapters with their sections."""
    rows = []
    for p in pages[1:]:
        subs = "".join(f'<li><a href="{p.name}#{html.escape(i, quote=True)}"><span class="num">'
                       f'{html.escape(n)}</span> {html.escape(t)}</a></li>'
                       for i, n, t, _ in p.sections if n)
        rows.append(f'<li><a href="{p.name}"><span class="num">{html.escape(p.number)}</span> '
                    f'{html.escape(p.title)}</a>' + (f"<ul>{subs}</ul>" if subs else "") + "</li>")
    return ('<nav id="book-contents" class="contents"><h2 id="contents">Contents<a class="anchor" href="#contents" '
            'aria-label="Link to this section">#</a></h2><ul>' + "".join(rows) + "</ul></nav>")


def tools(page, args, sources):
    """The top bar's links: the PDF and, with --source-url, the page's Markdown source."""
    out = []
    if args.pdf:
        out.append('<a class="tool" href="book.pdf" title="The whole book as one PDF (made by make book)">PDF</a>')
    src = sources.page_source(page.source or "book.md")
    if src:
        out.append(f'<a class="tool" href="{html.escape(src, quote=True)}" '
                   f'title="This page\'s source ({html.escape(page.source or "book.md")})">Source</a>')
    return "".join(out)


def outline(page):
    """"On this page": the chapter's sections and subsections (book.js marks the one on screen);
    site.css puts it in the right margin of a wide screen, under the title on a narrower one."""
    rows = "".join(f'<li class="{"sub" if level == "3" else "top"}"><a href="#{html.escape(i, quote=True)}">'
                   + (f'<span class="num">{html.escape(n)}</span> ' if n else "") + f"{html.escape(t)}</a></li>"
                   for level, (i, n, t, _) in page.outline if i)
    return ('<nav class="page-outline" aria-label="On this page"><details><summary>On this page</summary>'
            f"<ul>{rows}</ul></details></nav>")


def render(page, pages, i, args, template, sources):
    title = args.title if page.name == "index.html" else f"{page.label()} · {args.title}"
    body = page.body
    if page.name == "index.html":
        sub = f'<p class="subtitle">{html.escape(args.subtitle)}</p>' if args.subtitle else ""
        body = (f'<header class="title-page"><h1 class="title">{html.escape(args.title)}</h1>{sub}'
                f'<p class="version">Version {html.escape(args.version)} · {html.escape(args.date)}</p>'
                f"</header>{body}{contents(pages)}")
    elif len(page.sections) >= 2 and "</h1>" in body:
        body = body.replace("</h1>", "</h1>" + outline(page), 1)
    return (template.replace("{{title}}", html.escape(title))
            .replace("{{book-title}}", html.escape(args.title.split(":")[0]))
            .replace("{{version}}", html.escape(args.version))
            .replace("{{date}}", html.escape(args.date))
            .replace("{{tools}}", tools(page, args, sources))
            .replace("{{sidebar}}", sidebar(pages, page))
            .replace("{{prev-next}}", prev_next(pages, i))
            .replace("{{body}}", body))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fragment")
    ap.add_argument("site")
    ap.add_argument("--version", default="unversioned")
    ap.add_argument("--date", default="")
    ap.add_argument("--highlight-css", required=True)
    ap.add_argument("--repo-root", default=".")
    ap.add_argument("--pdf", default="", help="the PDF: linked from every page, copied into the site when it "
                    "exists (make book builds it and copies it in after the site)")
    ap.add_argument("--source-url", default="", help="link each page's Markdown source under this URL (none when empty)")
    ap.add_argument("--pandoc", default="pandoc", help="the pandoc that highlights the repository files' pages")
    args = ap.parse_args()

    with open(args.fragment, encoding="utf-8") as f:
        fragment = f.read()
    with open(os.path.join(HERE, "site.html"), encoding="utf-8") as f:
        template = f.read()
    if os.path.isdir(args.site):
        shutil.rmtree(args.site)
    os.makedirs(args.site)

    head = re.match(r'\s*<header class="title-page">(.*?)</header>', fragment, re.S)
    if not head:
        sys.exit(f"site.py: {args.fragment} does not start with <header class=\"title-page\">")
    fragment = headings_own_ids(fragment[head.end():])
    args.title = text_of((re.search(r'<h1 class="title">(.*?)</h1>', head.group(1), re.S) or [0, ""])[1])
    args.subtitle = text_of((re.search(r'<p class="subtitle">(.*?)</p>', head.group(1), re.S) or [0, ""])[1])
    if args.pdf and os.path.isfile(args.pdf):
        shutil.copyfile(args.pdf, os.path.join(args.site, "book.pdf"))
    sources = Sources(args.site, args.repo_root, args.source_url)
    pages = split_pages(fragment)
    wrap_code(pages)        # first: it drops the code lines' own links (#cb1-1), which repeat across pages
    rewrite_links(pages, sources)
    place_figures(pages, args.site, args.repo_root)
    wrap_tables(pages)
    keep_together(pages)

    index = [e for p in pages for e in search_entries(p)]
    add_anchors(pages)
    with open(os.path.join(args.site, "search-index.js"), "w", encoding="utf-8") as f:
        f.write("/* search-index.js: made by tools/book/site.py; one entry per section. */\n")
        f.write("window.BOOK_SEARCH_INDEX = " + json.dumps(index, ensure_ascii=False) + ";\n")
    for name in ("book.css", "site.css", "book.js"):
        shutil.copyfile(os.path.join(HERE, name), os.path.join(args.site, name))
    shutil.copyfile(args.highlight_css, os.path.join(args.site, "highlight.css"))
    for i, p in enumerate(pages):
        with open(os.path.join(args.site, p.name), "w", encoding="utf-8") as f:
            f.write(render(p, pages, i, args, template, sources))
    sources.write_pages(SOURCE_PAGE, args.pandoc)
    print(f"site: {len(pages)} pages, {len(index)} search entries in {args.site}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
