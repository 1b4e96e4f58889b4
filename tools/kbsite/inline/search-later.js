// Inlined at the top of every page's <head> (tools/kbsite/inline.py), before the theme's bundle runs: the
// bundle requests the search index as soon as it starts, where it would compete with the page and the
// first evidence a reader opens. This holds that request, and the start of its worker, back until the reader reaches for search
// (the box or its button focused, pressed or pointed at, or the theme's keys f, s, /) or until a few
// seconds after `load`, whichever comes first.
// The index holds the pages (kbsite/searchwords.py); the claims' own entries are a second file beside it,
// fetched once the pages' index has come and the reader has reached for search, while the worker sets up
// the pages. Once that is done, and the bundle has asked its first query, they are handed to the theme's
// search worker as a new set-up of pages and claims together (the bundle waits only for the first
// "ready", and shows every result the worker sends), and the query in the box is asked again, so that its
// results gain the claims in place.
(function () {
  var send = XMLHttpRequest.prototype.send, open = XMLHttpRequest.prototype.open, waiting = [], released = false;
  var indexUrl = null, indexIn = false, wanted = false, claims = null, setUp = null, added = false, Native = window.Worker;
  var SETUP = 0, READY = 1, QUERY = 2, LATER_MS = 3000;
  function release() {
    if (released) return;
    released = true;
    waiting.forEach(function (go) { go(); });
    waiting = [];
  }
  // The theme's worker, started when the index is released: until then a stand-in keeps the bundle's
  // messages and listeners (it only posts messages and listens for "message"), so that the worker's
  // script is not fetched beside a page's first evidence either.
  function later(url, options) {
    var stand = new EventTarget(), queue = [], real = null;
    stand.postMessage = function (message) { if (real) real.postMessage(message); else queue.push(message); };
    stand.terminate = function () { if (real) real.terminate(); queue = []; };
    waiting.unshift(function () {
      real = new Native(url, options);
      real.addEventListener("message", function (event) { stand.dispatchEvent(new MessageEvent("message", {data: event.data})); });
      real.addEventListener("error", function () { stand.dispatchEvent(new Event("error")); });
      queue.forEach(function (message) { real.postMessage(message); });
      queue = [];
    });
    return stand;
  }
  XMLHttpRequest.prototype.open = function (method, url) {
    this.kbIndex = /\/search\/search_index\.json$/.test(String(url).split("?")[0]);
    if (this.kbIndex) indexUrl = new URL(url, location.href);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (request.kbIndex) request.addEventListener("load", function () { indexIn = true; fetchClaims(); });
    if (!request.kbIndex || released) return send.apply(request, args);
    waiting.push(function () { send.apply(request, args); });
  };
  // The claims, once: fetched when the pages' index is in and the reader wants search, handed over when
  // the worker is ready (`setUp`: how to send it a message, and the set-up the bundle sent it).
  function fetchClaims() {
    if (claims || !wanted || !indexIn) return;
    claims = fetch(new URL("search_claims.json", indexUrl)).then(function (response) { return response.json(); });
    addClaims();
  }
  function addClaims() {
    if (added || !claims || !setUp) return;
    added = true;
    claims.then(function (more) {
      var data = setUp.data;
      setUp.send({type: SETUP, data: {config: data.config, docs: data.docs.concat(more.docs), options: data.options}});
    }).catch(function () {});  // without them the pages' search goes on as it was
  }
  function watch(worker) {
    var post = worker.postMessage, sent = null, ready = 0;
    worker.postMessage = function (message) {
      if (message && message.type === SETUP && !sent) sent = message.data;
      return post.apply(worker, arguments);
    };
    worker.addEventListener("message", function (event) {
      if (!event.data || event.data.type !== READY || !sent) return;
      ready += 1;
      // After the bundle's own listener, which asks the first query: the first answer comes from the pages.
      if (ready === 1) { setUp = {send: function (message) { post.call(worker, message); }, data: sent}; setTimeout(addClaims, 0); return; }
      var box = document.querySelector("input.md-search__input");
      if (box && box.value) setUp.send({type: QUERY, data: box.value});
    });
  }
  if (Native) {
    // Only the first search worker is the theme's; one a test starts itself is left alone.
    window.Worker = function (url, options) {
      if (watch.done || !/\/workers\/search\.[^/]*\.js$/.test(String(url).split("?")[0])) return new Native(url, options);
      watch.done = true;
      var worker = released ? new Native(url, options) : later(url, options);
      watch(worker);
      return worker;
    };
    window.Worker.prototype = Native.prototype;
  }
  function intent(event) {
    var target = event.target;
    if (event.type === "keydown" ? /^[fs/]$/.test(event.key) && !(target.closest && target.closest("input, textarea, select"))
        : target.closest && target.closest(".md-search, label[for='__search']")) { wanted = true; release(); fetchClaims(); }
  }
  ["pointerover", "pointerdown", "focusin", "keydown"].forEach(function (type) {
    document.addEventListener(type, intent, {capture: true, passive: true});
  });
  // Unasked, it comes a while after `load`, so that it does not share the line with the evidence a reader
  // opens first (site_bench.py counts the bytes before that panel).
  addEventListener("load", function () { setTimeout(release, LATER_MS); });
})();
