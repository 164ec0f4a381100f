"""paginate.py: print the print edition to PDF with WeasyPrint, letting figures float: a figure
that does not fit at the bottom of a page (and would leave it more than an eighth empty) moves
after the paragraphs that follow it, as far as they fill the gap, so that it lands at the top of
the next page, as LaTeX floats do. Lays the book out once, moves such figures in the document
tree, lays it out again (and a third time if the moves left a page more than a quarter empty)
and writes the PDF. Run with the Python that has WeasyPrint (print.sh).
Usage: paginate.py build/book.html build/book.pdf"""

import sys

from weasyprint import HTML

HOLE = 0.12             # a page more empty than this before a figure lets the figure float
LAST_HOLE = 0.20        # after the first moves, only a hole near check_pdf.py's limit (25 %) moves one more
BREAKABLE = {"p", "ul", "ol"}   # blocks that may break across pages (print.css keeps listings whole)
HEADINGS = {"h2", "h3", "h4"}   # a figure may float into the next section, never the next chapter
MOVABLE = {"p", "ul", "ol", "dl", "blockquote", "pre", "div"} | HEADINGS   # what may move up past a figure


def blocks(box):
    """The block boxes of `main` (the book's flow) on one page: top-level, in order."""
    for child in getattr(box, "children", []):
        if child.element_tag == "main":
            return list(child.children)
        found = blocks(child)
        if found:
            return found
    return []


def bottom(box):
    return box.position_y + box.margin_height()


def figure_of(box):
    """The figure element a block of the flow is or holds alone (a figure in a lead-in div)."""
    el = box.element
    if el is None:
        return None
    if el.tag == "figure":
        return el
    return None


def float_figures(doc, root, hole=HOLE):
    """Move each figure that starts a page after a page more than `hole` empty before it; returns
    how many moved."""
    parent_of = {c: p for p in root.iter() for c in p}
    moved = 0
    pages = [p._page_box for p in doc.pages]
    for prev, page in zip(pages, pages[1:]):
        above, here = blocks(prev), blocks(page)
        if not above or not here:
            continue
        area_top, area_h = prev.content_box_y(), prev.height
        gap = area_top + area_h - bottom(above[-1])
        if gap <= hole * area_h:
            continue
        # the figure at the top of the page, perhaps under headings kept with it
        k = 0
        while k < len(here) and here[k].element_tag in ("h2", "h3", "h4"):
            k += 1
        if k >= len(here) or figure_of(here[k]) is None or here[k].element_tag == "h1":
            continue
        fig = here[k].element
        parent = parent_of.get(fig)
        if parent is None:
            continue
        # what follows the figure on its page and fits into the gap, headings left above it
        room, last = gap - (bottom(here[k - 1]) - here[0].position_y if k else 0), None
        for b in here[k + 1:]:
            if b.element_tag not in MOVABLE or b.element is None or parent_of.get(b.element) is not parent:
                break
            room -= b.margin_height()
            if room < 0:
                # a paragraph or list may run on to the next page: it fills the gap all the same
                if b.element_tag in BREAKABLE and room + b.margin_height() > 40:
                    last = b.element
                break
            if b.element_tag not in HEADINGS:     # a heading never ends up just above the figure
                last = b.element
        if last is None:
            continue
        parent.remove(fig)
        parent.insert(list(parent).index(last) + 1, fig)
        moved += 1
    return moved


def main(src, out):
    html = HTML(filename=src)
    doc = html.render()
    moved = float_figures(doc, html.etree_element)
    if moved:
        doc = html.render()
        # moving figures shifts the pages after them: once more, only for a hole check_pdf.py fails
        again = float_figures(doc, html.etree_element, LAST_HOLE)
        if again:
            doc = html.render()
        moved += again
    print(f"paginate: {moved} figures float to the next page", file=sys.stderr)
    doc.write_pdf(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
