// Reading aids for pages rendered from the records. No request leaves the site.
//
// What waits for this script, so that pages stay light: the claims of an engine page's topics (in the
// page's piece, kb-pieces.js, until the topic nears the screen; all but the list holding the page's first
// cites panel, which stays in the page), a model row's claim (in its <details>),
// what a verdict cell's evidence and a claim's cites draw (the page's evidence file, kb-panels.js), the
// text a reference to a claim shows on hover, and the explorer's rows (downloads/claims.json,
// kb-explorer.js). The matrices' picker and cue are in kb-matrix.js; what they share, in kb-core.js. The explorer's,
// the matrices', the grid's and the diagrams' scripts come only with the pages that use them.
// When it has set everything up it sets the performance mark `kb-ready` (benchmarks/site_bench.py reads it).
(function () {
  "use strict";
  var kb = window.kb, element = kb.element, evidence = kb.evidence;

  // Content waiting in a <template>: a topic's claims, a model row's claim.
  function renderTemplate(template) {
    var holder = template.parentNode;
    holder.replaceChild(template.content, template);
    holder.classList.remove("kb-later");
    holder.dispatchEvent(new CustomEvent("kb:drawn", {bubbles: true}));  // report.js adds its links
  }

  // A waiting claim list: in its page's piece (kb-pieces.js), or in a <template> of its own.
  function renderSection(section) {
    if (section.dataset.piece) return window.kbPieces.fill(section);
    if (section.firstElementChild && section.firstElementChild.tagName === "TEMPLATE") renderTemplate(section.firstElementChild);
    return Promise.resolve();
  }

  function renderLater() {
    var later = document.querySelectorAll("section.kb-later");
    if (!later.length) return;
    if (!("IntersectionObserver" in window)) { later.forEach(renderSection); return; }
    // One list at a time, in page order: empty lists stack where they wait, so many seem near at first;
    // once the first is drawn, the others near it are asked again (observing anew reports where they now are).
    var observer = new IntersectionObserver(function (entries) {
      var near = entries.filter(function (entry) { return entry.isIntersecting; }).map(function (entry) { return entry.target; });
      if (!near.length) return;
      near.sort(function (a, b) { return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1; });
      observer.unobserve(near[0]);
      function again() {
        near.slice(1).forEach(function (section) {
          if (!section.classList.contains("kb-later")) return;
          observer.unobserve(section);
          observer.observe(section);
        });
      }
      renderSection(near[0]).then(again, again);
    }, {rootMargin: "1200px 0px"});
    later.forEach(function (section) { observer.observe(section); });
  }

  function renderAllLater() {
    document.querySelectorAll("section.kb-later").forEach(renderSection);
  }

  // One handler for every <details> the pages use: render what waits, draw what is read from claims.json.
  function onToggle(event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open || details.dataset.kbDrawn) return;
    details.dataset.kbDrawn = "1";
    var template = details.querySelector(":scope > template");
    if (template) renderTemplate(template);
    details.querySelectorAll("section.kb-later").forEach(renderSection);  // a model row's claim
    if (details.dataset.evidence !== undefined) kb.drawEvidence(details);
    if (details.dataset.rows !== undefined) kb.drawLegend(details);
    if (details.classList.contains("kb-cites")) kb.drawCites(details);
  }

  // Engine and report pages: show only Verified claims, and fold topics.
  var foldTopic = function () {};
  function topicTools() {
    var topics = document.querySelectorAll(".md-content .kb-topic");
    if (!topics.length) return;
    var bar = element("div", "kb-toolbar");
    bar.innerHTML =
      '<label><input type="checkbox" class="kb-verified-only"> Verified claims only</label> ' +
      '<button type="button" class="md-button kb-fold-all">Fold all topics</button> ' +
      '<button type="button" class="md-button kb-open-all">Open all topics</button>';
    var first = document.querySelector(".md-content .kb-claims, .md-content .kb-topic");
    first.parentNode.insertBefore(bar, first);
    bar.querySelector(".kb-verified-only").addEventListener("change", function (event) {
      document.body.classList.toggle("kb-only-verified", event.target.checked);
    });
    foldTopic = function (heading, folded) {
      heading.classList.toggle("kb-folded", folded);
      heading.querySelector(".kb-fold").setAttribute("aria-expanded", folded ? "false" : "true");
    };
    // The fold control is a button inside the heading (the heading keeps its permalink, and a
    // heading must not itself be a control holding a link); a click anywhere on the heading folds too.
    topics.forEach(function (heading) {
      var button = element("button", "kb-fold");
      button.type = "button";
      button.setAttribute("aria-label", "Fold or open this topic");
      heading.insertBefore(button, heading.firstChild);
      foldTopic(heading, false);
      heading.addEventListener("click", function (event) {
        if (event.target.closest("a")) return; // the permalink stays a link
        foldTopic(heading, !heading.classList.contains("kb-folded"));
      });
    });
    bar.querySelector(".kb-fold-all").addEventListener("click", function () { topics.forEach(function (h) { foldTopic(h, true); }); });
    bar.querySelector(".kb-open-all").addEventListener("click", function () {
      renderAllLater();
      topics.forEach(function (h) { foldTopic(h, false); });
    });
  }

  // A permalink to something still waiting (a claim in a topic or a model row) renders it, opens
  // its topic or row, and lands on it.
  function openTarget() {
    var id = fragment();
    if (!id) return;
    if (document.getElementById(id)) { land(id, false); return; }
    if (revealWaiting("#" + CSS.escape(id))) { land(id, true); return; }
    window.kbPieces.indexHolding(id).then(function (where) {  // a claim list in one of the page's pieces
      if (!where) return;
      var selector = 'section[data-piece="' + CSS.escape(where.piece) + '"][data-index="' + where.index + '"]';
      revealWaiting(selector);  // the list may wait inside a model row
      var section = document.querySelector(selector);
      return section && renderSection(section).then(function () { land(id, true); });
    });
  }

  // The address's #fragment, decoded; one that does not decode (`#%`) is said on the page and ignored,
  // so that the rest of the page's script still runs.
  function fragment() {
    var raw = location.hash.slice(1);
    try {
      return decodeURIComponent(raw);
    } catch (error) {
      urlProblem("This address ends in #" + raw + ", which is not a link to anything on the page (it does not " +
                 "decode: " + error.message + "); it is ignored.");
      return "";
    }
  }

  // A problem with the address (anyone can write one), shown above the page's content as text.
  function urlProblem(message) {
    var content = document.querySelector(".md-content__inner") || document.body;
    var note = content.querySelector(".kb-url-problem") || element("p", "kb-url-problem");
    note.setAttribute("role", "status");
    note.textContent = message;
    if (!note.parentNode) content.insertBefore(note, content.firstChild);
  }

  // Render the <template> holding `selector` (opening its row), if one does; whether one did.
  function revealWaiting(selector) {
    var template = Array.prototype.find.call(document.querySelectorAll("template"), function (t) {
      return t.content.querySelector(selector);
    });
    if (!template) return false;
    var holder = template.parentNode;
    if (holder instanceof HTMLDetailsElement) { holder.dataset.kbDrawn = "1"; holder.open = true; }
    renderTemplate(template);
    return true;
  }

  function land(id, rendered) {
    var target = document.getElementById(id);
    if (!target) return;
    if (rendered) location.replace(location.href);  // the fragment again, now that it exists: :target applies
    var details = target.closest("details") || target.querySelector(":scope > details.kb-cell, :scope > td > details.kb-cell");
    if (details) details.open = true;
    var claims = target.closest(".kb-claims");
    var heading = claims && claims.previousElementSibling;
    if (heading && heading.classList.contains("kb-topic")) foldTopic(heading, false);
    target.scrollIntoView();
  }

  // A reference to a claim carries its label as its title; its text joins it when a reader points at or
  // focuses it, read from the page's evidence (so the page does not hold every claim's text twice).
  function refTitle(link) {
    if (link.dataset.kbTitled) return;
    link.dataset.kbTitled = "1";
    evidence([link.dataset.ref], false).then(function (data) {
      var claim = data.byId.get(link.dataset.ref), label = data.labels[claim ? claim.label : ""];
      if (claim) link.title = (label ? label.title : claim.label) + ": " + kb.plain(claim.text);
    }, function () { delete link.dataset.kbTitled; });
  }

  // Read a panel's evidence ahead when a reader is about to open it; give a reference its title.
  function prefetchOnIntent() {
    function intent(event) {
      var ref = event.target.closest && event.target.closest("a.kb-ref[data-ref]");
      if (ref) refTitle(ref);
      var details = event.target.closest && event.target.closest("details.kb-cell[data-evidence], details.kb-cites");
      if (!details || details.dataset.kbDrawn) return;
      (details.dataset.claim ? evidence([details.dataset.claim], true) : evidence(kb.idsOf(details), false, kb.rowOf(details))).catch(function () {});
    }
    document.addEventListener("pointerover", intent, {passive: true});
    document.addEventListener("focusin", intent);
  }

  function start() {
    // The theme's search dialog has no accessible name; give it one.
    document.querySelectorAll(".md-search[role=dialog]:not([aria-label])").forEach(function (dialog) {
      dialog.setAttribute("aria-label", "Search");
    });
    document.addEventListener("toggle", onToggle, true);  // toggle does not bubble: listen while capturing
    topicTools();
    if (kb.matrices) { kb.cellIds(); kb.matrices(); }  // kb-matrix.js, on the pages that have matrices
    if (kb.filteredTables) kb.filteredTables();  // kb-explorer.js, on the pages that have such tables
    renderLater();
    openTarget();
    window.addEventListener("hashchange", openTarget);
    prefetchOnIntent();
    (kb.explorer ? kb.explorer() : Promise.resolve()).then(function () { performance.mark("kb-ready"); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
