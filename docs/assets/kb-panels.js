// Evidence panels (kb.js opens them): a verdict cell's or a scenario answer's claims, a claim's cites
// at the pin, and a matrix's legend of rubrics, each drawn from the page's evidence when first opened.
(function () {
  "use strict";
  var kb = window.kb, element = kb.element, prose = kb.prose, evidence = kb.evidence, labelBadge = kb.labelBadge, claimLink = kb.claimLink;

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


  kb.drawLegend = drawLegend;
  kb.drawEvidence = drawEvidence;
  kb.drawCites = drawCites;
  kb.idsOf = idsOf;
  kb.rowOf = rowOf;
})();
