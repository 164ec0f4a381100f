/* probe.js: injected by check_browser.sh into a copy of each site page: after load it measures
   what a reader meets and writes the results on <html data-probe="...">, for --dump-dom. */
window.addEventListener("load", function () {
  var out = {}, imgs = document.images, bad = [], small = [];
  for (var i = 0; i < imgs.length; i++) {
    var r = imgs[i].getBoundingClientRect();
    if (!imgs[i].complete || imgs[i].naturalWidth === 0 || r.width < 8 || r.height < 8)
      bad.push(imgs[i].alt.slice(0, 40) || ("image " + i));
    var font = parseFloat(imgs[i].getAttribute("data-min-font") || "0");
    if (font && imgs[i].naturalWidth && r.width / imgs[i].naturalWidth * font < 8.5)
      small.push((r.width / imgs[i].naturalWidth * font).toFixed(1) + "px: " + imgs[i].alt.slice(0, 30));
  }
  out.images = imgs.length;
  out.broken = bad;
  out.small_labels = small;
  out.code_blocks = document.querySelectorAll("main pre").length;
  out.copy_buttons = document.querySelectorAll("main .copy-code").length;
  var side = document.getElementById("sidebar").getBoundingClientRect();
  out.sidebar_visible = side.right > 1 && side.left < window.innerWidth;
  var first = document.querySelector("main h1, main p");
  out.text_top = first ? Math.round(first.getBoundingClientRect().top) : -1;
  out.viewport = [window.innerWidth, window.innerHeight];
  out.wider_than_viewport = document.documentElement.scrollWidth > window.innerWidth + 1;
  /* The page was opened with ?q=WORD: book.js has searched for it already. */
  out.search_hits = document.querySelectorAll("#search-results li").length;
  var link = document.querySelector("#search-results li a");
  out.search_first = link ? link.getAttribute("href") : "";
  document.documentElement.setAttribute("data-probe", JSON.stringify(out));
});
