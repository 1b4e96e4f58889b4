// Matrices — how to use them: give a <table> the class `kb-matrix`, put it in a
// <div class="kb-matrix-scroll">, make its first column the row titles (<th scope="row">) and put
// `data-engine="ID"` on every cell of an engine's column (header and body). kb.css keeps the header
// and first column in view while the box scrolls; this script adds the engine picker (kept in the
// URL as ?engines=a,b, shared by every matrix of the page) and the cue that more columns exist.
// kb.js calls kb.cellIds and kb.matrices when the page is parsed.
(function () {
  "use strict";
  var kb = window.kb, element = kb.element;

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
      cues();
    }

    // The cues of the matrices near the screen: every column measured first, then every cue set, so that
    // the page is laid out once, not once a table. A matrix far off waits until it nears the screen.
    function cues() {
      var near = Array.prototype.filter.call(tables, function (table) { return table.kbNear; });
      near.map(function (table) { return table.kbHidden(); }).forEach(function (hidden, index) { near[index].kbShowCue(hidden); });
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
      table.kbHidden = function () {  // how many chosen columns lie mostly right of the box
        var right = box.getBoundingClientRect().right;
        return Array.prototype.filter.call(table.querySelectorAll("thead th[data-engine]:not(.kb-off)"), function (th) {
          var column = th.getBoundingClientRect();
          return (column.left + column.right) / 2 > right;  // a column mostly out of view, not one cut by a pixel
        }).length;
      };
      table.kbShowCue = function (hidden) {
        box.classList.toggle("kb-more-right", hidden > 0);
        cue.hidden = hidden === 0;
        cue.textContent = hidden + " more engine" + (hidden === 1 ? "" : "s") + " \u2192";
      };
      box.addEventListener("scroll", function () { table.kbShowCue(table.kbHidden()); }, {passive: true});
    });
    window.addEventListener("resize", cues);
    if ("IntersectionObserver" in window) {
      var observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (entry) {
          if (!entry.isIntersecting) return;
          observer.unobserve(entry.target);
          entry.target.querySelector("table.kb-matrix").kbNear = true;
        });
        cues();
      }, {rootMargin: "600px 0px"});
      tables.forEach(function (table) { observer.observe(table.closest(".kb-matrix-scroll") || table.parentNode); });
    } else {
      tables.forEach(function (table) { table.kbNear = true; });
    }
    apply();
  }


  kb.cellIds = cellIds;
  kb.matrices = matrices;
})();
