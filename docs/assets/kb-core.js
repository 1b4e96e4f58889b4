// The shared part of the site's reading aids (kb.js and its siblings read it as window.kb): making
// elements, a record's text as nodes (never HTML), JSON read once per URL, and the evidence a panel
// draws, from the page's own evidence folder (tools/kbsite/evidence.py) or downloads/claims.json.
// No request leaves the site.
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

  // A record's text for a tooltip: one line, the code and emphasis markers dropped.
  function plain(text) {
    return String(text).replace(/\s+/g, " ").replace(/`/g, "").replace(/\*\*?(?=\S)(.+?)(?<=\S)\*\*?/g, "$1");
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
  // the rubrics and the claims `ids` (their texts from the engine's file), or with `cites` only their
  // cites, from the bucket each id hashes to (a cites panel draws no label or rubric: one request, which
  // the page may have preloaded), or, for a cell of matrix row `row`, that row's file. A page without
  // the folder reads downloads/claims.json.
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
    var files = cites ? [] : ["rubrics.json"];
    ids.forEach(function (id) {
      var name = cites ? "cites-" + bucketOf(id) + ".json" : id.split("/")[0] + ".json";
      if (files.indexOf(name) === -1) files.push(name);
    });
    return Promise.all(files.map(function (name) { return json(FOLDER + name); })).then(function (parts) {
      var byId = new Map();
      parts.slice(cites ? 0 : 1).forEach(function (part) { part.claims.forEach(function (claim) { byId.set(claim.id, claim); }); });
      return cites ? {byId: byId} : shaped(parts[0], byId);
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


  window.kb = {root: root, element: element, prose: prose, plain: plain, json: json, claimsData: claimsData, evidence: evidence,
               labelBadge: labelBadge, claimLink: claimLink};
})();
