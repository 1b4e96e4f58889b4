// The claims explorer (kb:explorer) and the filtered tables (measured figures, the study's artifacts).
// kb.js calls kb.explorer and kb.filteredTables when the page is parsed.
(function () {
  "use strict";
  var kb = window.kb, element = kb.element, prose = kb.prose, claimsData = kb.claimsData, labelBadge = kb.labelBadge, claimLink = kb.claimLink;

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


  kb.explorer = explorer;
  kb.filteredTables = filteredTables;
})();
