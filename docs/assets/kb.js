// Reading aids for pages rendered from the records. Everything here is optional: without script the
// pages show every claim. No request leaves the site.
(function () {
  "use strict";

  // Engine and report pages: show only Verified claims, and fold topics.
  function topicTools() {
    var topics = document.querySelectorAll(".md-content .kb-topic");
    if (!topics.length) return;
    var bar = document.createElement("div");
    bar.className = "kb-toolbar";
    bar.innerHTML =
      '<label><input type="checkbox" class="kb-verified-only"> Verified claims only</label> ' +
      '<button type="button" class="md-button kb-fold-all">Fold all topics</button> ' +
      '<button type="button" class="md-button kb-open-all">Open all topics</button>';
    var first = document.querySelector(".md-content .kb-claims, .md-content .kb-topic");
    first.parentNode.insertBefore(bar, first);
    bar.querySelector(".kb-verified-only").addEventListener("change", function (event) {
      document.body.classList.toggle("kb-only-verified", event.target.checked);
    });
    function fold(heading, folded) {
      heading.classList.toggle("kb-folded", folded);
      heading.setAttribute("aria-expanded", folded ? "false" : "true");
    }
    topics.forEach(function (heading) {
      heading.setAttribute("role", "button");
      heading.setAttribute("tabindex", "0");
      fold(heading, false);
      function toggle(event) {
        if (event.target.closest("a")) return; // the permalink stays a link
        if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        fold(heading, !heading.classList.contains("kb-folded"));
      }
      heading.addEventListener("click", toggle);
      heading.addEventListener("keydown", toggle);
    });
    bar.querySelector(".kb-fold-all").addEventListener("click", function () { topics.forEach(function (h) { fold(h, true); }); });
    bar.querySelector(".kb-open-all").addEventListener("click", function () { topics.forEach(function (h) { fold(h, false); }); });
    // A claim reached by its permalink is shown even in a folded topic or the Verified-only view.
    function reveal() {
      var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (!target) return;
      var heading = target.closest(".kb-claims") && target.closest(".kb-claims").previousElementSibling;
      if (heading && heading.classList.contains("kb-topic")) fold(heading, false);
    }
    window.addEventListener("hashchange", reveal);
    reveal();
  }

  // Filtered tables (the claims explorer, the measured figures, the study's artifacts): each select
  // matches the row attribute of its name, the text box every word; filters are kept in the URL under
  // the table's own prefix (data-key, numbered from the second table of a kind), so tables do not share them.
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
      if (form.elements.dimension) {
        Array.prototype.forEach.call(form.elements.dimension.options, function (option) {
          option.hidden = Boolean(want.layer && option.value && option.dataset.layer !== want.layer);
        });
      }
      var counts = {}, shown = 0;
      rows.forEach(function (row, index) {
        var data = row.dataset;
        var ok = names.every(function (name) { return name === "q" || !want[name] || data[name] === want[name]; }) &&
          words.every(function (word) { return texts[index].indexOf(word) !== -1; });
        row.hidden = !ok;
        if (ok) { shown += 1; counts[data.label] = (counts[data.label] || 0) + 1; }
      });
      root.querySelector(".kb-shown").textContent = shown;
      root.querySelectorAll(".kb-count-label").forEach(function (badge) {
        badge.querySelector(".kb-n").textContent = counts[badge.dataset.label] || 0;
      });
      var query = new URLSearchParams(location.search);
      names.forEach(function (name) { if (want[name]) query.set(prefix + name, want[name]); else query.delete(prefix + name); });
      var search = query.toString();
      history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
    }
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    apply();
  }

  // The second table of a kind on a page keys its filters as m2-..., the third m3-..., and so on.
  function explorers() {
    var seen = {};
    document.querySelectorAll(".kb-explorer").forEach(function (root) {
      var key = root.dataset.key || "";
      seen[key] = (seen[key] || 0) + 1;
      var name = key + (seen[key] > 1 ? seen[key] : "");
      filteredTable(root, name ? name + "-" : "");
    });
  }

  // A permalink into a folded model-table row or verdict cell opens it.
  function openTarget() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var details = target && (target.closest("details") || target.querySelector("details.kb-row-claim"));
    if (details) { details.open = true; target.scrollIntoView(); }
  }

  function start() { topicTools(); explorers(); openTarget(); window.addEventListener("hashchange", openTarget); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
