// Claim lists the build moved out of their page (tools/kbsite/pieces.py): a
// <section class="kb-later" data-piece="URL" data-index="N"> is filled with entry N of the JSON list at
// URL, fetched once per page (a page's lists are spread over a few such pieces). kb.js decides when (a topic nearing the screen, a row opened, a permalink).
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

  // Where element `id` waits: {piece: a section's data-piece, index: its data-index}, or null. Every piece
  // the page names is read, in page order, until one holds it.
  function indexHolding(id) {
    var hrefs = [];
    var sections = Array.prototype.slice.call(document.querySelectorAll("section[data-piece]"));
    document.querySelectorAll("template").forEach(function (t) {
      sections = sections.concat(Array.prototype.slice.call(t.content.querySelectorAll("section[data-piece]")));
    });
    sections.forEach(function (section) { if (hrefs.indexOf(section.dataset.piece) === -1) hrefs.push(section.dataset.piece); });
    var needle = 'id="' + id.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '"';
    function from(position) {
      if (position >= hrefs.length) return Promise.resolve(null);
      return piece(new URL(hrefs[position], location.href).href).then(function (list) {
        for (var i = 0; i < list.length; i++) if (list[i].indexOf(needle) !== -1) return {piece: hrefs[position], index: i};
        return from(position + 1);
      });
    }
    return from(0);
  }

  window.kbPieces = {fill: fill, indexHolding: indexHolding};
})();
