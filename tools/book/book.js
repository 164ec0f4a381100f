/* book.js: the site's reader features: the chapter menu on small screens (Esc or a tap outside
   closes it), ← and → for the previous and next chapter, a theme toggle (system, light, dark),
   copy buttons on code blocks, tables and figures that say they scroll, solutions that open when linked to
   or printed, and search across every chapter (index in search-index.js, made by site.py):
   results land on their section, with the query marked there; a misspelt word ("barier") finds
   the words one or two letters away. */
(function () {
  "use strict";

  /* The menu button opens and closes the sidebar (without JavaScript it links to the contents). */
  function setupMenu() {
    var button = document.querySelector(".menu-toggle");
    var sidebar = document.getElementById("sidebar");
    if (!button || !sidebar) return;
    function set(open) {
      document.body.classList.toggle("sidebar-open", open);
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    button.addEventListener("click", function (e) {
      e.preventDefault();
      var open = !document.body.classList.contains("sidebar-open");
      set(open);
      if (open) { var first = sidebar.querySelector(".current a, a"); if (first) first.focus({ preventScroll: true }); }
    });
    sidebar.addEventListener("click", function (e) {
      if (e.target.closest("a")) set(false);
    });
    document.addEventListener("click", function (e) {   /* a tap outside closes it */
      if (document.body.classList.contains("sidebar-open") && !e.target.closest("#sidebar, .menu-toggle")) set(false);
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && document.body.classList.contains("sidebar-open")) { set(false); button.focus(); }
    });
    var current = sidebar.querySelector(".current");
    if (current && current.scrollIntoView && sidebar.scrollHeight > sidebar.clientHeight) {
      sidebar.scrollTop = Math.max(0, current.offsetTop - sidebar.clientHeight / 3);
    }
  }

  /* ← and → go to the previous and next chapter, as in mdBook (not while typing, nor with a
     modifier key, nor when the page itself scrolls sideways there). */
  function setupKeys() {
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
      var el = document.activeElement || {};
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName || "") || el.isContentEditable) return;
      if (el.closest && el.closest(".scroll-x, #search-results")) return;
      var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : "";
      var link = rel && document.querySelector('.prev-next a[rel="' + rel + '"]');
      if (link) { e.preventDefault(); window.location.href = link.href; }
    });
  }

  /* The theme: the system's until the reader picks light or dark; the choice is remembered. */
  function setupTheme() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    var root = document.documentElement, order = ["system", "light", "dark"];
    var icons = { system: "\u25D0", light: "\u2600", dark: "\u263E" };
    var names = { system: "the system's", light: "light", dark: "dark" };
    function current() { return root.getAttribute("data-theme") || "system"; }
    function show() {
      var now = current(), next = order[(order.indexOf(now) + 1) % order.length];
      button.querySelector(".theme-icon").textContent = icons[now];
      button.title = "Theme: " + names[now] + "; click for " + names[next];
      button.setAttribute("aria-label", button.title);
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      var next = order[(order.indexOf(current()) + 1) % order.length];
      if (next === "system") root.removeAttribute("data-theme"); else root.setAttribute("data-theme", next);
      try { if (next === "system") localStorage.removeItem("book-theme"); else localStorage.setItem("book-theme", next); } catch (e) {}
      show();
    });
    show();
  }

  /* A copy button on every code block; it copies the code exactly as written. */
  function setupCopy() {
    Array.prototype.forEach.call(document.querySelectorAll("main pre"), function (pre) {
      var frame = pre.closest(".code");
      if (!frame) {   /* a block site.py did not frame: frame it here */
        frame = document.createElement("div");
        frame.className = "code";
        var holder = pre.parentNode.classList.contains("sourceCode") ? pre.parentNode : pre;
        holder.parentNode.insertBefore(frame, holder);
        frame.appendChild(holder);
      }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy this code");
      button.addEventListener("click", function () {
        var code = pre.querySelector("code") || pre;
        copyText(code.textContent.replace(/\n$/, ""), function (ok) {
          button.textContent = ok ? "Copied" : "Select and copy";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        });
      });
      frame.classList.add("has-copy");
      frame.insertBefore(button, frame.firstChild);
    });
  }

  function copyText(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
      return;
    }
    var area = document.createElement("textarea");  /* file:// pages: the older way */
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    done(ok);
  }

  /* A table wider than its column gets .overflows (site.css draws shadows at its edges) and a
     line under it that says it scrolls. */
  function setupScrollers() {
    var boxes = document.querySelectorAll(".table-wrap");
    Array.prototype.forEach.call(boxes, function (box) {
      var hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.setAttribute("aria-hidden", "true");
      hint.textContent = "\u2194 The table is wider than the column: scroll it sideways.";
      box.parentNode.insertBefore(hint, box.nextSibling);
    });
    function measure() {
      Array.prototype.forEach.call(boxes, function (box) {
        box.classList.toggle("overflows", box.scrollWidth > box.clientWidth + 1);
      });
    }
    measure();
    window.addEventListener("resize", measure);
    window.addEventListener("load", measure);   /* figures have their width once loaded */
  }

  /* A link to a solution opens its box (the heading is just above the closed <details>); so
     does printing the page. */
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return null;
    var box = target.closest("details");
    if (!box) {
      var head = target.closest(".solution-head, section") || target;
      var next = head.nextElementSibling;
      if (next && next.tagName === "DETAILS") box = next;
    }
    if (box && !box.open) box.open = true;
    return target;
  }

  /* "On this page" and the sidebar mark the section on screen: the last heading above a line
     just under the top bar. The outline is open where it stands in the margin. */
  function setupOutline() {
    var nav = document.querySelector("nav.page-outline");
    if (!nav) return;
    var box = nav.querySelector("details"), wide = window.matchMedia("(min-width: 1500px)");
    function place() { if (wide.matches) box.open = true; }
    place();
    if (wide.addEventListener) wide.addEventListener("change", place);
    var links = Array.prototype.slice.call(nav.querySelectorAll("a[href^='#']"));
    var side = Array.prototype.slice.call(document.querySelectorAll("#sidebar li.current li > a[href^='#']"));
    var heads = links.map(function (a) { return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))); });
    var shown = null;
    function update() {
      var line = Math.min(window.innerHeight / 3, 120), at = -1;   /* just under the top bar */
      for (var i = 0; i < heads.length; i++) {
        if (heads[i] && heads[i].getBoundingClientRect().top <= line) at = i; else if (heads[i]) break;
      }
      var id = at >= 0 ? heads[at].id : null;
      if (id === shown) return;
      shown = id;
      links.forEach(function (a, i) { a.parentNode.classList.toggle("current", i === at); });
      /* the sidebar lists the sections (h2): the current one is the last h2 at or above */
      var top = null;
      for (var k = at; k >= 0; k--) if (heads[k] && heads[k].tagName === "H2") { top = heads[k].id; break; }
      side.forEach(function (a) { a.parentNode.classList.toggle("current-section", a.getAttribute("href") === "#" + top); });
      var cur = at >= 0 && links[at];
      if (cur && wide.matches && nav.scrollHeight > nav.clientHeight) {
        var r = cur.getBoundingClientRect(), n = nav.getBoundingClientRect();
        if (r.top < n.top || r.bottom > n.bottom) nav.scrollTop += r.top - n.top - n.height / 3;
      }
    }
    var pending = false;
    window.addEventListener("scroll", function () {
      if (!pending) { pending = true; window.requestAnimationFrame(function () { pending = false; update(); }); }
    }, { passive: true });
    window.addEventListener("resize", update);
    window.addEventListener("load", update);
    update();
  }

  /* A solution's summary says what a click does: "Show the solution", "Hide the solution". */
  function setupSummaries() {
    Array.prototype.forEach.call(document.querySelectorAll("details.solution"), function (d) {
      var s = d.querySelector("summary");
      if (!s) return;
      function label() { s.textContent = (d.open ? "Hide" : "Show") + " the solution"; }
      d.addEventListener("toggle", label);
      label();
    });
  }

  function setupSolutions() {
    window.addEventListener("hashchange", function () {
      var t = openTarget();
      if (t) t.scrollIntoView();
    });
    var opened = [];
    window.addEventListener("beforeprint", function () {
      Array.prototype.forEach.call(document.querySelectorAll("details.solution:not([open])"), function (d) {
        d.open = true;
        opened.push(d);
      });
    });
    window.addEventListener("afterprint", function () {
      opened.forEach(function (d) { d.open = false; });
      opened = [];
    });
  }

  /* Search: every word of the query must occur in a section; titles weigh more than text. A word
     found nowhere is replaced by the index's words within one or two edits of it. */
  var vocabulary = null;

  function words(text) {
    return text.toLowerCase().match(/[a-z0-9_][a-z0-9_.:-]*[a-z0-9_]|[a-z0-9_]/g) || [];
  }

  function vocab() {
    if (vocabulary) return vocabulary;
    var seen = {};
    vocabulary = [];
    (window.BOOK_SEARCH_INDEX || []).forEach(function (e) {
      words(e.t + " " + e.x).forEach(function (w) {
        if (!seen[w] && w.length >= 3 && w.length <= 30) { seen[w] = true; vocabulary.push(w); }
      });
    });
    return vocabulary;
  }

  /* Damerau-Levenshtein distance of a and b, or limit + 1 once it is certain to exceed limit. */
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev2 = null, prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      var row = [i], best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
        row.push(d);
        if (d < best) best = d;
      }
      if (best > limit) return limit + 1;
      prev2 = prev;
      prev = row;
    }
    return prev[b.length];
  }

  /* The index's words close to `word` (the closest first), for a word found nowhere. */
  function nearWords(word) {
    if (word.length < 4) return [];
    var limit = word.length >= 8 ? 2 : 1, found = [];
    vocab().forEach(function (w) {
      var d = distance(word, w, limit);
      if (d <= limit) found.push({ w: w, d: d });
    });
    found.sort(function (a, b) { return a.d - b.d || a.w.length - b.w.length; });
    return found.slice(0, 6).map(function (f) { return f.w; });
  }

  function count(text, word) {
    var n = 0, at = text.indexOf(word);
    while (at >= 0) { n++; at = text.indexOf(word, at + word.length); }
    return n;
  }

  /* Hits for a list of alternatives per query word: [[w1, w1a, ...], [w2, ...]]. */
  function rank(alternatives, phrase) {
    var hits = [];
    (window.BOOK_SEARCH_INDEX || []).forEach(function (entry) {
      var title = entry.t.toLowerCase(), text = entry.x.toLowerCase(), score = 0;
      /* The whole query as a phrase counts most; the chapters before the solutions. */
      if (phrase && alternatives.length > 1) score += (title.indexOf(phrase) >= 0 ? 30 : 0) + Math.min(count(text, phrase), 5) * 3;
      if (/\bSolutions$/.test(entry.p)) score -= 15;
      for (var i = 0; i < alternatives.length; i++) {
        var best = 0;
        for (var k = 0; k < alternatives[i].length; k++) {
          var w = alternatives[i][k], inTitle = title.indexOf(w) >= 0, n = count(text, w);
          if (inTitle || n) best = Math.max(best, (inTitle ? 20 : 0) + Math.min(n, 10) - k);
        }
        if (!best) return;
        score += best;
      }
      hits.push({ entry: entry, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits;
  }

  /* { hits, words (what was searched for, misspellings replaced), fuzzy }. */
  function search(query) {
    var phrase = query.toLowerCase().trim().replace(/\s+/g, " ");
    var list = phrase.split(" ").filter(function (w) { return w.length > 0; });
    if (!list.length) return { hits: [], words: [], fuzzy: false };
    var hits = rank(list.map(function (w) { return [w]; }), phrase);
    if (hits.length) return { hits: hits, words: list, fuzzy: false };
    /* Nothing: each word that occurs nowhere gets its near words instead. */
    var all = (window.BOOK_SEARCH_INDEX || []).map(function (e) { return (e.t + " " + e.x).toLowerCase(); }).join("\n");
    var alternatives = list.map(function (w) {
      if (all.indexOf(w) >= 0) return [w];
      var near = nearWords(w);
      return near.length ? near : [w];
    });
    hits = rank(alternatives, "");
    return { hits: hits, words: alternatives.map(function (a) { return a[0]; }), fuzzy: hits.length > 0 };
  }

  /* A short piece of the section's text around the first match, the match in <mark>. */
  function snippet(text, list) {
    var lower = text.toLowerCase(), word = list.join(" "), at = lower.indexOf(word);
    for (var i = 0; i < list.length && at < 0; i++) { at = lower.indexOf(list[i]); word = list[i]; }
    if (at < 0) return document.createTextNode(text.slice(0, 140) + (text.length > 140 ? "…" : ""));
    var start = Math.max(0, at - 60), end = Math.min(text.length, at + word.length + 80);
    var span = document.createElement("span");
    span.appendChild(document.createTextNode((start > 0 ? "…" : "") + text.slice(start, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    span.appendChild(mark);
    span.appendChild(document.createTextNode(text.slice(at + word.length, end) + (end < text.length ? "…" : "")));
    return span;
  }

  /* The result's address: its page and section, and the words to mark there. */
  function resultHref(url, list) {
    var hash = url.indexOf("#"), page = hash >= 0 ? url.slice(0, hash) : url, frag = hash >= 0 ? url.slice(hash) : "";
    return page + "?highlight=" + encodeURIComponent(list.join(" ")) + frag;
  }

  var MAX_HITS = 20;

  function setupSearch() {
    var input = document.getElementById("search-input");
    var box = document.getElementById("search-results");
    if (!input || !box) return;
    function show() {
      var q = input.value.trim();
      box.innerHTML = "";
      if (!q) { box.hidden = true; return; }
      var found = search(q), hits = found.hits.slice(0, MAX_HITS);
      var head = document.createElement("p");
      head.className = "search-count";
      var n = found.hits.length;
      head.textContent = !n ? "Nothing found for “" + q + "”"
        : (n > MAX_HITS ? MAX_HITS + " of " + n + " sections" : n + (n === 1 ? " section" : " sections"))
          + (found.fuzzy ? " for “" + found.words.join(" ") + "” (nothing has “" + q + "”)" : "");
      box.appendChild(head);
      var list = document.createElement("ol");
      hits.forEach(function (h) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = resultHref(h.entry.u, found.words);
        var t = document.createElement("strong");
        t.textContent = h.entry.t;
        var where = document.createElement("small");
        where.textContent = h.entry.p;
        a.appendChild(t);
        a.appendChild(where);
        var p = document.createElement("p");
        p.appendChild(snippet(h.entry.x, found.words));
        a.appendChild(p);
        li.appendChild(a);
        list.appendChild(li);
      });
      box.appendChild(list);
      box.hidden = false;
    }
    input.addEventListener("input", show);
    input.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { input.value = ""; show(); input.blur(); }
      if (e.key === "Enter") {
        var first = box.querySelector("a");
        if (first) window.location.href = first.href;
      }
      if (e.key === "ArrowDown") {
        var a = box.querySelector("a");
        if (a) { e.preventDefault(); a.focus(); }
      }
    });
    /* Arrow keys move through the results; Escape goes back to the box. */
    box.addEventListener("keydown", function (e) {
      var links = Array.prototype.slice.call(box.querySelectorAll("a"));
      var at = links.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && at + 1 < links.length) { e.preventDefault(); links[at + 1].focus(); }
      if (e.key === "ArrowUp") { e.preventDefault(); (at > 0 ? links[at - 1] : input).focus(); }
      if (e.key === "Escape") { input.focus(); }
    });
    document.addEventListener("keydown", function (e) {
      var typing = /^(INPUT|TEXTAREA)$/.test((document.activeElement || {}).tagName || "");
      if (e.key === "/" && !typing) { e.preventDefault(); input.focus(); }
    });
    document.addEventListener("click", function (e) {
      if (!e.target.closest(".search")) box.hidden = true;
    });
    input.addEventListener("focus", function () { if (input.value.trim()) show(); });
    var q = new URLSearchParams(window.location.search).get("q");  /* index.html?q=mapa */
    if (q) { input.value = q; show(); }
  }

  /* A button that takes the search marks off the page (and the words out of its address). */
  function clearButton(list) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "clear-hits";
    b.textContent = "\u2715 Clear the marks for \u201c" + list.join(" ") + "\u201d";
    b.addEventListener("click", function () {
      Array.prototype.forEach.call(document.querySelectorAll("mark.search-hit"), function (m) {
        m.parentNode.replaceChild(document.createTextNode(m.textContent), m);
      });
      document.getElementById("content").normalize();
      b.remove();
      try {
        var u = new URL(window.location.href);
        u.searchParams.delete("highlight");
        history.replaceState(null, "", u.pathname.split("/").pop() + u.search + u.hash);
      } catch (e) {}
    });
    document.body.appendChild(b);
  }

  /* Opened from a search result (page.html?highlight=words#section): mark the words in the text
     and bring the section into view (opening a closed solution first). */
  function markHighlight() {
    var q = new URLSearchParams(window.location.search).get("highlight");
    var target = openTarget();
    if (q) {
      var list = q.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 1; });
      var main = document.getElementById("content");
      if (list.length && main) {
        var pattern = new RegExp("(" + list.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|") + ")", "gi");
        var walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {
          acceptNode: function (n) {
            return n.parentNode.closest("script, style, mark, .anchor, .prev-next") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
          }
        });
        var nodes = [], n;
        while ((n = walker.nextNode())) { pattern.lastIndex = 0; if (pattern.test(n.nodeValue)) nodes.push(n); }
        nodes.forEach(function (node) {
          var parts = node.nodeValue.split(pattern), frag = document.createDocumentFragment();
          parts.forEach(function (part, i) {
            if (i % 2) { var m = document.createElement("mark"); m.className = "search-hit"; m.textContent = part; frag.appendChild(m); }
            else if (part) frag.appendChild(document.createTextNode(part));
          });
          node.parentNode.replaceChild(frag, node);
        });
        if (nodes.length) clearButton(list);
      }
    }
    if (target) {
      target.scrollIntoView();
      /* Figures above it may load later and push it down: bring it back once they have. */
      window.addEventListener("load", function () { if (window.scrollY > 0 || !q) target.scrollIntoView(); });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupMenu();
    setupKeys();
    setupTheme();
    setupCopy();
    setupScrollers();
    setupSolutions();
    setupSummaries();
    setupOutline();
    setupSearch();
    markHighlight();
  });
})();
