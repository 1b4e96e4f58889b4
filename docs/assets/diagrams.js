// Diagrams: mermaid (the copy scripts/setup.sh takes from the pinned npm package; no CDN) is imported only
// on a page that draws one, a while after the page has loaded and once a diagram comes into view, so that its few
// hundred kilobytes never hold up the page or compete with the first evidence a reader opens. The theme
// follows the palette the page opens with.
(function () {
  "use strict";

  var diagrams = document.querySelectorAll("div.mermaid");
  if (!diagrams.length) return;
  var config = document.getElementById("__config");
  var base = config ? JSON.parse(config.textContent).base : ".";
  var module = new URL(base.replace(/\/?$/, "/") + "assets/vendor/mermaid/mermaid.esm.min.mjs", location.href).href;
  var mermaid = null;

  function draw(nodes) {
    if (!mermaid) {
      mermaid = import(module).then(function (loaded) {
        var slate = document.body.getAttribute("data-md-color-scheme") === "slate";
        loaded.default.initialize({startOnLoad: false, theme: slate ? "dark" : "default"});
        return loaded.default;
      });
    }
    return mermaid.then(function (m) { return m.run({nodes: nodes}); }).then(function () {
      nodes.forEach(function (node) {  // the width the diagram was laid out at, for a phone's scroll box (kb.css)
        var svg = node.querySelector("svg"), box = svg && svg.viewBox && svg.viewBox.baseVal;
        if (box && box.width) svg.style.setProperty("--kb-natural-width", Math.ceil(box.width) + "px");
      });
    });
  }

  function start() {
    if (!("IntersectionObserver" in window)) { draw(Array.prototype.slice.call(diagrams)); return; }
    var observer = new IntersectionObserver(function (entries) {
      var near = entries.filter(function (entry) { return entry.isIntersecting; }).map(function (entry) { return entry.target; });
      near.forEach(function (node) { observer.unobserve(node); });
      if (near.length) draw(near);
    }, {rootMargin: "0px"});
    diagrams.forEach(function (node) { observer.observe(node); });
  }

  // A while after `load`, so that mermaid's few hundred kilobytes do not share the line with the first
  // evidence a reader opens (site_bench.py counts the bytes before that panel).
  var LATER_MS = 2000;
  if (document.readyState === "complete") setTimeout(start, LATER_MS);
  else addEventListener("load", function () { setTimeout(start, LATER_MS); });
})();
