// Inlined at the top of every page's <head> (tools/kbsite/inline.py), before the theme's bundle runs: the
// bundle requests the search index (a few hundred kilobytes) as soon as it starts, where it would compete
// with the page and the first evidence a reader opens. This holds that one request back until the reader
// reaches for search (the box or its button focused, pressed or pointed at, or the theme's keys f, s, /)
// or until `load`, whichever comes first.
(function () {
  var send = XMLHttpRequest.prototype.send, open = XMLHttpRequest.prototype.open, waiting = [], released = false;
  function release() {
    if (released) return;
    released = true;
    waiting.forEach(function (go) { go(); });
    waiting = [];
  }
  XMLHttpRequest.prototype.open = function (method, url) {
    this.kbIndex = /\/search\/search_index\.json$/.test(String(url).split("?")[0]);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (!request.kbIndex || released) return send.apply(request, args);
    waiting.push(function () { send.apply(request, args); });
  };
  function intent(event) {
    var target = event.target;
    if (event.type === "keydown" ? /^[fs/]$/.test(event.key) && !(target.closest && target.closest("input, textarea, select"))
        : target.closest && target.closest(".md-search, label[for='__search']")) release();
  }
  ["pointerover", "pointerdown", "focusin", "keydown"].forEach(function (type) {
    document.addEventListener(type, intent, {capture: true, passive: true});
  });
  addEventListener("load", function () { setTimeout(release, 0); });
})();
