#!/usr/bin/env python3
"""svg_resolve_current_color.py: rewrites a gnuplot SVG so that no point marker depends on currentColor.

gnuplot draws each point as <use xlink:href='#gpPtN' color='rgb(...)'/>, and its
marker definitions paint with 'currentColor'. Debian's WeasyPrint (the PDF engine)
cannot resolve currentColor through <use> and stops with "too many values to
unpack". Browsers can. This replaces every such <use> by the marker it names
(followed through nested <use>), with currentColor replaced by the use's color,
inside a <g> that keeps the use's transform; the picture does not change.

usage: svg_resolve_current_color.py FILE.svg   (rewritten in place)
"""
import re
import sys

DEF = re.compile(r"<(path|rect|circle|use)\b[^>]*\bid='(gpPt\d+|gpDot)'[^>]*/>")
USE = re.compile(r"<use xlink:href='#(gpPt\d+|gpDot)'([^>]*)/>")
ATTR = re.compile(r"(\w[\w:-]*)='([^']*)'")


def definitions(svg):
    """Maps each marker id to its element text (as defined in <defs>)."""
    return {m.group(2): m.group(0) for m in DEF.finditer(svg)}


def resolve(defs, ident, color, depth=0):
    """The marker ident as plain elements painted in color (nested uses followed)."""
    if depth > 8 or ident not in defs:
        raise SystemExit(f"svg_resolve_current_color: unknown or cyclic marker #{ident}")
    element = re.sub(r"\s\bid='[^']*'", "", defs[ident]).replace("currentColor", color)
    inner = re.match(r"<use xlink:href='#([^']+)'([^>]*)/>", element)
    if inner is None:
        return element
    attrs = inner.group(2)
    return f"<g{attrs}>{resolve(defs, inner.group(1), color, depth + 1)}</g>"


def rewrite(svg):
    defs = definitions(svg)
    head, sep, body = svg.partition("</defs>")
    if not sep:
        return svg

    def replace(m):
        attrs = dict(ATTR.findall(m.group(2)))
        color = attrs.pop("color", "black")
        kept = "".join(f" {k}='{v}'" for k, v in attrs.items())
        return f"<g{kept}>{resolve(defs, m.group(1), color)}</g>"

    return head + sep + USE.sub(replace, body)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        svg = f.read()
    out = rewrite(svg)
    if USE.search(out.partition("</defs>")[2]):
        raise SystemExit(f"{path}: a point marker is still drawn through <use> after the rewrite")
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)


if __name__ == "__main__":
    main()
