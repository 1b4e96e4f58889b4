// Claim lists the build moved out of their page (tools/kbsite/pieces.py): a
// <section class="kb-later" data-piece="URL" data-index="N"> is filled with entry N of the JSON list at
// URL, fetched once per page. kb.js decides when (a topic nearing the screen, a row opened, a permalink).
(function () {
  "use strict";

  var fetched = {};  // piece URL -> promise of its list

  function piece(url) {
    if (!fetched[url]) {
      fetched[url] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error(url + ": " + response.status);
        return response.json();
      });
      fetched[url].catch(function () { delete fetched[url]; });  // a later try fetches again
    }
    return fetched[url];
  }

  function urlOf(section) { return new URL(section.dataset.piece, location.href).href; }

  // Fill a waiting section from its piece; resolves once its claims are in the page.
  function fill(section) {
    if (!section.kbFilled) {
      section.kbFilled = piece(urlOf(section)).then(function (list) {
        var holder = document.createElement("template");
        holder.innerHTML = list[Number(section.dataset.index)];  // the build's own HTML, escaped there
        section.replaceChildren(holder.content);
        section.classList.remove("kb-later");
        section.dispatchEvent(new CustomEvent("kb:drawn", {bubbles: true}));  // report.js adds its links
      }, function (error) {
        section.kbFilled = null;
        section.textContent = "These claims could not be loaded (" + error.message + "); reload to try again.";
        throw error;
      });
    }
    return section.kbFilled;
  }

  // The index, in this page's piece, of the list holding element `id`, or -1 (no piece, or not there).
  function indexHolding(id) {
    var any = document.querySelector("section[data-piece]") ||
      Array.prototype.map.call(document.querySelectorAll("template"), function (t) {
        return t.content.querySelector("section[data-piece]");
      }).filter(Boolean)[0];
    if (!any) return Promise.resolve(-1);
    var needle = 'id="' + id.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '"';
    return piece(urlOf(any)).then(function (list) {
      for (var i = 0; i < list.length; i++) if (list[i].indexOf(needle) !== -1) return i;
      return -1;
    });
  }

  window.kbPieces = {fill: fill, indexHolding: indexHolding};
})();
