"""The built site in headless Chromium (Debian's package): a diagram renders, search finds a claim,
a citation link carries the pinned commit and a line anchor, matrices keep their header and row
titles in view and let the reader pick engines, every page passes axe-core in light and dark mode
and stays within its element budget. No request leaves the machine."""

import json
import re
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import sync_playwright

from enginekb.load import load_catalog
from kbsite.templating import plain
from sitebuild import built_project_site, served
from upstream import PROJECT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
AXE = PROJECT / "node_modules" / "axe-core" / "axe.min.js"  # installed from package-lock.json by scripts/setup.sh
ELEMENTS_AT_LOAD = 3000
# Elements counted at the `load` event, before a test's clicks add any.
COUNT_AT_LOAD = "addEventListener('load', () => { window.kbElementsAtLoad = document.getElementsByTagName('*').length; });"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    out = built_project_site(tmp_path_factory)
    return out


@pytest.fixture(scope="module")
def served_site(site_dir):
    with served(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def page(served_site):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"],
        )
        tab = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
        tab.add_init_script(COUNT_AT_LOAD)
        tab.requests = []
        tab.on("request", lambda request: tab.requests.append(request.url))
        yield tab
        browser.close()


def test_mermaid_diagram_renders_to_svg_from_the_site_itself(page, served_site):
    page.requests.clear()
    page.goto(f"{served_site}/engines/ncnn/", wait_until="load")
    page.locator("div.mermaid").first.scroll_into_view_if_needed()
    page.wait_for_selector(".mermaid svg", timeout=20000)
    # Imported after `load` (diagrams.js), so that it never holds the page up.
    late = page.evaluate("""() => { const load = performance.getEntriesByType('navigation')[0].loadEventStart;
      return performance.getEntriesByType('resource').filter(e => e.name.includes('mermaid')).map(e => e.startTime >= load); }""")
    assert late and all(late)
    assert page.locator(".mermaid svg").first.locator("g").count() > 0
    assert f"{served_site}/assets/vendor/mermaid/mermaid.esm.min.mjs" in page.requests
    assert [url for url in page.requests if not url.startswith(served_site)] == []
    page.requests.clear()
    page.goto(f"{served_site}/analysis/explorer/")  # a page without a diagram loads no mermaid
    page.wait_for_load_state("load")
    assert [url for url in page.requests if "mermaid" in url] == []


def test_search_finds_a_claim(page, served_site):
    page.goto(f"{served_site}/")
    page.locator("input.md-search__input").click()
    page.keyboard.type("Extractor", delay=30)
    page.wait_for_selector(".md-search-result__item", timeout=20000)
    hits = page.locator(".md-search-result__item").all_inner_texts()
    assert any("ncnn" in hit for hit in hits)


def test_a_citation_link_carries_the_pinned_commit_and_a_line_anchor(page, served_site):
    pin = load_catalog(PROJECT).engines["ncnn"].pin
    page.goto(f"{served_site}/engines/ncnn/")
    cites = page.locator("details.kb-cites").first
    cites.locator("summary").click()  # drawn from claims.json on opening
    href = cites.locator("a.kb-cite").first.get_attribute("href")
    assert re.fullmatch(rf"https://github\.com/Tencent/ncnn/blob/{pin}/[^#]+#L\d+(-L\d+)?", href), href


def _pages(site_dir) -> list[str]:
    """Every page's path below the site, the home page as "" (a page's own name may hold a dot: qwen2.5-omni)."""
    paths = (p.parent.relative_to(site_dir).as_posix() for p in site_dir.rglob("index.html")
             if "assets" not in p.parts and "search" not in p.parts)
    return sorted("" if path == "." else path for path in paths)


def test_searching_a_claim_id_lands_on_that_claim(page, served_site):
    claim_id = "ncnn/vulkan-layer-count"
    page.goto(f"{served_site}/")
    page.locator("input.md-search__input").click()
    page.keyboard.type(claim_id, delay=20)
    first = page.locator(".md-search-result__item").first
    # Results follow the typing (and the index arrives only when the search is opened): the first result
    # for the whole id, once the list has caught up, is the claim's page with the claim in it.
    page.wait_for_function("id => (document.querySelector('.md-search-result__item') || {}).innerText?.includes(id)",
                           arg=claim_id, timeout=20000)
    assert claim_id in first.inner_text()
    first.locator("a[href*='#claim-ncnn-vulkan-layer-count']").first.click()
    page.wait_for_url(re.compile(r".*/engines/ncnn/(\?[^#]*)?#claim-ncnn-vulkan-layer-count$"), timeout=10000)
    claim = page.locator("#claim-ncnn-vulkan-layer-count")
    claim.wait_for(timeout=10000)  # the page's claim lists are filled piece by piece after load
    assert claim.is_visible()


def test_a_permalinked_claim_is_highlighted_and_not_under_the_header(page, served_site):
    page.goto(f"{served_site}/engines/llama_cpp/#claim-llama-cpp-kern-op-count")
    claim = page.locator("#claim-llama-cpp-kern-op-count")
    claim.wait_for()
    page.wait_for_timeout(300)
    assert claim.evaluate("element => element.matches(':target')")
    assert claim.evaluate("element => getComputedStyle(element).outlineStyle") != "none"
    header = page.locator(".md-header").bounding_box()
    box = claim.bounding_box()
    assert box["y"] >= header["y"] + header["height"], (box, header)


def test_the_explorer_filters_by_engine_and_label_and_keeps_the_filter_in_the_url(page, served_site):
    catalog = load_catalog(PROJECT)
    page.goto(f"{served_site}/analysis/explorer/")
    shown = page.locator(".kb-explorer .kb-shown")
    page.locator(".kb-explorer tbody tr").first.wait_for()
    assert shown.inner_text() == str(len(catalog.claims))
    page.select_option(".kb-filters select[name=engine]", "ncnn")
    page.select_option(".kb-filters select[name=label]", "verified")
    expected = sum(1 for c in catalog.claims if c.engine == "ncnn" and c.label == "verified")
    assert shown.inner_text() == str(expected)
    assert page.locator(".kb-count-label[data-label=verified] .kb-n").inner_text() == str(expected)
    assert page.locator(".kb-count-label[data-label=inferred] .kb-n").inner_text() == "0"
    assert "engine=ncnn" in page.url and "label=verified" in page.url
    page.goto(page.url)  # a shared link opens the same view
    page.locator(".kb-explorer tbody tr").first.wait_for()
    assert page.locator(".kb-explorer .kb-shown").inner_text() == str(expected)


def test_the_explorer_shows_claim_text_a_window_at_a_time_and_says_when_nothing_matches(page, served_site):
    catalog = load_catalog(PROJECT)
    page.goto(f"{served_site}/analysis/explorer/?engine=ncnn")
    rows = page.locator(".kb-explorer tbody tr")
    rows.first.wait_for()
    first = next(c for c in catalog.claims if c.engine == "ncnn")
    assert rows.first.locator("td").nth(0).inner_text() == first.id
    assert rows.first.locator("td").nth(3).inner_text().startswith(plain(first.text)[:40])
    total = sum(1 for c in catalog.claims if c.engine == "ncnn")
    assert rows.count() == min(total, 50)  # a window of 50 rows; the button adds the next
    if total > 50:
        page.locator(".kb-show-more").click()
        assert rows.count() == min(total, 100)
    page.fill(".kb-filters input[name=text]", "zzzz-no-such-words")
    assert rows.count() == 0 and page.locator(".kb-explorer .kb-shown").inner_text() == "0"
    assert "No claim matches" in page.locator(".kb-explorer-status").inner_text()
    assert page.locator(".kb-explorer-status").is_visible()


def test_the_claims_download_parses_and_holds_every_claim_with_its_stamp(page, served_site):
    catalog = load_catalog(PROJECT)
    page.goto(f"{served_site}/analysis/explorer/")
    with page.expect_download() as download:
        page.locator(".kb-downloads a", has_text="claims.json").click()
    data = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert len(data["claims"]) == len(catalog.claims) and set(data["stamp"]) == {"commit", "built"}
    cited = next(c for c in data["claims"] if c["cites"])
    assert cited["cites"][0]["lines"] and "/blob/" in cited["cites"][0]["url"]
    assert data["stamp"]["commit"] in page.locator(".md-copyright").inner_text()


def test_the_palette_toggle_switches_to_dark_mode(page, served_site):
    page.goto(f"{served_site}/")
    for _ in range(3):
        if page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate":
            break
        page.locator("form[data-md-component=palette] label:visible").first.click()
        page.wait_for_timeout(200)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"


def test_no_page_is_wider_than_a_phone(page, served_site, site_dir):
    page.set_viewport_size({"width": 390, "height": 844})
    too_wide = []
    try:
        for path in _pages(site_dir):
            page.goto(f"{served_site}/{path}/" if path else f"{served_site}/")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                too_wide.append((path, width))
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
    assert too_wide == []


def test_the_verified_only_toggle_and_folding_topics(page, served_site):
    page.goto(f"{served_site}/engines/ncnn/")
    assert page.locator("section.kb-later").count() > 0  # topics further down wait in templates
    page.locator(".kb-open-all").click()  # renders every topic, those in pieces once their piece is fetched
    page.wait_for_function("document.querySelectorAll('section.kb-later').length === 0", timeout=10000)
    inferred = page.locator(".kb-claim[data-label=inferred]").first
    inferred.scroll_into_view_if_needed()
    assert inferred.is_visible()
    page.locator(".kb-verified-only").check()
    assert not inferred.is_visible()
    page.locator(".kb-verified-only").uncheck()
    topic = page.locator(".kb-topic").first
    following = page.locator(".kb-topic + .kb-claims").first
    assert following.is_visible()
    topic.click()
    assert not following.is_visible()
    topic.click()
    assert following.is_visible()


def test_a_verdict_cells_evidence_opens_by_tap_at_phone_width(page, served_site):
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.goto(f"{served_site}/analysis/comparison/")
        cell = page.locator("details.kb-cell").first
        cell.scroll_into_view_if_needed()
        assert cell.locator(".kb-evidence").count() == 0  # not in the page until asked for
        cell.locator("summary").click()
        evidence = cell.locator(".kb-evidence")
        link = evidence.locator("a.kb-ref").first
        link.wait_for()
        assert evidence.is_visible()
        assert "#claim-" in link.get_attribute("href")
        catalog = load_catalog(PROJECT)
        claim = catalog.claim(cell.get_attribute("data-evidence").split()[0])
        assert plain(claim.text)[:40] in evidence.inner_text()
        row = catalog.dimensions[cell.locator("xpath=ancestor::tr[1]").get_attribute("data-row")]  # and what the verdict means on its row
        verdict = next(c.verdict for c in catalog.cells if c.id == f"{claim.engine}/cell/{row.key}")
        note = evidence.locator(".kb-rubric-note").inner_text()
        assert note.startswith(f"{verdict} on this row:") and plain(row.rubric.grades)[:30] in note
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


def test_a_matrix_legend_draws_its_rows_rubrics_when_opened(page, served_site):
    catalog = load_catalog(PROJECT)
    page.goto(f"{served_site}/analysis/comparison/")
    legend = page.locator("details.kb-rubric-legend").first
    keys = legend.get_attribute("data-rows").split()
    assert legend.locator("dt").count() == 0  # nothing drawn until asked for
    legend.locator("summary").click()
    legend.locator("dt").first.wait_for()
    assert legend.locator("dt").all_inner_texts() == [catalog.dimensions[k].title for k in keys]
    first = catalog.dimensions[keys[0]].rubric
    assert plain(first.grades)[:30] in legend.inner_text() and "on any row:" in legend.inner_text()


def _scroll_matrix_and_measure(page) -> dict:
    box = page.locator(".kb-matrix-scroll").first
    box.scroll_into_view_if_needed()
    # A matrix off the screen is not laid out (content-visibility: auto) until a frame has drawn it in view,
    # as a reader's scrolling would: wait for that frame before scrolling the box.
    box.evaluate("box => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return box.evaluate("""box => {
        box.scrollTop = 120; box.scrollLeft = box.scrollWidth;
        const frame = box.getBoundingClientRect();
        const head = box.querySelector('thead th:last-child').getBoundingClientRect();
        const title = box.querySelector('tbody tr:nth-child(3) th').getBoundingClientRect();
        return {box: [frame.left, frame.top], head: head.top, title: title.left,
                scrolled: [box.scrollLeft, box.scrollTop], overflows: box.scrollWidth > box.clientWidth};
    }""")


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
def test_a_matrix_keeps_its_header_and_row_titles_in_view_while_it_scrolls(page, served_site, width, height):
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.goto(f"{served_site}/analysis/comparison/")
        at = _scroll_matrix_and_measure(page)
        assert at["scrolled"][1] > 0, at
        assert abs(at["head"] - at["box"][1]) <= 2, at  # the engine names stay at the top of the box
        assert abs(at["title"] - at["box"][0]) <= 2, at  # the row titles stay at its left edge
        if width == 390:  # on a phone more columns lie to the right, and the page says so
            assert at["overflows"]
            page.evaluate("document.querySelector('.kb-matrix-scroll').scrollLeft = 0")
            cue = page.locator(".kb-scroll-cue").first
            cue.wait_for()
            assert "more engine" in cue.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


def test_every_comparison_row_has_an_anchor(page, served_site):
    page.goto(f"{served_site}/analysis/comparison/#row-kind-unit-of-work")
    row = page.locator("tr#row-kind-unit-of-work")
    assert row.evaluate("element => element.matches(':target')")
    assert row.locator("th").is_visible()


def test_the_engine_picker_keeps_its_choice_in_the_url(page, served_site):
    page.goto(f"{served_site}/analysis/comparison/")
    picker = page.locator("details.kb-picker").first
    picker.locator("summary").click()
    picker.locator("input[value=vllm]").uncheck()
    chosen = parse_qs(urlsplit(page.url).query)["engines"][0].split(",")
    assert "vllm" not in chosen and "ncnn" in chosen and len(chosen) == 5
    table = page.locator("table.kb-matrix").nth(1)
    assert not table.locator("th[data-engine=vllm]").is_visible()
    assert table.locator("th[data-engine=ncnn]").is_visible()
    page.goto(page.url)  # a shared link compares the same engines, on every matrix of the page
    assert not page.locator("table.kb-matrix").last.locator("td[data-engine=vllm]").first.is_visible()
    assert page.locator("table.kb-matrix").last.locator("td[data-engine=ncnn]").first.is_visible()
    named = page.locator("details.kb-picker summary").first.inner_text().removeprefix("Engines: ").split(", ")
    assert "vLLM" not in named and "ncnn" in named


def _axe(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary.split('\\n')[1]).join(' | '))""")
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_and_stays_within_its_element_budget(page, served_site, site_dir, scheme):
    """axe-core on every page as loaded (and with a verdict cell's evidence and an explorer page drawn),
    failing on any serious or critical violation; the elements counted at `load`."""
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{served_site}/")
    page.evaluate("localStorage.clear()")  # follow the system setting, whatever a test chose with the toggle
    problems, heavy = [], []
    try:
        for path in _pages(site_dir) + ["404.html"]:
            page.goto(f"{served_site}/{path}/" if path and path != "404.html" else f"{served_site}/{path}")
            page.wait_for_load_state("load")
            assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == ("slate" if scheme == "dark" else "default")
            elements = page.evaluate("window.kbElementsAtLoad")
            if elements > ELEMENTS_AT_LOAD:
                heavy.append((path, elements))
            if page.locator("details.kb-cell").count():
                page.locator("details.kb-cell summary").first.click()
                page.locator("details.kb-cell .kb-evidence li").first.wait_for()
            if page.locator(".kb-explorer").count():
                page.locator(".kb-explorer tbody tr").first.wait_for()
            problems += [f"{path or 'home'} ({scheme}): {found}" for found in _axe(page)]
    finally:
        page.emulate_media(color_scheme="light")
    assert heavy == [] and problems == [], "\n".join(problems) + f"\nover {ELEMENTS_AT_LOAD} elements: {heavy}"


def test_the_figure_and_artifact_tables_filter_and_keep_their_filters_in_the_url(page, served_site):
    catalog = load_catalog(PROJECT)
    measured = [c for c in catalog.claims if c.measurement]
    page.goto(f"{served_site}/analysis/all_figures/")
    every = page.locator(".kb-measurements", has=page.locator("select[name=page]")).last
    every.locator("select[name=page]").select_option("phone-npu")
    expected = sum(1 for c in measured if c.report == "phone-npu")
    assert every.locator(".kb-shown").inner_text() == str(expected)
    assert "page=phone-npu" in page.url
    page.goto(page.url)  # a shared link restores the filter
    assert page.locator(".kb-measurements .kb-shown").last.inner_text() == str(expected)
    row = page.locator(".kb-measurements-table tr:not([hidden])").last
    row.get_by_text("provenance").click()  # the provenance is one tap away, on the record's own page
    page.wait_for_url("**/phone_npu/#claim-*")
    record = page.locator(".kb-measurements-table tr:target")
    record.wait_for()  # the record's row on its own page is the target
    assert record.count() == 1
    record.locator("summary").click()
    # The list is drawn from the row's <template> by the details' toggle event, a task after the click.
    record.locator(".kb-provenance-list").wait_for(state="visible", timeout=5000)
    page.goto(f"{served_site}/analysis/artifacts/")
    artifacts = page.locator(".kb-artifacts")
    artifacts.locator("select[name=status]").select_option("superseded")
    superseded = [a for a in catalog.inventory.artifacts if a.reason == "superseded"]
    assert artifacts.locator(".kb-shown").inner_text() == str(len(superseded))
    assert "a-status=superseded" in page.url
    page.goto(page.url)
    assert page.locator(".kb-artifacts .kb-shown").inner_text() == str(len(superseded))


@pytest.mark.parametrize("width", [1400, 390])
def test_the_comparison_grid_shows_every_row_against_all_six_engines_and_opens_an_answer(page, served_site, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{served_site}/analysis/comparison/")
    page.wait_for_selector(".kb-grid-table td.kb-grid-mark", timeout=20000)
    rows = page.eval_on_selector_all(
        ".kb-grid-table tbody tr:not(.kb-grid-layer)", "rows => rows.map(r => r.querySelectorAll('td.kb-grid-mark').length)")
    assert len(rows) == len(load_catalog(PROJECT).dimensions) and set(rows) == {6}
    # On a phone the six columns are on one screen: the grid is no wider than the viewport.
    assert page.eval_on_selector(".kb-grid-table", "t => t.getBoundingClientRect().right") <= width
    page.locator(".kb-grid-table td.kb-grid-mark").nth(7).click()
    permalink = page.locator(".kb-grid-answer a.kb-permalink")
    permalink.wait_for(timeout=10000)
    target = permalink.get_attribute("href")
    assert target.startswith("#row-") and page.locator(target).count() == 1
    page.set_viewport_size({"width": 1400, "height": 900})


def test_the_explorer_exports_what_it_shows_for_two_labels_at_once(page, served_site):
    import csv
    import io
    page.goto(f"{served_site}/analysis/explorer/")
    page.wait_for_selector(".kb-explorer select[name=label]", timeout=20000)
    page.select_option(".kb-explorer select[name=label]", ["inferred", "unknown"])
    page.wait_for_timeout(800)
    with page.expect_download() as download:
        page.click(".kb-explorer [data-export=csv]")
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    catalog = load_catalog(PROJECT)
    assert {row["label"] for row in rows} == {"inferred", "unknown"}
    assert len(rows) == sum(1 for claim in catalog.claims if claim.label in ("inferred", "unknown"))


@pytest.mark.parametrize("query", ["?engines=__proto__", "?engines=constructor,toString", "?engines=hasOwnProperty"])
def test_engine_names_from_the_url_are_own_names_only(page, served_site, query):
    """The URL is anyone's: a name every object inherits picks no engine, so every column stays shown."""
    page.goto(f"{served_site}/analysis/comparison/{query}")
    table = page.locator("table.kb-matrix").nth(1)
    for engine in ("vllm", "ncnn", "mnn"):
        assert table.locator(f"th[data-engine='{engine}']").is_visible()
    page.goto(f"{served_site}/analysis/comparison/?engines=__proto__,ncnn")
    assert table.locator("th[data-engine=ncnn]").is_visible()
    assert not table.locator("th[data-engine=vllm]").is_visible()


@pytest.mark.parametrize("fragment", ["#%", "#%E0%A4%A", "#claim-%zz"])
def test_a_fragment_that_does_not_decode_is_said_and_the_explorer_still_runs(page, served_site, fragment):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{served_site}/analysis/explorer/?engine=__proto__&label=constructor{fragment}")
    page.wait_for_function("performance.getEntriesByName('kb-ready').length > 0", timeout=20000)
    assert not errors
    note = page.locator(".kb-url-problem")
    assert note.is_visible() and fragment[1:] in note.inner_text() and "ignored" in note.inner_text()
    assert page.locator(".kb-explorer tbody tr").count() > 0  # unknown values select nothing: every claim shows
