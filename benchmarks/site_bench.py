"""How heavy and how fast the built site is, beside its budgets.

    .venv/bin/python benchmarks/site_bench.py [--pages all|PATH,PATH] [--no-scale] [--site DIR]

Builds the site strictly (timed), serves it from this process on 127.0.0.1 with gzip for text, as
GitHub Pages does, and loads every page cold in headless Chromium (Playwright driving Debian's
`chromium`, as the browser test does) on a throttled profile: 1.6 Mbps down, 750 kbps up, 150 ms
latency, CPU slowed 4x. Per page it prints, beside the budgets, the HTML bytes as built (uncompressed), the elements at
the `load` event, the time to `load`, and the time until the page's own script is ready: the
`kb-ready` performance mark kb.js sets when it has finished (filters working, matrices set up), or,
for a build whose kb.js sets no mark, the end of DOMContentLoaded (where such a kb.js ran). Then
its first evidence panel (site_measure.py says which it is): the time from navigation until it is
drawn, opened as soon as the script is ready, and the bytes received by then; how many pages are within
each budget. Then the search index's size, the time from typing a query as soon as the page is parsed
(and, again, once it has loaded) to the first result, and the strict build at today's claims and at ten times as many (claims files copied with new ids, as
citecheck_bench.py does). A benchmark, not a test: it asserts nothing, it prints.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from citecheck_bench import scaled_project  # noqa: E402
from enginekb.load import load_catalog  # noqa: E402
from site_measure import CPU_SLOWDOWN, explorer_filter, first_search, measure_page, serve  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BUDGET_HTML = 350_000
BUDGET_ELEMENTS = 3_000
BUDGET_LOAD = 5.0  # seconds to `load`, throttled
BUDGET_PANEL = 2.0  # seconds from navigation to the first evidence panel drawn, throttled
BUDGET_PANEL_BYTES = 150_000  # bytes (compressed, as sent) finished before that panel is drawn
BUDGET_INDEX = 500_000  # fetched once the reader reaches for search, or after `load` (tests/test_site.py)
BUDGET_FIRST_SEARCH = 2.0


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="all", help="all, or site paths such as analysis/explorer/,engines/ncnn/")
    parser.add_argument("--no-scale", action="store_true", help="leave out the build at ten times the claims")
    parser.add_argument("--query", default="vulkan", help="the first search's query")
    parser.add_argument("--site", type=Path, help="measure this built site instead of building one (no build times)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        site = args.site or scratch / "site"
        build_1x = None if args.site else build(ROOT / "mkdocs.yml", site)
        claims = len(load_catalog(ROOT).claims)
        build_10x = None
        if not args.no_scale and not args.site:
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
        claims_index = (site / "search" / "search_claims.json").stat().st_size  # fetched after the first answer

    def flag(ok: bool) -> str:
        return "" if ok else "  OVER"

    print(f"\n{claims} claims; throttled: 1.6 Mbps, 150 ms, CPU x{CPU_SLOWDOWN}; gzip as GitHub Pages serves it\n")
    width = max(len(r[0]) for r in rows) + 2
    print(f"{'page':<{width}}{'HTML KB':>9}{'elements':>10}{'load s':>9}{'ready s':>9}{'panel s':>9}{'KB before':>11}")
    print(f"{'(budget)':<{width}}{BUDGET_HTML / 1000:>9.0f}{BUDGET_ELEMENTS:>10}{BUDGET_LOAD:>9.1f}{'':>9}"
          f"{BUDGET_PANEL:>9.1f}{BUDGET_PANEL_BYTES / 1000:>11.0f}")
    passed = {"HTML": 0, "elements": 0, "load": 0, "first panel": 0, "bytes before the panel": 0}
    with_panel = 0
    for path, size, r in rows:
        panel = r["panel"]
        checks = {"HTML": size <= BUDGET_HTML, "elements": (r["elements"] or 0) <= BUDGET_ELEMENTS,
                  "load": r["load"] / 1000 <= BUDGET_LOAD}
        if panel is not None:
            with_panel += 1
            checks["first panel"] = panel["at"] is not None and panel["at"] / 1000 <= BUDGET_PANEL
            checks["bytes before the panel"] = panel["bytes"] <= BUDGET_PANEL_BYTES
        for name, ok in checks.items():
            passed[name] += ok
        over = [name for name, ok in checks.items() if not ok]
        ready = f"{r['ready'] / 1000:.2f}" + ("" if r["marked"] else "*")
        shown = ("-", "-") if panel is None else (
            "none" if panel["at"] is None else f"{panel['at'] / 1000:.2f}", f"{panel['bytes'] / 1000:.0f}")
        print(f"{path:<{width}}{size / 1000:>9.0f}{r['elements'] or 0:>10}{r['load'] / 1000:>9.2f}{ready:>9}"
              f"{shown[0]:>9}{shown[1]:>11}" + (f"  OVER: {', '.join(over)}" if over else ""))
    print("(* no kb-ready mark: the end of DOMContentLoaded, where a kb.js without the mark has run;"
          " panel: - on a page without evidence)\n")
    for name, count in passed.items():
        of = with_panel if name in ("first panel", "bytes before the panel") else len(rows)
        print(f"{'within budget, ' + name:<40}{count:>4} of {of:<4} pages ({count / of if of else 1:.0%})")
    print()
    print(f"{'search index (pages)':<34}{index / 1e6:>8.2f} MB   budget {BUDGET_INDEX / 1e6:.1f} MB{flag(index <= BUDGET_INDEX)}")
    print(f"{'search index (claims, after)':<34}{claims_index / 1e6:>8.2f} MB")
    for when, search in searches.items():
        print(f"{'first search, typed at ' + when:<34}{search:>8.2f} s    budget {BUDGET_FIRST_SEARCH:.1f} s"
              f"{flag(search <= BUDGET_FIRST_SEARCH)}")
    for total, times in filters.items():
        worst = max(times["text"], times["engine"])
        print(f"{'explorer filter, ' + str(total) + ' claims':<34}{worst:>8.0f} ms   budget 300 ms "
              f"(text {times['text']:.0f} ms, engine {times['engine']:.0f} ms){flag(worst <= 300)}")
    if build_1x is not None:
        print(f"{'strict build, ' + str(claims) + ' claims':<34}{build_1x:>8.2f} s")
    if build_10x is not None:
        ratio = build_10x / build_1x
        print(f"{'strict build, ' + str(scaled_total) + ' claims':<34}{build_10x:>8.2f} s    "
              f"{ratio:.1f}x for {scaled_total / claims:.1f}x the claims (budget: linear, <= {scaled_total / claims:.1f}x)"
              f"{flag(ratio <= scaled_total / claims)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
