// The grid at a glance (kb:grid): every row of the page's verdict matrices against every engine, as
// one verdict mark a cell, grouped by layer. It is drawn from the matrices already on the page, so it
// costs the page no bytes: a mark's title is the cell's answer (hover), a tap shows the answer with
// its permalink, and the evidence is one tap further, in a copy of the cell that kb.js fills.
(function () {
  "use strict";
  var MARKS = {yes: "\u2714", partial: "\u25D0", no: "\u2718", unknown: "?", na: "\u2013"};
  var element = window.kb.element;  // kb-core.js, which runs before this script

  function verdictOf(details) {
    var match = details && details.className.match(/kb-verdict-(\S+)/);
    return match ? match[1] : "";
  }

  function draw(box) {
    var matrices = Array.prototype.filter.call(document.querySelectorAll(".kb-matrix-scroll[data-layer] table.kb-cells"),
      function (table) { return !table.closest(".kb-grid"); });
    if (!matrices.length) return;
    var engines = Array.prototype.map.call(matrices[0].querySelectorAll("thead th[data-engine]"), function (th) {
      return {id: th.dataset.engine, name: th.textContent};
    });
    var table = element("table", "kb-grid-table"), head = element("tr"), body = element("tbody");
    head.appendChild(element("th", "", "Row"));
    engines.forEach(function (engine) {
      var th = element("th");
      th.appendChild(element("span", "", engine.name));
      th.scope = "col";
      head.appendChild(th);
    });
    table.appendChild(element("thead")).appendChild(head);
    matrices.forEach(function (matrix) {
      var layer = element("tr", "kb-grid-layer"), title = element("th", "", matrix.closest("[data-layer]").dataset.layer);
      title.colSpan = engines.length + 1;
      layer.appendChild(title);
      body.appendChild(layer);
      matrix.querySelectorAll("tbody tr[data-row]").forEach(function (source) {
        var tr = element("tr"), th = element("th"), link = element("a", "", source.querySelector("th").textContent);
        link.href = "#" + source.id;
        th.scope = "row";
        th.appendChild(link);
        tr.appendChild(th);
        engines.forEach(function (engine) {
          var cell = source.querySelector('td[data-engine="' + engine.id + '"]');
          var details = cell && cell.querySelector("details.kb-cell"), verdict = verdictOf(details);
          var td = element("td", "kb-grid-mark" + (verdict ? " kb-verdict-" + verdict : ""), MARKS[verdict] || "\u00B7");
          td.dataset.cell = cell ? source.id + "-" + engine.id : "";  // the id kb.js gives the cell (it runs after this)
          td.tabIndex = 0;
          td.setAttribute("aria-label", engine.name + ": " + (verdict || "no cell yet"));
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
    });
    table.appendChild(body);
    var scroll = box.querySelector(".kb-grid-scroll");
    scroll.replaceChildren(table);
    var panel = box.querySelector(".kb-grid-answer");

    function answerOf(td) {
      var source = td.dataset.cell && document.getElementById(td.dataset.cell);
      var summary = source && source.querySelector("details.kb-cell > summary");
      return summary ? summary.textContent.replace(/\s+/g, " ").trim() : "No cell yet: the engine's analysis has not graded this row.";
    }

    function show(td) {
      table.querySelectorAll(".kb-grid-chosen").forEach(function (other) { other.classList.remove("kb-grid-chosen"); });
      td.classList.add("kb-grid-chosen");
      var source = td.dataset.cell && document.getElementById(td.dataset.cell);
      var row = td.parentNode.querySelector("th").textContent, engine = engines[td.cellIndex - 1].name;
      var head = element("p", "kb-grid-answer-head");
      head.appendChild(element("strong", "", row + " \u00B7 " + engine));
      panel.replaceChildren(head);
      var details = source && source.querySelector("details.kb-cell");
      if (details) {
        var copy = details.cloneNode(true);  // kb.js draws the evidence when it opens
        copy.open = false;
        delete copy.dataset.kbDrawn;
        copy.querySelectorAll(".kb-evidence").forEach(function (drawn) { drawn.remove(); });
        var holder = element("div");
        holder.dataset.row = source.parentNode.dataset.row;  // the row's rubric note, as in the matrix
        holder.appendChild(copy);
        panel.appendChild(holder);
        var permalink = element("a", "kb-permalink", "Permalink to this cell");
        permalink.href = "#" + source.id;
        panel.appendChild(element("p")).appendChild(permalink);
      } else {
        panel.appendChild(element("p", "", answerOf(td)));
      }
      panel.hidden = false;
    }

    table.addEventListener("pointerover", function (event) {  // the short answer on hover, made when first needed
      var td = event.target.closest && event.target.closest("td.kb-grid-mark");
      if (td && !td.title) td.title = answerOf(td);
    });
    table.addEventListener("click", function (event) {
      var td = event.target.closest && event.target.closest("td.kb-grid-mark");
      if (td) show(td);
    });
    table.addEventListener("keydown", function (event) {
      if ((event.key === "Enter" || event.key === " ") && event.target.matches("td.kb-grid-mark")) {
        event.preventDefault();
        show(event.target);
      }
    });
  }

  function start() { document.querySelectorAll(".kb-grid").forEach(draw); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
