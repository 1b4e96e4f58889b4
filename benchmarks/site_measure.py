"""What site_bench.py measures in the browser: a cold page on a throttled profile, its first evidence
panel, the first search and the explorer's filtering. Serving the built site with gzip is here too.

A page's first evidence panel is what a reader opens first to see why a statement holds: a verdict
cell's or a scenario answer's claims (`details[data-evidence]`), or, on a page without those, a claim's
cites (`details.kb-cites`: on an engine page in its first claim list, which stays in the page, while the
other lists wait in the page's pieces until their topic nears the screen). It is opened as soon as the page's script is ready, and timed from the start of navigation
until its list is drawn; the bytes are those of every response finished by then (compressed, as sent).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import sys
import threading
import time
from pathlib import Path

THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
CPU_SLOWDOWN = 4
TEXT_TYPES = (".html", ".css", ".js", ".mjs", ".json", ".svg", ".csv")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; text compressed when the browser accepts gzip (as GitHub Pages serves them)."""

    extensions_map = http.server.SimpleHTTPRequestHandler.extensions_map | {".mjs": "text/javascript"}

    def log_message(self, *args):  # quiet
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix not in TEXT_TYPES or "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(body)


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):  # a tab closed mid-download: nothing to report
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path):
    handler = functools.partial(GzipHandler, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


READY = """() => new Promise(resolve => {
  const nav = performance.getEntriesByType('navigation')[0];
  const mark = () => performance.getEntriesByName('kb-ready')[0];
  const done = () => resolve({load: nav.loadEventStart, elements: window.__kbElementsAtLoad,
    ready: mark() ? mark().startTime : nav.domContentLoadedEventEnd, marked: Boolean(mark())});
  const wait = (tries) => (mark() || tries <= 0) ? done() : setTimeout(() => wait(tries - 1), 100);
  wait(300);
})"""
# Counted at the `load` event itself, before anything later (a user's tap) adds elements.
COUNT_AT_LOAD = "addEventListener('load', () => { window.__kbElementsAtLoad = document.getElementsByTagName('*').length; });"

# Open the page's first evidence panel once kb.js listens (its kb-ready mark, or the end of
# DOMContentLoaded for a kb.js without one); resolve with the time its list is drawn and the bytes of the
# responses finished by then, or null on a page without evidence.
FIRST_PANEL = """() => new Promise(resolve => {
  const started = performance.now();
  const drawn = (details) => details.querySelector('.kb-evidence li, .kb-cites-list li, .kb-scope');
  const bytes = (until) => performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
    .filter(entry => entry.responseEnd <= until).reduce((sum, entry) => sum + entry.transferSize, 0);
  const open = (details) => {
    details.open = true;
    const poll = () => {
      if (drawn(details)) { const at = performance.now(); resolve({at: at, bytes: bytes(at), kind: details.dataset.evidence !== undefined ? 'evidence' : 'cites'}); }
      else if (performance.now() - started > 60000) resolve({at: null, bytes: bytes(performance.now()), kind: 'timeout'});
      else setTimeout(poll, 20);
    };
    poll();
  };
  const find = () => document.querySelector('details[data-evidence]') ||
    document.querySelector('details.kb-cites') || document.querySelector('section.kb-later');
  const begin = () => {
    const found = find();
    if (!found) { resolve(null); return; }
    if (found.tagName === 'DETAILS') { open(found); return; }
    found.scrollIntoView();  // a claim list waiting in the page's piece: bring it near, then open its first cites
    const wait = () => {
      const cites = document.querySelector('details.kb-cites');
      if (cites) open(cites);
      else if (!found.classList.contains('kb-later')) resolve(null);  // its claims came without cites
      else if (performance.now() - started > 60000) resolve({at: null, bytes: bytes(performance.now()), kind: 'timeout'});
      else setTimeout(wait, 20);
    };
    wait();
  };
  const ready = () => performance.getEntriesByName('kb-ready').length || document.readyState !== 'loading';
  const wait = () => ready() ? begin() : setTimeout(wait, 10);
  wait();
})"""


def throttled_tab(browser, width: int = 1400):
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.add_init_script(COUNT_AT_LOAD)
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", THROTTLE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, tab


def measure_page(browser, url: str) -> dict:
    """`load`, elements at load and script ready, then, in a second cold tab, the first evidence panel."""
    context, tab = throttled_tab(browser)
    try:
        tab.goto(url, wait_until="load", timeout=120_000)
        result = tab.evaluate(READY)
    finally:
        context.close()
    context, tab = throttled_tab(browser)
    try:
        tab.goto(url, wait_until="domcontentloaded", timeout=120_000)
        result["panel"] = tab.evaluate(FIRST_PANEL)
    finally:
        context.close()
    return result


def first_search(browser, url: str, query: str, typed_at: str) -> float:
    """Seconds from typing `query` as soon as the page reaches `typed_at` (domcontentloaded: parsed,
    the box usable; load: the page shown), cold and throttled, to the first result."""
    context, tab = throttled_tab(browser)
    try:
        tab.goto(url, wait_until=typed_at, timeout=120_000)
        tab.locator("input.md-search__input").click()
        started = time.perf_counter()
        tab.keyboard.type(query)
        tab.wait_for_selector(".md-search-result__item", timeout=120_000)
        return time.perf_counter() - started
    finally:
        context.close()


FILTER = """async () => {
  const form = document.querySelector('.kb-filters');
  const frame = () => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const timed = async (element, value, type) => {
    const started = performance.now();
    element.value = value;
    element.dispatchEvent(new Event(type, {bubbles: true}));
    await frame();
    return performance.now() - started;
  };
  const box = form.elements.text || form.elements.q;  // named q before the explorer moved to ?text=
  const text = await timed(box, 'cache', 'input');
  const engine = await timed(form.elements.engine, 'ncnn', 'change');
  const shown = document.querySelector('.kb-shown').textContent;
  return {text, engine, shown};
}"""


def explorer_filter(browser, url: str) -> dict:
    """Milliseconds from setting a filter to the next frame: the text `cache`, then engine ncnn (no throttling)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    try:
        tab.goto(url, wait_until="load", timeout=120_000)
        tab.evaluate(READY)
        return tab.evaluate(FILTER)
    finally:
        context.close()
