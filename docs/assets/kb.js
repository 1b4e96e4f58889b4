// Reading aids for pages rendered from the records. No request leaves the site.
//
// What waits for this script, so that pages stay light: the claims of an engine page's topics (in the
// page's piece, kb-pieces.js, until the topic nears the screen), a model row's claim (in its <details>),
// what a verdict cell's evidence and a claim's cites draw (the page's evidence file), and the
// explorer's rows (downloads/claims.json). When it has set everything up it sets the performance mark `kb-ready`
// (benchmarks/site_bench.py reads it).
//
// Matrices — how to use them: give a <table> the class `kb-matrix`, put it in a
// <div class="kb-matrix-scroll">, make its first column the row titles (<th scope="row">) and put
// `data-engine="ID"` on every cell of an engine's column (header and body). kb.css keeps the header
// and first column in view while the box scrolls; this script adds the engine picker (kept in the
// URL as ?engines=a,b, shared by every matrix of the page) and the cue that more columns exist.
(function () {
  "use strict";

  var root = (function () {
    var config = document.getElementById("__config");
    var base = config ? JSON.parse(config.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  })();

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A record's text as nodes: `code` becomes <code>, the emphasis markers are dropped. Never HTML.
  function prose(text) {
    var fragment = document.createDocumentFragment();
    String(text).replace(/\s+/g, " ").split("`").forEach(function (piece, index) {
      if (index % 2) fragment.appendChild(element("code", "", piece));
      else fragment.appendChild(document.createTextNode(piece.replace(/\*\*?(?=\S)(.+?)(?<=\S)\*\*?/g, "$1")));
    });
    return fragment;
  }

  // JSON read once per page and URL; a file the build did not write (404) reads as no claims.
  var read = {};
  function json(url) {
    if (!read[url]) {
      read[url] = fetch(url).then(function (response) {
        if (response.status === 404) return {claims: []};
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        return response.json();
      });
      read[url].catch(function () { delete read[url]; });  // a later tap tries again
    }
    return read[url];
  }

  // The labels by id, the rows' rubrics and the rules by key, and the claims by id.
  function shaped(data, byId) {
    var labels = {}, rows = new Map(), rules = new Map();
    data.labels.forEach(function (label) { labels[label.id] = label; });
    data.rows.forEach(function (row) { rows.set(row.key, row); });
    (data.rules || []).forEach(function (rule) { rules.set(rule.id, rule); });
    return {byId: byId, labels: labels, rows: rows, rules: rules, unknownMeaning: data.unknown_meaning};
  }

  // downloads/claims.json whole (the explorer's rows), with every claim as a list too.
  function claimsData(url) {
    return json(url).then(function (data) {
      var byId = new Map();
      data.claims.forEach(function (claim) { byId.set(claim.id, claim); });
      var all = shaped(data, byId);
      all.claims = data.claims;
      return all;
    });
  }

  // What a panel draws, from the page's evidence folder (tools/kbsite/evidence.py names it in a <meta>):
  // the rubrics, and the claims `ids` (their texts from the engine's file, or with `cites` their cites
  // from the bucket each id hashes to), or, for a cell of matrix row `row`, that row's file. A page
  // without the folder reads downloads/claims.json.
  var META = document.querySelector('meta[name="kb-evidence"]');
  var FOLDER = META && new URL(META.content, location.href).href;
  var BUCKETS = META ? Number(META.dataset.citeBuckets) || 1 : 1;
  function bucketOf(id) {  // as cite_bucket in evidence.py
    var hash = 0;
    for (var i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) % 4294967296;
    return hash % BUCKETS;
  }
  function evidence(ids, cites, row) {
    if (!FOLDER) return claimsData(new URL("downloads/claims.json", root).href);
    if (row) {  // a matrix row's own file: its cells' claims, the labels and its rubric in one request
      return json(FOLDER + "row-" + row + ".json").then(function (data) {
        var byId = new Map();
        data.claims.forEach(function (claim) { byId.set(claim.id, claim); });
        return shaped(data, byId);
      });
    }
    var files = ["rubrics.json"];
    ids.forEach(function (id) {
      var name = cites ? "cites-" + bucketOf(id) + ".json" : id.split("/")[0] + ".json";
      if (files.indexOf(name) === -1) files.push(name);
    });
    return Promise.all(files.map(function (name) { return json(FOLDER + name); })).then(function (parts) {
      var byId = new Map();
      parts.slice(1).forEach(function (part) { part.claims.forEach(function (claim) { byId.set(claim.id, claim); }); });
      return shaped(parts[0], byId);
    });
  }

  function labelBadge(label, labels) {
    var badge = element("span", "kb-label kb-label-" + label);
    var mark = element("span", "", labels[label] ? labels[label].mark : "");
    mark.setAttribute("aria-hidden", "true");
    badge.append(mark, " " + (labels[label] ? labels[label].title : label));
    return badge;
  }

  function claimLink(claim, short) {
    var link = element("a", "kb-ref kb-ref-" + claim.label, short ? claim.id.split("/").slice(1).join("/") : claim.id);
    link.href = new URL(claim.page, root).href;
    link.dataset.claim = claim.id;
    return link;
  }

  // Fill `box` with draw(data) once `loading` (a promise of evidence) settles, saying so while it loads or if it cannot.
  function drawFromClaims(box, loading, draw) {
    box.replaceChildren(element("p", "kb-loading", "Reading the claims\u2026"));
    loading.then(function (data) { box.replaceChildren(draw(data)); }, function (error) {
      box.replaceChildren(element("p", "kb-loading", "The claims could not be read (" + error.message + ")."));
    });
  }

  // What a cell's verdict means on its row, from the row's rubric in claims.json.
  function rubricNote(data, key, verdictClass) {
    var row = data.rows.get(key);
    if (!row || !verdictClass) return null;
    var verdict = verdictClass[1] === "na" ? "n/a" : verdictClass[1];
    var meaning = verdict === "unknown" ? data.unknownMeaning : row.meanings[verdict];
    var note = element("p", "kb-rubric-note");
    note.append(element("span", "kb-verdict kb-verdict-" + verdictClass[1], verdict), " on this row: ",
                meaning ? prose(meaning) : "not defined by the row's rubric", " ",
                element("span", "kb-rubric-grades", "The row grades: "));
    note.lastChild.appendChild(prose(row.grades));
    return note;
  }

  // Under a matrix: what each of its rows grades and what each verdict means there.
  function drawLegend(details) {
    var box = element("div");
    details.appendChild(box);
    drawFromClaims(box, evidence([], false), function (data) {
      var fragment = document.createDocumentFragment(), list = element("dl");
      details.dataset.rows.split(" ").forEach(function (key) {
        var row = data.rows.get(key);
        if (!row) return;
        var meanings = element("ul");
        Object.keys(row.meanings).forEach(function (verdict) {
          var item = element("li");
          item.append(element("span", "kb-verdict kb-verdict-" + verdict.replace("/", ""), verdict), " ", prose(row.meanings[verdict]));
          meanings.appendChild(item);
        });
        var grades = element("span", "kb-rubric-grades");
        grades.appendChild(prose(row.grades));
        var definition = element("dd");
        definition.append(grades, meanings);
        if (row.note) {
          var note = element("p", "kb-rubric-why");
          note.append(element("strong", "", "Why one verdict: "), prose(row.note));
          definition.appendChild(note);
        }
        if (row.rules && row.rules.length) {
          var applied = element("p", "kb-rubric-rules", "Rules applied: ");
          row.rules.forEach(function (id, index) {
            var rule = data.rules.get(id), link = element("a", "", rule ? rule.title : id);
            link.href = "#rule-" + id;  // kb:rules on the same page gives each rule this anchor
            applied.append(index ? ", " : "", link);
          });
          definition.appendChild(applied);
        }
        list.append(element("dt", "", row.title), definition);
      });
      var unknown = element("p");
      unknown.append(element("span", "kb-verdict kb-verdict-unknown", "unknown"), " on any row: " + data.unknownMeaning);
      fragment.append(list, unknown);
      return fragment;
    });
  }

  function idsOf(details) { return details.dataset.evidence.split(" ").filter(Boolean); }
  function rowOf(details) {  // the matrix row a cell stands in, whose file holds its claims
    var row = details.closest("tr[data-row]");
    return row ? row.dataset.row : null;
  }

  // A verdict cell's evidence: its derived label, then each claim it rests on with its text.
  function drawEvidence(details) {
    var panel = element("div", "kb-evidence");
    details.appendChild(panel);
    drawFromClaims(panel, evidence(idsOf(details), false, rowOf(details)), function (data) {
      setTimeout(function () { panel.dispatchEvent(new CustomEvent("kb:drawn", {bubbles: true})); });
      var fragment = document.createDocumentFragment();
      var ids = idsOf(details);
      var head = element("p", "kb-evidence-head");
      head.append(labelBadge(details.dataset.label, data.labels), " the weakest label of the " + ids.length +
                  " claim" + (ids.length === 1 ? "" : "s") + " it rests on:");
      var list = element("ul");
      ids.forEach(function (id) {
        var claim = data.byId.get(id), item = element("li");
        if (claim) item.append(claimLink(claim, true), ": ", prose(claim.text));
        else item.textContent = id;
        list.appendChild(item);
      });
      fragment.append(head, list);
      var cell = details.closest("td[id], tr[id]");  // a verdict cell's or a scenario answer's permalink
      if (cell) {
        var permalink = element("a", "kb-permalink", "Permalink to this answer");
        permalink.href = "#" + cell.id;
        fragment.appendChild(element("p")).appendChild(permalink);
      }
      var row = details.closest("[data-row]");  // a matrix row names its comparison row once for its cells
      var note = row && rubricNote(data, row.dataset.row, details.className.match(/kb-verdict-(\S+)/));
      if (note) fragment.appendChild(note);
      return fragment;
    });
  }

  // A claim's cites at the pin, each linking the upstream file at the pinned commit and lines.
  function drawCites(details) {
    var box = element("div");
    details.appendChild(box);
    drawFromClaims(box, evidence([details.dataset.claim], true), function (data) {
      var list = element("ul", "kb-cites-list");
      var claim = data.byId.get(details.dataset.claim) || {cites: []};
      claim.cites.forEach(function (cite) {
        var item = element("li"), link = element("a", "kb-cite");
        link.href = cite.url;
        if (cite.repo) item.append(cite.repo + ": ");  // a shared fact names the engine's repository it cites
        link.appendChild(element("code", "", cite.file));
        item.append(link, " ");
        if (cite.symbol) item.appendChild(element("code", "", cite.symbol));
        else item.append("\u201c" + cite.phrase + "\u201d");
        if (cite.contains) item.append(" contains ", element("code", "", cite.contains));
        if (cite.lines) {
          var lines = cite.lines[0] === cite.lines[1] ? cite.lines[0] : cite.lines[0] + "\u2013" + cite.lines[1];
          item.append(" ", element("span", "kb-where", (cite.kind || "") + ", line " + lines));
        }
        list.appendChild(item);
      });
      // How far the text was checked: drawn with the cites so that engine pages stay within their weight.
      var scope = claim.scope && element("p", "kb-scope");
      if (scope) scope.append(element("span", "kb-scope-head", "Scope checked:"), " ", prose(claim.scope));
      var fragment = document.createDocumentFragment();
      fragment.append(list);
      if (scope) fragment.append(scope);
      return fragment;
    });
  }

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
    if (details.dataset.evidence !== undefined) drawEvidence(details);
    if (details.dataset.rows !== undefined) drawLegend(details);
    if (details.classList.contains("kb-cites")) drawCites(details);
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

  // A verdict cell's permalink, `#row-device-memory-vllm`: its row's id and its engine. Given here, not
  // in the HTML, where three hundred ids would weigh a matrix page down by a twentieth.
  function cellIds() {
    document.querySelectorAll("tr[id][data-row] > td[data-engine]").forEach(function (td) {
      td.id = td.parentNode.id + "-" + td.dataset.engine;
    });
  }

  // Matrices: the engine picker and the cue that more columns exist.
  function matrices() {
    var tables = document.querySelectorAll("table.kb-matrix");
    if (!tables.length) return;
    var engines = [], names = {};
    tables.forEach(function (table) {
      table.querySelectorAll("thead th[data-engine]").forEach(function (th) {
        if (!(th.dataset.engine in names)) { engines.push(th.dataset.engine); names[th.dataset.engine] = th.textContent; }
      });
    });
    var asked = (new URLSearchParams(location.search).get("engines") || "").split(",").filter(function (e) {
      return Object.prototype.hasOwnProperty.call(names, e);  // the URL is anyone's: "constructor" is no engine
    });
    var chosen = new Set(asked.length ? asked : engines);
    var pickers = [];

    function apply() {
      tables.forEach(function (table) {
        table.querySelectorAll("[data-engine]").forEach(function (cell) {
          cell.classList.toggle("kb-off", !chosen.has(cell.dataset.engine));
        });
      });
      pickers.forEach(function (picker) {
        picker.summary.textContent = chosen.size === engines.length ? "Engines: all " + engines.length
          : "Engines: " + engines.filter(function (e) { return chosen.has(e); }).map(function (e) { return names[e]; }).join(", ");
        picker.details.querySelectorAll("input").forEach(function (box) { box.checked = chosen.has(box.value); });
      });
      var query = new URLSearchParams(location.search);
      if (chosen.size === engines.length) query.delete("engines");
      else query.set("engines", engines.filter(function (e) { return chosen.has(e); }).join(","));
      var search = query.toString();
      history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
      tables.forEach(function (table) { table.kbCue(); });
    }

    function fillPicker(details) {  // the checkboxes, made on first open
      var list = element("div", "kb-picker-list");
      engines.forEach(function (engine) {
        var label = element("label"), box = element("input");
        box.type = "checkbox";
        box.value = engine;
        box.checked = chosen.has(engine);
        label.append(box, " " + names[engine]);
        list.appendChild(label);
      });
      list.addEventListener("change", function (event) {
        if (event.target.checked) chosen.add(event.target.value);
        else if (chosen.size > 1) chosen.delete(event.target.value);
        else event.target.checked = true;  // one engine at least
        apply();
      });
      details.appendChild(list);
    }

    tables.forEach(function (table) {
      var box = table.closest(".kb-matrix-scroll") || table.parentNode;
      var bar = element("div", "kb-matrix-bar");
      var details = element("details", "kb-picker"), summary = element("summary");
      details.appendChild(summary);
      details.addEventListener("toggle", function () { if (details.open && !details.querySelector("input")) fillPicker(details); });
      var cue = element("button", "kb-scroll-cue");
      cue.type = "button";
      cue.hidden = true;
      cue.addEventListener("click", function () { box.scrollBy({left: box.clientWidth * 0.7, behavior: "smooth"}); });
      bar.append(details, cue);
      box.parentNode.insertBefore(bar, box);
      pickers.push({details: details, summary: summary});
      table.kbCue = function () {
        var right = box.getBoundingClientRect().right;
        var hidden = Array.prototype.filter.call(table.querySelectorAll("thead th[data-engine]:not(.kb-off)"), function (th) {
          var column = th.getBoundingClientRect();
          return (column.left + column.right) / 2 > right;  // a column mostly out of view, not one cut by a pixel
        }).length;
        box.classList.toggle("kb-more-right", hidden > 0);
        cue.hidden = hidden === 0;
        cue.textContent = hidden + " more engine" + (hidden === 1 ? "" : "s") + " \u2192";
      };
      box.addEventListener("scroll", table.kbCue, {passive: true});
    });
    window.addEventListener("resize", function () { tables.forEach(function (table) { table.kbCue(); }); });
    apply();
  }

  // The claims explorer: filters kept in the URL, counts per label of what matches, the matching
  // claims rendered a window at a time from claims.json. Returns a promise settled when it is usable.
  var WINDOW = 50;  // rows drawn at a time: each filter lays out at most this many
  function explorer() {
    var box = document.querySelector(".kb-explorer");
    if (!box) return Promise.resolve();
    var form = box.querySelector(".kb-filters");
    var body = box.querySelector("tbody");
    var status = box.querySelector(".kb-explorer-status");
    var more = box.querySelector(".kb-explorer-more");
    var names = ["engine", "label", "layer", "dimension", "text"];  // not q: the theme's search opens on ?q=
    var params = new URLSearchParams(location.search);
    // Each select may hold several values (engine=vllm,ncnn); only values among its options are taken.
    names.forEach(function (name) {
      if (!params.has(name)) return;
      var field = form.elements[name], asked = params.get(name).split(",");
      if (field.options) Array.prototype.forEach.call(field.options, function (o) { o.selected = o.value !== "" && asked.indexOf(o.value) !== -1; });
      else field.value = params.get(name);
    });
    function chosen(field) {  // a select's chosen values ("all" is none), or a text box's words
      if (!field.options) return field.value.trim();
      return Array.prototype.filter.call(field.selectedOptions, function (o) { return o.value; }).map(function (o) { return o.value; });
    }
    function admits(values, value) { return !values.length || values.indexOf(value) !== -1; }
    var dimensions = {};
    Array.prototype.forEach.call(form.elements.dimension.options, function (o) { dimensions[o.value] = o.textContent; });
    status.textContent = "Reading the claims\u2026";

    return claimsData(new URL(box.dataset.claims, location.href).href).then(function (data) {
      var records = data.claims.map(function (claim) {
        var label = data.labels[claim.label] ? data.labels[claim.label].title : claim.label;
        return {claim: claim, text: [claim.id, claim.text, dimensions[claim.dimension] || claim.dimension, label].join(" ").toLowerCase()};
      });
      var matches = [], shown = 0;

      function row(claim) {
        var tr = element("tr"), id = element("td"), label = element("td"), dimension = element("td"), text = element("td");
        var link = claimLink(claim, false);
        link.className = "kb-claim-id";
        id.appendChild(link);
        label.appendChild(labelBadge(claim.label, data.labels));
        dimension.textContent = dimensions[claim.dimension] || claim.dimension;
        text.appendChild(prose(claim.text));
        tr.append(id, label, dimension, text);
        return tr;
      }

      function showMore() {
        var fragment = document.createDocumentFragment();
        matches.slice(shown, shown + WINDOW).forEach(function (record) { fragment.appendChild(row(record.claim)); });
        body.appendChild(fragment);
        shown = Math.min(matches.length, shown + WINDOW);
        more.hidden = shown >= matches.length;
        more.querySelector("button").textContent = "Show " + Math.min(WINDOW, matches.length - shown) + " more of " + (matches.length - shown);
      }

      function apply() {
        var want = {};
        names.forEach(function (name) { want[name] = chosen(form.elements[name]); });
        var words = want.text.toLowerCase().split(/\s+/).filter(Boolean);
        Array.prototype.forEach.call(form.elements.dimension.options, function (option) {
          option.hidden = Boolean(option.value && !admits(want.layer, option.dataset.layer));
        });
        var counts = {};
        matches = records.filter(function (record) {
          var claim = record.claim;
          var ok = admits(want.engine, claim.engine) && admits(want.label, claim.label) &&
            admits(want.layer, claim.layer) && admits(want.dimension, claim.dimension) &&
            words.every(function (word) { return record.text.indexOf(word) !== -1; });
          if (ok) counts[claim.label] = (counts[claim.label] || 0) + 1;
          return ok;
        });
        box.querySelector(".kb-shown").textContent = matches.length;
        box.querySelectorAll(".kb-count-label").forEach(function (badge) {
          badge.querySelector(".kb-n").textContent = counts[badge.dataset.label] || 0;
        });
        body.replaceChildren();
        shown = 0;
        if (matches.length) {
          status.textContent = "";
          showMore();
        } else {
          more.hidden = true;
          status.textContent = "No claim matches these filters. Clear the text or set a filter to \u201call\u201d.";
        }
        box.dispatchEvent(new CustomEvent("kb:explorer-filtered", {detail: {claims: matches.map(function (r) { return r.claim; })}}));
        var query = new URLSearchParams();
        names.forEach(function (name) { if (want[name].length) query.set(name, String(want[name])); });
        var search = query.toString();
        history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
      }
      form.addEventListener("input", apply);
      form.addEventListener("change", apply);
      more.querySelector("button").addEventListener("click", showMore);
      apply();
    }, function (error) {
      status.textContent = "The claims could not be read (" + error.message + "); download claims.json or claims.csv instead.";
    });
  }

  // Filtered tables rendered in full (the measured figures, the study's artifacts): each select matches
  // the row attribute of its name, the text box every word; filters are kept in the URL under the
  // table's own prefix (data-key, numbered from the second table of a kind), so tables do not share them.
  function filteredTable(root, prefix) {
    var form = root.querySelector(".kb-filters");
    if (!form) return;  // a short table is rendered without filters
    var rows = Array.prototype.slice.call(root.querySelectorAll("tbody tr"));
    var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    var names = Array.prototype.map.call(form.elements, function (e) { return e.name; }).filter(Boolean);
    var params = new URLSearchParams(location.search);
    names.forEach(function (name) { if (params.has(prefix + name)) form.elements[name].value = params.get(prefix + name); });

    function apply() {
      var want = {};
      names.forEach(function (name) { want[name] = form.elements[name].value.trim(); });
      var words = (want.q || "").toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (row, index) {
        var data = row.dataset;
        var ok = names.every(function (name) { return name === "q" || !want[name] || data[name] === want[name]; }) &&
          words.every(function (word) { return texts[index].indexOf(word) !== -1; });
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      root.querySelector(".kb-shown").textContent = shown;
      var query = new URLSearchParams(location.search);
      names.forEach(function (name) { if (want[name]) query.set(prefix + name, want[name]); else query.delete(prefix + name); });
      var search = query.toString();
      history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
    }
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    apply();
  }

  function filteredTables() {
    var seen = {};
    document.querySelectorAll(".kb-filtered").forEach(function (root) {
      var key = root.dataset.key || "";
      seen[key] = (seen[key] || 0) + 1;
      var name = key + (seen[key] > 1 ? seen[key] : "");
      filteredTable(root, name ? name + "-" : "");
    });
  }

  // Read a panel's evidence ahead when a reader is about to open it.
  function prefetchOnIntent() {
    function intent(event) {
      var details = event.target.closest && event.target.closest("details.kb-cell[data-evidence], details.kb-cites");
      if (!details || details.dataset.kbDrawn) return;
      (details.dataset.claim ? evidence([details.dataset.claim], true) : evidence(idsOf(details), false, rowOf(details))).catch(function () {});
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
    cellIds();
    matrices();
    filteredTables();
    renderLater();
    openTarget();
    window.addEventListener("hashchange", openTarget);
    prefetchOnIntent();
    explorer().then(function () { performance.mark("kb-ready"); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
