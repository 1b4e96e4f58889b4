// The explorer's export: the claims its filters show, as CSV (the columns of claims.csv less the
// cites, header first, cells a spreadsheet will not read as formulas) or as JSON (the records as
// claims.json holds them). kb.js announces each filtering with the matching claims.
(function () {
  "use strict";
  var COLUMNS = ["id", "engine", "label", "layer", "dimension", "text", "page"];

  function cell(value) {
    // Format characters (zero-width, bidi controls) go first, as in claims.csv: one before an `=` would hide it.
    var text = String(value === null || value === undefined ? "" : value).replace(/\p{Cf}/gu, "")
      .replace(/\s+/g, " ").trim();
    if (/^[=+\-@]/.test(text)) text = "'" + text;  // as claims.csv: a leading = + - @ is a formula to a spreadsheet
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function csv(claims) {
    return [COLUMNS.join(",")].concat(claims.map(function (claim) {
      return COLUMNS.map(function (column) { return cell(claim[column]); }).join(",");
    })).join("\n") + "\n";
  }

  function save(name, type, text) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], {type: type}));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  }

  function start() {
    var box = document.querySelector(".kb-explorer");
    if (!box) return;
    var shown = [];
    box.addEventListener("kb:explorer-filtered", function (event) { shown = event.detail.claims; });
    box.querySelectorAll("[data-export]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (button.dataset.export === "csv") save("claims-shown.csv", "text/csv", csv(shown));
        else save("claims-shown.json", "application/json", JSON.stringify({claims: shown}, null, 1));
      });
    });
  }
  // Listening before kb.js filters first: both are deferred, and the build writes this one before kb.js.
  start();
})();
