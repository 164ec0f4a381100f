/* book.js: the site's reader features: the chapter menu on small screens, copy buttons on code
   blocks, and search across every chapter (index in search-index.js, made by site.py). */
(function () {
  "use strict";

  /* The menu button opens and closes the sidebar (without JavaScript it links to the contents). */
  function setupMenu() {
    var button = document.querySelector(".menu-toggle");
    var sidebar = document.getElementById("sidebar");
    if (!button || !sidebar) return;
    button.addEventListener("click", function (e) {
      e.preventDefault();
      var open = document.body.classList.toggle("sidebar-open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
    sidebar.addEventListener("click", function (e) {
      if (e.target.closest("a")) document.body.classList.remove("sidebar-open");
    });
    var current = sidebar.querySelector(".current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  /* A copy button on every code block; it copies the code exactly as shown. */
  function setupCopy() {
    var blocks = document.querySelectorAll("main pre");
    Array.prototype.forEach.call(blocks, function (pre) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy this code");
      button.addEventListener("click", function () {
        var text = pre.querySelector("code") ? pre.querySelector("code").innerText : pre.innerText;
        copyText(text.replace(/\n$/, ""), function (ok) {
          button.textContent = ok ? "Copied" : "Select and copy";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        });
      });
      var holder = pre.parentNode.classList.contains("sourceCode") ? pre.parentNode : pre;
      holder.classList.add("has-copy");
      holder.insertBefore(button, holder.firstChild);
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

  /* Search: every word of the query must occur in a section; titles weigh more than text. */
  function search(query) {
    var index = window.BOOK_SEARCH_INDEX || [];
    var phrase = query.toLowerCase().trim().replace(/\s+/g, " ");
    var words = phrase.split(" ").filter(function (w) { return w.length > 0; });
    if (!words.length) return [];
    var hits = [];
    index.forEach(function (entry) {
      var title = entry.t.toLowerCase(), text = entry.x.toLowerCase(), score = 0;
      /* The whole query as a phrase counts most; the chapters before the solutions. */
      if (words.length > 1) score += (title.indexOf(phrase) >= 0 ? 30 : 0) + Math.min(count(text, phrase), 5) * 3;
      if (/\bSolutions$/.test(entry.p)) score -= 15;
      for (var i = 0; i < words.length; i++) {
        var inTitle = title.indexOf(words[i]) >= 0, n = count(text, words[i]);
        if (!inTitle && !n) return;
        score += (inTitle ? 20 : 0) + Math.min(n, 10);
      }
      hits.push({ entry: entry, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits.slice(0, 20);
  }

  function count(text, word) {
    var n = 0, at = text.indexOf(word);
    while (at >= 0) { n++; at = text.indexOf(word, at + word.length); }
    return n;
  }

  /* A short piece of the section's text around the first match, the match in <mark>. */
  function snippet(text, words) {
    var lower = text.toLowerCase(), word = words.join(" "), at = lower.indexOf(word);
    for (var i = 0; i < words.length && at < 0; i++) { at = lower.indexOf(words[i]); word = words[i]; }
    if (at < 0) return document.createTextNode(text.slice(0, 140));
    var start = Math.max(0, at - 60), end = Math.min(text.length, at + word.length + 80);
    var span = document.createElement("span");
    span.appendChild(document.createTextNode((start > 0 ? "…" : "") + text.slice(start, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    span.appendChild(mark);
    span.appendChild(document.createTextNode(text.slice(at + word.length, end) + (end < text.length ? "…" : "")));
    return span;
  }

  function setupSearch() {
    var input = document.getElementById("search-input");
    var box = document.getElementById("search-results");
    if (!input || !box) return;
    function show() {
      var q = input.value.trim();
      box.innerHTML = "";
      if (!q) { box.hidden = true; return; }
      var words = q.toLowerCase().split(/\s+/), hits = search(q);
      var head = document.createElement("p");
      head.className = "search-count";
      head.textContent = hits.length ? hits.length + (hits.length === 20 ? "+" : "") + " sections" : "Nothing found for “" + q + "”";
      box.appendChild(head);
      var list = document.createElement("ol");
      hits.forEach(function (h) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = h.entry.u;
        var t = document.createElement("strong");
        t.textContent = h.entry.t;
        var where = document.createElement("small");
        where.textContent = h.entry.p;
        a.appendChild(t);
        a.appendChild(where);
        var p = document.createElement("p");
        p.appendChild(snippet(h.entry.x, words));
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

  document.addEventListener("DOMContentLoaded", function () {
    setupMenu();
    setupCopy();
    setupSearch();
  });
})();
