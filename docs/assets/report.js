// "Report a problem" links: where the build knows the project's repository (ENGINEKB_REPO_URL), each
// page names its new-issue URL in <meta name="enginekb-issues">, and every claim card and every claim
// in an evidence panel gets a link opening an issue prefilled with the record's id. Without it, none.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="enginekb-issues"]');
  var base = meta && meta.content;
  if (!base || base.indexOf("https://") !== 0) return;

  function reportLink(id) {
    var link = document.createElement("a");
    link.className = "kb-report";
    link.textContent = "report a problem";
    link.rel = "noopener";
    link.target = "_blank";
    link.href = base + "?title=" + encodeURIComponent("Problem with record " + id) +
      "&body=" + encodeURIComponent("Record: `" + id + "`\nPage: " + location.href.split("#")[0] + "\n\nWhat is wrong:\n");
    return link;
  }

  function decorate(root) {
    root.querySelectorAll(".kb-claim[id] > .kb-claim-head").forEach(function (head) {
      if (head.querySelector(".kb-report")) return;
      var id = head.querySelector(".kb-claim-id");
      if (id) head.append(" ", reportLink(id.textContent));
    });
    root.querySelectorAll(".kb-evidence li").forEach(function (item) {
      var ref = item.querySelector("a.kb-ref[data-claim]");
      if (ref && !item.querySelector(".kb-report")) item.append(" (", reportLink(ref.dataset.claim), ")");
    });
  }

  document.addEventListener("kb:drawn", function (event) { decorate(event.target); });
  function start() { decorate(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
