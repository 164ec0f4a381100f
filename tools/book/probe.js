/* probe.js: measurements of a page of the site as a reader meets it, for check_browser.py, which
   loads this file into each page (DevTools protocol) and calls window.BookProbe.*. */
window.BookProbe = (function () {
  "use strict";

  function rect(el) { return el.getBoundingClientRect(); }
  function visible(el) {
    if (!el || !el.getClientRects().length) return false;
    var s = getComputedStyle(el);
    return s.visibility !== "hidden" && s.display !== "none";
  }
  function intersects(a, b, slack) {
    slack = slack || 0;
    return a.left < b.right - slack && b.left < a.right - slack && a.top < b.bottom - slack && b.top < a.bottom - slack;
  }
  function label(el) {
    var t = (el.textContent || el.getAttribute("alt") || "").replace(/\s+/g, " ").trim();
    return t.slice(0, 50);
  }
  function scrollsSideways(el) {
    var s = getComputedStyle(el);
    return /auto|scroll/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
  }

  /* Everything about the layout of the page as it stands. */
  function layout() {
    var out = {}, main = document.getElementById("content");
    var column = main ? main.getBoundingClientRect() : { left: 0, right: window.innerWidth };
    var padL = main ? parseFloat(getComputedStyle(main).paddingLeft) : 0;
    var padR = main ? parseFloat(getComputedStyle(main).paddingRight) : 0;
    var colLeft = column.left + padL, colRight = column.right - padR;
    var narrow = window.innerWidth <= 700;

    var imgs = document.images, broken = [], small = [], wideFigs = [];
    for (var i = 0; i < imgs.length; i++) {
      var img = imgs[i], r = rect(img);
      if (!img.complete || img.naturalWidth === 0 || r.width < 8 || r.height < 8) broken.push(label(img) || "image " + i);
      var font = parseFloat(img.getAttribute("data-min-font") || "0");
      var fig = img.closest("figure");
      /* A figure scales to its column at every width (nobody scrolls a figure sideways) and a
         tap opens it full size. */
      if (fig && (r.right > colRight + 1 || r.left < colLeft - 1 || fig.scrollWidth > fig.clientWidth + 1))
        wideFigs.push(Math.round(r.width) + "px in " + Math.round(colRight - colLeft) + "px: " + label(img).slice(0, 30));
      var open = img.closest("a");
      if (fig && (!open || open.getAttribute("href") !== img.getAttribute("src")))
        wideFigs.push("does not open full size on a tap: " + label(img).slice(0, 30));
      /* Text in a figure reads at 11 px or more where the column is a desktop's. */
      if (fig && font && window.innerWidth >= 1280 && img.naturalWidth && r.width / img.naturalWidth * font < 10.95)
        small.push("at " + window.innerWidth + " px: " + (r.width / img.naturalWidth * font).toFixed(1) + "px: " + label(img).slice(0, 30));
    }
    out.images = imgs.length;
    out.broken = broken;
    out.small_labels = small;
    out.wide_figures = wideFigs;

    /* Code: nothing wider than the column, nothing scrolling sideways; the copy button outside
       the text, not over its first line. */
    var pres = document.querySelectorAll("main pre"), wideCode = [], copyBad = [];
    Array.prototype.forEach.call(pres, function (pre, k) {
      var frame = pre.closest(".code") || pre, fr = rect(frame);
      if (pre.scrollWidth > pre.clientWidth + 1 || fr.right > colRight + 1)
        wideCode.push("block " + k + ": " + pre.scrollWidth + "px of text in " + pre.clientWidth + "px: " + label(pre).slice(0, 40));
    });
    var buttons = document.querySelectorAll("main .copy-code");
    Array.prototype.forEach.call(buttons, function (button, k) {
      for (var p = button.parentElement; p && p !== document.body; p = p.parentElement)
        if (scrollsSideways(p) || p.tagName === "PRE") { copyBad.push("button " + k + " inside a scrolling block"); return; }
      var frame = button.closest(".code"), first = frame && (frame.querySelector("pre code > .ln") || frame.querySelector("pre code"));
      if (!first) return;
      var range = document.createRange();
      range.selectNodeContents(first);
      var br = rect(button), rects = range.getClientRects();
      for (var j = 0; j < rects.length; j++) {
        if (rects[j].width > 0 && intersects(rects[j], br, 1)) {
          copyBad.push("button " + k + " covers the text: " + label(first).slice(0, 40));
          return;
        }
      }
    });
    out.code_blocks = pres.length;
    out.copy_buttons = buttons.length;
    out.wide_code = wideCode;
    out.copy_bad = copyBad;

    /* Headings: an anchor to itself on each, plain-ASCII ids. */
    var heads = document.querySelectorAll("main h1[id], main h2[id], main h3[id], main h4[id]"), noAnchor = [];
    Array.prototype.forEach.call(heads, function (h) {
      var a = h.querySelector("a.anchor");
      if (!a || a.getAttribute("href") !== "#" + h.id) noAnchor.push(h.tagName + "#" + h.id);
    });
    out.headings = heads.length;
    out.no_anchor = noAnchor;
    out.non_ascii_ids = Array.prototype.map.call(document.querySelectorAll("[id]"), function (e) { return e.id; })
      .filter(function (id) { return !/^[\x21-\x7e]+$/.test(id); });

    /* Tables wider than the column say that they scroll. */
    var tableBad = [];
    Array.prototype.forEach.call(document.querySelectorAll("main table"), function (t, k) {
      var wrap = t.parentElement;
      if (t.getBoundingClientRect().right <= colRight + 1 && !scrollsSideways(wrap)) return;
      var hint = wrap.nextElementSibling;
      if (!scrollsSideways(wrap)) tableBad.push("table " + k + " is wider than the column and cut off");
      else if (!wrap.classList.contains("overflows") || !hint || !hint.classList.contains("scroll-hint") || !visible(hint))
        tableBad.push("table " + k + " scrolls without saying so: " + label(t).slice(0, 40));
    });
    /* So do figures that keep a legible width on a phone. */
    Array.prototype.forEach.call(document.querySelectorAll("main figure"), function (f) {
      if (f.scrollWidth <= f.clientWidth + 1) return;
      var hint = f.nextElementSibling;
      if (!f.classList.contains("overflows") || !hint || !hint.classList.contains("scroll-hint") || !visible(hint))
        tableBad.push("a figure scrolls without saying so: " + label(f.querySelector("img") || f).slice(0, 40));
    });
    out.tables_bad = tableBad;

    /* Tables: the scrolling box itself fits the column; on a desktop the table fits without
       scrolling; no cell of prose is squeezed to a sliver. */
    var tableFit = [];
    Array.prototype.forEach.call(document.querySelectorAll("main table"), function (t, k) {
      var wrap = t.parentElement, wr = rect(wrap);
      if (wr.right > colRight + 1 || wr.left < colLeft - 1)
        tableFit.push("table " + k + ": its box (" + Math.round(wr.width) + " px) is wider than the column");
      if (window.innerWidth >= 1280 && t.getBoundingClientRect().width > wrap.clientWidth + 1)
        tableFit.push("table " + k + ": " + Math.round(t.getBoundingClientRect().width) + " px of table in a " +
                      Math.round(wrap.clientWidth) + " px column: " + label(t).slice(0, 30));
      Array.prototype.forEach.call(t.querySelectorAll("td"), function (td) {
        var text = td.textContent.trim(), cr = rect(td);
        if (text.length > 60 && (cr.width < (window.innerWidth < 700 ? 140 : 100) || cr.height > window.innerHeight))
          tableFit.push("table " + k + ": a cell of " + text.length + " characters squeezed to " + Math.round(cr.width) +
                        " x " + Math.round(cr.height) + " px: " + text.slice(0, 30));
      });
    });
    out.tables_fit = tableFit;

    /* Nothing a reader must see lies outside the column: every block of the text, and the
       exercise boxes' contents. */
    var outside = [];
    Array.prototype.forEach.call(document.querySelectorAll("main > *, main .exercise > *, main li, main p"), function (el) {
      if (!visible(el) || el.closest(".scroll-x, nav.page-outline")) return;
      var r = rect(el);
      if (r.width && (r.right > colRight + 1.5 || r.left < colLeft - 1.5))
        outside.push(el.tagName.toLowerCase() + " at " + Math.round(r.left) + "-" + Math.round(r.right) + " px: " + label(el).slice(0, 30));
    });
    out.outside_column = outside.slice(0, 20);

    /* Code lines break between tokens, not inside a name or number, unless the name alone is
       longer than the line. */
    var inWord = [];
    Array.prototype.forEach.call(document.querySelectorAll("main pre code > span.ln"), function (ln) {
      var lr = ln.getClientRects();
      if (!lr.length || rect(ln).height < 1.8 * parseFloat(getComputedStyle(ln).lineHeight)) return;
      var walker = document.createTreeWalker(ln, NodeFilter.SHOW_TEXT), n, prevTop = null, prevCh = "", prevNode = null;
      var lst = getComputedStyle(ln), found = false, range = document.createRange();
      var lineW = ln.clientWidth - parseFloat(lst.paddingLeft) - parseFloat(lst.paddingRight);  /* a continuation's room */
      while ((n = walker.nextNode()) && !found) {
        for (var i = 0; i < n.length && !found; i++) {
          range.setStart(n, i); range.setEnd(n, i + 1);
          var cr = range.getClientRects()[0];
          if (!cr) continue;
          var ch = n.data[i];
          if (prevTop !== null && cr.top > prevTop + 2 && /\w/.test(ch) && /\w/.test(prevCh)) {
            var word = (ln.textContent.match(/\w+/g) || []).filter(function (w) { return w.indexOf(prevCh + ch) >= 0; });
            var longest = word.reduce(function (a, w) { return Math.max(a, w.length); }, 0);
            if (longest * cr.width < lineW - 2) {
              var before = (n.data.slice(Math.max(0, i - 12), i) || prevCh);
              inWord.push(label(ln).slice(0, 40) + " (\u2026" + before + " | " + n.data.slice(i, i + 8) + ")");
              found = true;
            }
          }
          prevTop = cr.top; prevCh = ch;
        }
      }
    });
    out.code_word_breaks = inWord.slice(0, 20);

    /* Numbers with their units, dates and units like TB/s stay on one line. */
    var numBreaks = [], re = /\d{4}-\d\d-\d\d(?!\d)|(?<![\w.])\d{1,3}(?:[ \u2006\u2009\u202f\u00a0]\d{3})+(?!\d)|(?<![\w.])\d+(?:[.,]\d+)?[ \u2006\u2009\u202f\u00a0](?:[KMGT]i?B\/s|[KMGT]i?B|ms|\u00b5s|ns|MHz|GHz|cycles)(?![\w\/])|(?<![\w\/])[KMGT]i?B\/s(?![\w\/])/g;
    var tw = document.createTreeWalker(main || document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: function (t) { return t.parentNode.closest("pre, script, style") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT; }
    }), tn, nr = document.createRange();
    while ((tn = tw.nextNode())) {
      re.lastIndex = 0;
      var m;
      while ((m = re.exec(tn.data))) {
        nr.setStart(tn, m.index); nr.setEnd(tn, m.index + m[0].length);
        var rs = Array.prototype.filter.call(nr.getClientRects(), function (q) { return q.width > 0; });
        if (rs.length > 1 && rs[rs.length - 1].top > rs[0].top + 2) numBreaks.push("\u201c" + m[0] + "\u201d");
      }
    }
    out.number_breaks = numBreaks.slice(0, 20);

    /* Exercise headers: the points badge on one line. */
    out.badges_wrapped = Array.prototype.filter.call(document.querySelectorAll(".exercise-head .points"), function (b) {
      var lh = parseFloat(getComputedStyle(b).lineHeight) || parseFloat(getComputedStyle(b).fontSize) * 1.6;
      return b.getClientRects().length > 1 || rect(b).height > 1.6 * lh;
    }).map(function (b) { return label(b.closest(".exercise-head")).slice(0, 40); });

    /* Pseudo-code written side by side is shown in columns, not as one block that wraps. */
    out.side_by_side = [];
    Array.prototype.forEach.call(document.querySelectorAll("main pre"), function (pre) {
      var lines = pre.textContent.split("\n").map(function (l) { return l.replace(/\s+$/, ""); }).filter(function (l) { return l.trim(); });
      var longest = lines.reduce(function (a, l) { return Math.max(a, l.length); }, 0);
      if (lines.length < 3 || longest <= 80) return;
      for (var c = 30; c < longest - 20; c++) {
        if (lines.some(function (l) { return l.length > c - 2 && l.slice(c - 2, c) !== "  "; })) continue;
        if (!lines.some(function (l) { return l.length > c && l[c] !== " "; })) continue;
        var right = lines.filter(function (l) { return l.slice(c).trim(); }).length, left = lines.filter(function (l) { return l.slice(0, c).trim(); }).length;
        var comments = lines.every(function (l) { var r = l.slice(c).trim(); return !r || /^(\/\/|#|\/\*)/.test(r); });
        if (right * 5 >= lines.length * 3 && left * 5 >= lines.length * 3 && !comments) { out.side_by_side.push(label(pre).slice(0, 40)); return; }
      }
    });

    /* "On this page": in the right margin of a wide screen, inside the window and clear of the
       text; a closed list under the title on a narrower one. */
    var nav = document.querySelector("nav.page-outline"), outlineBad = [];
    var chapter = /^(ch|app)\w*\.html$/.test(location.pathname.split("/").pop()) && document.querySelectorAll("main h2[id]").length >= 2;
    if (chapter && !nav) outlineBad.push("no outline of the page");
    if (nav) {
      var nr2 = rect(nav), box = nav.querySelector("details");
      if (window.innerWidth >= 1500) {
        if (!box.open || !visible(nav.querySelector("ul"))) outlineBad.push("the outline is closed on a wide screen");
        if (nr2.left < column.right - 1 || nr2.right > window.innerWidth || nr2.width < 120)
          outlineBad.push("the outline is not in the right margin (" + Math.round(nr2.left) + "-" + Math.round(nr2.right) + " px)");
      } else if (box.open) outlineBad.push("the outline is open on a narrow screen");
      else if (nr2.left < colLeft - 1 || nr2.right > colRight + 1) outlineBad.push("the closed outline is outside the column");
    }
    out.outline_bad = outlineBad;

    /* The sidebar: closed on narrow screens, and then none of its links takes the focus. */
    var side = document.getElementById("sidebar"), sr = side ? rect(side) : { left: 0, right: 0 };
    out.sidebar_visible = !!side && sr.right > 1 && sr.left < window.innerWidth && visible(side);
    out.sidebar_focusable = [];
    if (side && window.innerWidth < 1100 && !document.body.classList.contains("sidebar-open")) {
      Array.prototype.forEach.call(side.querySelectorAll("a, button, input"), function (a) {
        a.focus();
        if (document.activeElement === a) out.sidebar_focusable.push(label(a));
      });
      if (document.activeElement) document.activeElement.blur();
    }
    var first = document.querySelector("main h1, main p");
    out.text_top = first ? Math.round(rect(first).top) : -1;
    out.viewport = [window.innerWidth, window.innerHeight];
    out.wider_than_viewport = document.documentElement.scrollWidth > window.innerWidth + 1;
    return out;
  }

  /* Type `query` into the search box: the count line and the results' links. */
  function search(query) {
    var input = document.getElementById("search-input");
    input.value = query;
    input.dispatchEvent(new Event("input"));
    var count = document.querySelector("#search-results .search-count");
    return {
      count: count ? count.textContent : "",
      hrefs: Array.prototype.map.call(document.querySelectorAll("#search-results li a"), function (a) { return a.getAttribute("href"); }),
      snippets: Array.prototype.map.call(document.querySelectorAll("#search-results li a p"), function (p) { return p.textContent; })
    };
  }

  /* After opening a search result or a link with #id: did the reader land on it? */
  function landing() {
    var id = decodeURIComponent(location.hash.slice(1)), target = id && document.getElementById(id);
    var bar = document.querySelector(".topbar"), barH = bar ? rect(bar).height : 0;
    var box = target && target.closest("details");
    return {
      id: id,
      found: !!target,
      visible: !!target && visible(target) && (!box || box.open),
      top: target ? Math.round(rect(target).top - barH) : null,
      /* a target near the end of a short page cannot reach the top */
      at_end: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
      in_view: target ? rect(target).top >= 0 && rect(target).top < window.innerHeight - 40 : false,
      marks: document.querySelectorAll("main mark.search-hit").length,
      open_after: target ? (function () {
        var n = (target.closest(".solution-head, section") || target).nextElementSibling;
        return n && n.tagName === "DETAILS" ? n.open : null;
      })() : null
    };
  }

  /* The words of the search index: one found in exactly one section, and the most frequent long
     word (to misspell). */
  function indexWords() {
    var counts = {}, entries = window.BOOK_SEARCH_INDEX || [];
    entries.forEach(function (e) {
      var seen = {};
      ((e.t + " " + e.x).toLowerCase().match(/[a-z]{7,}/g) || []).forEach(function (w) {
        if (!seen[w]) { seen[w] = true; counts[w] = (counts[w] || 0) + 1; }
      });
    });
    var once = null, frequent = null, all = entries.map(function (e) { return (e.t + " " + e.x).toLowerCase(); }).join("\n");
    Object.keys(counts).sort().forEach(function (w) {
      /* a word in one section only, and no longer word contains it */
      if (!once && counts[w] === 1 && all.split(w).length === 2) once = w;
      if (!frequent || counts[w] > counts[frequent]) frequent = w;
    });
    return { once: once, frequent: frequent };
  }

  /* SVG figures (inlined in a probe page): text that touches or crosses the drawing's edge, text
     over text, and lines drawn through text. A label is the quadrilateral of its box as drawn
     (rotated tick labels stay rotated), shrunk a little so that touching is not overlapping. */
  function quadOf(t, by) {
    var b = t.getBBox(), m = t.getScreenCTM();
    if (!m || !b.width) return null;
    var cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    var w = Math.max(0, b.width / 2 - by), h = Math.max(0, b.height / 2 - by);
    return [[-w, -h], [w, -h], [w, h], [-w, h]].map(function (c) {
      return new DOMPoint(cx + c[0], cy + c[1]).matrixTransform(m);
    });
  }
  function project(quad, ax, ay) {
    var lo = Infinity, hi = -Infinity;
    quad.forEach(function (p) { var v = p.x * ax + p.y * ay; lo = Math.min(lo, v); hi = Math.max(hi, v); });
    return [lo, hi];
  }
  function quadsOverlap(a, b) {     /* separating axis test of two convex quadrilaterals */
    var quads = [a, b];
    for (var q = 0; q < 2; q++) {
      for (var i = 0; i < 4; i++) {
        var p1 = quads[q][i], p2 = quads[q][(i + 1) % 4], ax = p2.y - p1.y, ay = p1.x - p2.x;
        var pa = project(a, ax, ay), pb = project(b, ax, ay);
        if (pa[1] <= pb[0] || pb[1] <= pa[0]) return false;
      }
    }
    return true;
  }
  function inQuad(quad, x, y) {
    var sign = 0;
    for (var i = 0; i < 4; i++) {
      var p1 = quad[i], p2 = quad[(i + 1) % 4];
      var c = (p2.x - p1.x) * (y - p1.y) - (p2.y - p1.y) * (x - p1.x);
      if (c === 0) return false;
      if (sign && (c > 0) !== (sign > 0)) return false;
      sign = c;
    }
    return true;
  }

  function svgFigures() {
    var out = [];
    Array.prototype.forEach.call(document.querySelectorAll("div.svg-probe"), function (div) {
      var svg = div.querySelector("svg"), name = div.getAttribute("data-name");
      if (!svg) { out.push(name + ": not drawn"); return; }
      var box = rect(svg), texts = [], problems = [];
      Array.prototype.forEach.call(svg.querySelectorAll("text"), function (t) {
        if (t.closest("defs, pattern, marker, clipPath, symbol") || !t.textContent.trim()) return;
        var outer = quadOf(t, 0), inner = quadOf(t, 1.5), core = quadOf(t, 2);
        if (!outer) return;
        var s = t.textContent.trim().slice(0, 40);
        texts.push({ q: inner, core: core, s: s });
        if (outer.some(function (p) { return p.x < box.left + 1 || p.y < box.top + 1 || p.x > box.right - 1 || p.y > box.bottom - 1; }))
          problems.push("text at the edge: \u201c" + s + "\u201d");
      });
      for (var a = 0; a < texts.length; a++)
        for (var b = a + 1; b < texts.length; b++)
          if (quadsOverlap(texts[a].q, texts[b].q))
            problems.push("text over text: \u201c" + texts[a].s + "\u201d and \u201c" + texts[b].s + "\u201d");
      /* Opaque boxes: a label on its own box hides what is drawn before the box. */
      var boxes = Array.prototype.filter.call(svg.querySelectorAll("rect"), function (r) {
        var f = getComputedStyle(r).fill;
        return !r.closest("defs, pattern") && f !== "none" && !/rgba\(.*, 0\)$/.test(f) && parseFloat(getComputedStyle(r).fillOpacity) === 1;
      }).map(function (r) { return { el: r, r: rect(r) }; });
      function hiddenBehindBox(line, quad) {
        return boxes.some(function (b) {
          return (line.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING) &&
            quad.every(function (p) { return p.x >= b.r.left - 0.5 && p.x <= b.r.right + 0.5 && p.y >= b.r.top - 0.5 && p.y <= b.r.bottom + 0.5; });
        });
      }
      Array.prototype.forEach.call(svg.querySelectorAll("line, path, polyline"), function (g) {
        if (g.closest("defs, pattern, marker, clipPath, symbol")) return;
        var st = getComputedStyle(g);
        if (st.stroke === "none" || parseFloat(st.strokeWidth) === 0 || st.visibility === "hidden") return;
        /* A faint line (a plot's grid) under a label leaves it legible. */
        var rgb = (st.stroke.match(/[\d.]+/g) || [0, 0, 0]).map(Number);
        if ((0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255 > 0.7 || parseFloat(st.strokeOpacity) < 0.5) return;
        var len = 0;
        try { len = g.getTotalLength(); } catch (e) { return; }
        var m = g.getScreenCTM();
        if (!m || !len) return;
        for (var d = 0; d <= len; d += 2) {
          var p = g.getPointAtLength(d), q = new DOMPoint(p.x, p.y).matrixTransform(m);
          for (var k = 0; k < texts.length; k++) {
            if (inQuad(texts[k].core, q.x, q.y) && !hiddenBehindBox(g, texts[k].q)) {
              problems.push("a line runs through \u201c" + texts[k].s + "\u201d");
              d = len + 1;
              break;
            }
          }
        }
      });
      problems.forEach(function (p) { out.push(name + ": " + p); });
    });
    return out;
  }

  /* The search results panel after typing `query`: its box in the window. */
  function searchPanel(query) {
    search(query);
    var box = document.getElementById("search-results"), r = rect(box);
    return { shown: visible(box), left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top),
             bottom: Math.round(r.bottom), width: window.innerWidth, height: window.innerHeight,
             titles_cut: Array.prototype.filter.call(box.querySelectorAll("strong"), function (s) {
               var q = rect(s); return q.left < 0 || q.right > window.innerWidth; }).length };
  }

  /* Scroll so that heading number k (h2) is at the top; then which section the outline and the
     sidebar mark. */
  function outlineAt(k) {
    var heads = document.querySelectorAll("main h2[id]"), h = heads[k];
    if (!h) return null;
    window.scrollTo(0, window.scrollY + rect(h).top - 60);
    window.dispatchEvent(new Event("scroll"));
    return new Promise(function (done) {
      requestAnimationFrame(function () { requestAnimationFrame(function () {
        var cur = document.querySelector("nav.page-outline li.current > a"), side = document.querySelector("#sidebar li.current-section > a");
        done({ want: h.id, outline: cur ? cur.getAttribute("href").slice(1) : null, sidebar: side ? side.getAttribute("href").slice(1) : null,
               /* at the foot of a short page the heading cannot reach the top: a later one may be marked */
               at_end: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2 });
      }); });
    });
  }

  return { layout: layout, search: search, searchPanel: searchPanel, outlineAt: outlineAt, landing: landing, indexWords: indexWords, svgFigures: svgFigures };
})();
