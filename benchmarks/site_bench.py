"""How heavy and how fast the built site is, beside its budgets.

    .venv/bin/python benchmarks/site_bench.py [--pages all|PATH,PATH] [--no-scale] [--repeat 1]

Builds the site strictly (timed), serves it from this process on 127.0.0.1 with gzip for text, as
GitHub Pages does, and loads every page cold in headless Chromium (Playwright driving Debian's
`chromium`, as the browser test does) on a throttled profile: 1.6 Mbps down, 750 kbps up, 150 ms
latency, CPU slowed 4x. Per page it prints the HTML bytes as built (uncompressed), the elements at
the `load` event, the time to `load`, and the time until the page's own script is ready: the
`kb-ready` performance mark kb.js sets when it has finished (filters working, matrices set up), or,
for a build whose kb.js sets no mark, the end of DOMContentLoaded (where such a kb.js ran). Then
the search index's size, the time from typing a query as soon as the page is parsed (and, again, once
it has loaded) to the first result, and
the strict build at today's claims and at ten times as many (claims files copied with new ids, as
citecheck_bench.py does). A benchmark, not a test: it asserts nothing, it prints.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from citecheck_bench import scaled_project  # noqa: E402
from enginekb.load import load_catalog  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BUDGET_HTML = 350_000
BUDGET_ELEMENTS = 3_000
BUDGET_INDEX = 1_200_000
BUDGET_FIRST_SEARCH = 2.0
THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
CPU_SLOWDOWN = 4
TEXT_TYPES = (".html", ".css", ".js", ".json", ".svg", ".csv")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files; text compressed when the browser accepts gzip (as GitHub Pages serves them)."""

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


def build(config: Path, out: Path) -> float:
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "-q", "-f", str(config),
                           "-d", str(out)], capture_output=True, text=True, env=env, cwd=config.parent)
    elapsed = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"the build of {config} failed:\n{done.stderr[-3000:]}")
    return elapsed


def scaled_copy(factor: int, into: Path) -> tuple[Path, int]:
    """The project with `factor` times its claims (verdict cells kept), ready to build."""
    claims = len(load_catalog(ROOT).claims)
    total = scaled_project(claims * factor, into)
    for cells in (ROOT / "claims").glob("*/cells.yaml"):
        shutil.copy(cells, into / "claims" / cells.parent.name / "cells.yaml")
    shutil.copytree(ROOT / "docs", into / "docs")
    shutil.copytree(ROOT / "tools", into / "tools", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copy(ROOT / "mkdocs.yml", into / "mkdocs.yml")
    return into / "mkdocs.yml", total


def site_pages(site: Path) -> list[str]:
    pages = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")
                   if not {"assets", "search", "downloads"} & set(p.relative_to(site).parts))
    return ["" if p == "." else p + "/" for p in pages] + ["404.html"]


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


def throttled_tab(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    tab.add_init_script(COUNT_AT_LOAD)
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", THROTTLE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, tab


def measure_page(browser, url: str) -> dict:
    context, tab = throttled_tab(browser)
    try:
        tab.goto(url, wait_until="load", timeout=120_000)
        return tab.evaluate(READY)
    finally:
        context.close()


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


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):  # a tab closed mid-download: nothing to report
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path):
    handler = functools.partial(GzipHandler, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="all", help="all, or site paths such as analysis/explorer/,engines/ncnn/")
    parser.add_argument("--no-scale", action="store_true", help="leave out the build at ten times the claims")
    parser.add_argument("--query", default="vulkan", help="the first search's query")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        site = scratch / "site"
        build_1x = build(ROOT / "mkdocs.yml", site)
        claims = len(load_catalog(ROOT).claims)
        build_10x = None
        if not args.no_scale:
            config, scaled_total = scaled_copy(10, scratch / "scaled")
            build_10x = build(config, scratch / "scaled-site")
        server, base = serve(site)
        pages = site_pages(site) if args.pages == "all" else args.pages.split(",")
        rows = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for path in pages:
                html = site / (path + "index.html" if not path.endswith(".html") else path)
                result = measure_page(browser, base + path)
                rows.append((path or "(home)", html.stat().st_size, result))
                print(f"  measured {path or '(home)'}", file=sys.stderr)
            searches = {when: first_search(browser, base, args.query, when) for when in ("domcontentloaded", "load")}
            filters = {claims: explorer_filter(browser, base + "analysis/explorer/")}
            if build_10x is not None:
                scaled_server, scaled_base = serve(scratch / "scaled-site")
                filters[scaled_total] = explorer_filter(browser, scaled_base + "analysis/explorer/")
                scaled_server.shutdown()
            browser.close()
        server.shutdown()
        index = (site / "search" / "search_index.json").stat().st_size

    def flag(ok: bool) -> str:
        return "" if ok else "  OVER"

    print(f"\n{claims} claims; throttled: 1.6 Mbps, 150 ms, CPU x{CPU_SLOWDOWN}; gzip as GitHub Pages serves it\n")
    width = max(len(r[0]) for r in rows) + 2
    print(f"{'page':<{width}}{'HTML KB':>9}{'elements':>10}{'load s':>9}{'script ready s':>16}")
    print(f"{'(budget)':<{width}}{BUDGET_HTML / 1000:>9.0f}{BUDGET_ELEMENTS:>10}{'':>9}{'':>16}")
    for path, size, r in rows:
        over = flag(size <= BUDGET_HTML and (r["elements"] or 0) <= BUDGET_ELEMENTS)
        ready = f"{r['ready'] / 1000:.2f}" + ("" if r["marked"] else "*")
        print(f"{path:<{width}}{size / 1000:>9.0f}{r['elements'] or 0:>10}{r['load'] / 1000:>9.2f}{ready:>16}{over}")
    print("(* no kb-ready mark: the end of DOMContentLoaded, where a kb.js without the mark has run)\n")
    print(f"{'search index':<34}{index / 1e6:>8.2f} MB   budget {BUDGET_INDEX / 1e6:.1f} MB{flag(index <= BUDGET_INDEX)}")
    for when, search in searches.items():
        print(f"{'first search, typed at ' + when:<34}{search:>8.2f} s    budget {BUDGET_FIRST_SEARCH:.1f} s"
              f"{flag(search <= BUDGET_FIRST_SEARCH)}")
    for total, times in filters.items():
        worst = max(times["text"], times["engine"])
        print(f"{'explorer filter, ' + str(total) + ' claims':<34}{worst:>8.0f} ms   budget 300 ms "
              f"(text {times['text']:.0f} ms, engine {times['engine']:.0f} ms){flag(worst <= 300)}")
    print(f"{'strict build, ' + str(claims) + ' claims':<34}{build_1x:>8.2f} s")
    if build_10x is not None:
        ratio = build_10x / build_1x
        print(f"{'strict build, ' + str(scaled_total) + ' claims':<34}{build_10x:>8.2f} s    "
              f"{ratio:.1f}x for {scaled_total / claims:.1f}x the claims (budget: linear, <= {scaled_total / claims:.1f}x)"
              f"{flag(ratio <= scaled_total / claims)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
