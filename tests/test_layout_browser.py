"""What a reader sees and takes away, in Chromium at 1400 and 390 px: every table fits its column or scrolls
in a box that says it scrolls, a diagram on a phone is drawn at a readable size in a box that scrolls, and
the explorer exports what it shows for several engines, labels and rows at once."""

import shutil

import pytest
from playwright.sync_api import sync_playwright

from sitebuild import built_project_site, served

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# A table wider than its column: the nearest box that scrolls it, and whether that box says so (a matrix's
# cue and shadow, kb.css's edge shadows on the other boxes, the theme's wrapper of a Markdown table too).
OVERFLOWING = """() => Array.from(document.querySelectorAll('article table')).filter(t => t.offsetParent).map(t => {
  let box = t.parentElement;
  while (box.tagName !== 'ARTICLE' && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
  const over = Math.round(t.getBoundingClientRect().width - box.clientWidth);
  const clear = getComputedStyle(t).backgroundColor === 'rgba(0, 0, 0, 0)';  // the table does not hide its box's shadows
  const cue = box.matches('.kb-matrix-scroll') || (clear && getComputedStyle(box).backgroundImage.includes('radial-gradient'));
  return {table: t.className || t.querySelector('th') && t.querySelector('th').textContent.trim(), box: box.className, over: over, cue: cue};
}).filter(r => r.over > 1)"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = built_project_site(tmp_path_factory)
    pages = sorted(p.parent.relative_to(out).as_posix() + "/" for p in out.rglob("index.html")
                   if not {"assets", "search", "downloads"} & set(p.relative_to(out).parts))
    with served(out) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser, f"{url}/", ["" if p == "./" else p for p in pages]
        browser.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_every_table_fits_or_scrolls_in_a_box_that_says_so(site, width):
    browser, base, pages = site
    page = browser.new_page(viewport={"width": width, "height": 900})
    silent = {}
    for path in pages:
        page.goto(base + path, wait_until="load")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")  # folded tables too
        page.wait_for_timeout(100)
        found = [r for r in page.evaluate(OVERFLOWING) if not r["cue"]]
        if found:
            silent[path] = found
    page.close()
    assert silent == {}


@pytest.mark.parametrize("path", ["engines/ncnn/", "engines/vllm_omni_models/", "analysis/comparison/"])
def test_a_diagram_on_a_phone_is_drawn_readable_in_a_box_that_scrolls(site, path):
    browser, base, _ = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + path, wait_until="load")
    for diagram in page.locator("div.mermaid").all():
        diagram.scroll_into_view_if_needed()
        diagram.locator("svg g").first.wait_for(timeout=30000)
        shown = diagram.evaluate("""box => {
          const svg = box.querySelector('svg'), scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const labels = Array.from(box.querySelectorAll('svg .nodeLabel, svg text')).filter(l => l.textContent.trim());
          const sizes = labels.map(l => parseFloat(getComputedStyle(l).fontSize) * scale);  // as drawn on the screen
          return {smallest: Math.min(...sizes), labels: labels.length, overflow: getComputedStyle(box).overflowX,
                  right: box.getBoundingClientRect().right};
        }""")
        assert shown["labels"] > 3, shown
        assert shown["smallest"] >= 11, shown  # label text drawn at 11 px or more on the screen
        assert shown["overflow"] == "auto" and shown["right"] <= 390, shown  # the box scrolls, the page does not
    page.close()


def test_the_explorer_exports_its_rows_for_several_engines_labels_and_rows_as_csv_and_json(site):
    import csv
    import io
    import json

    browser, base, _ = site
    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    every = page.request.get(base + "downloads/claims.json").json()["claims"]
    rows = sorted({c["dimension"] for c in every if c["engine"] in ("ncnn", "mnn")})[:3]
    want = {c["id"] for c in every if c["engine"] in ("ncnn", "mnn") and c["label"] in ("verified", "inferred")
            and c["dimension"] in rows}
    assert len(want) > 3
    page.goto(base + f"analysis/explorer/?engine=ncnn,mnn&label=verified,inferred&dimension={','.join(rows)}")
    page.wait_for_function("() => performance.getEntriesByName('kb-ready').length", timeout=30000)
    assert page.locator(".kb-explorer .kb-shown").inner_text() == str(len(want))
    with page.expect_download() as download:
        page.click(".kb-explorer [data-export=csv]")
    with open(download.value.path(), encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0])[:3] == ["id", "engine", "label"]  # the header first, as claims.csv
    assert {row["id"] for row in table} == want and len(table) == len(want)
    with page.expect_download() as download:
        page.click(".kb-explorer [data-export=json]")
    with open(download.value.path(), encoding="utf-8") as handle:
        records = json.load(handle)["claims"]
    assert {record["id"] for record in records} == want
    assert {(r["engine"], r["label"]) for r in records} <= {(e, l) for e in ("ncnn", "mnn") for l in ("verified", "inferred")}
    page.close()


@pytest.mark.parametrize("path, answers", [("analysis/comparison/", "tr[data-row] > td[data-engine]"),
                                           ("analysis/scenarios/tts-raspberry-pi/", "tr[id^='answer-']")])
def test_every_verdict_cell_and_scenario_answer_has_a_permalink_that_lands_on_it(site, path, answers):
    browser, base, _ = site
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(base + path, wait_until="load")
    page.wait_for_function("() => performance.getEntriesByName('kb-ready').length", timeout=30000)
    missing = page.eval_on_selector_all(f".md-content {answers}", "cells => cells.filter(c => !c.id).length")
    total = page.locator(f".md-content {answers}").count()
    assert total >= 6 and missing == 0
    holder = page.locator(f".md-content {answers}").nth(4)
    own = holder.get_attribute("id")
    holder.locator("details[data-evidence] > summary").first.click()
    permalink = holder.locator(".kb-evidence a.kb-permalink")
    permalink.wait_for(timeout=20000)
    assert permalink.get_attribute("href") == "#" + own
    page.goto(base + path + "#" + own, wait_until="load")
    page.wait_for_function("id => { const t = document.getElementById(id); const r = t && t.getBoundingClientRect();"
                           " return r && r.top >= 0 && r.top < innerHeight; }", arg=own, timeout=20000)
    page.close()
