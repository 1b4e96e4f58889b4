"""The built site in headless Chromium (Debian's package): a diagram renders, search finds a claim,
and a citation link carries the pinned commit and a line anchor. No request leaves the machine."""

import functools
import http.server
import json
import re
import shutil
import threading

import pytest
from playwright.sync_api import sync_playwright

from enginekb.load import load_catalog
from sitebuild import build_site, project_config
from upstream import PROJECT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Material draws diagrams into a closed shadow root; open it so the test can see the SVG.
OPEN_SHADOW_ROOTS = (
    "const attach = Element.prototype.attachShadow;"
    "Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: 'open'}); };"
)


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = build_site(project_config(), out)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def served_site(site_dir):
    out = site_dir
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def page(served_site):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"],
        )
        tab = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
        tab.add_init_script(OPEN_SHADOW_ROOTS)
        tab.requests = []
        tab.on("request", lambda request: tab.requests.append(request.url))
        yield tab
        browser.close()


def test_mermaid_diagram_renders_to_svg_from_the_site_itself(page, served_site):
    page.goto(f"{served_site}/engines/ncnn/")
    page.wait_for_selector(".mermaid svg", timeout=20000)
    assert page.locator(".mermaid svg").first.locator("g").count() > 0
    assert f"{served_site}/assets/vendor/mermaid/mermaid.min.js" in page.requests
    assert [url for url in page.requests if not url.startswith(served_site)] == []


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
    href = page.locator("a.kb-cite").first.get_attribute("href")
    assert re.fullmatch(rf"https://github\.com/Tencent/ncnn/blob/{pin}/[^#]+#L\d+(-L\d+)?", href), href


def _pages(site_dir) -> list[str]:
    return sorted(str(p.parent.relative_to(site_dir)).replace(".", "") for p in site_dir.rglob("index.html")
                  if "assets" not in p.parts and "search" not in p.parts)


def test_searching_a_claim_id_lands_on_that_claim(page, served_site):
    claim_id = "ncnn/vulkan-layer-count"
    page.goto(f"{served_site}/")
    page.locator("input.md-search__input").click()
    page.keyboard.type(claim_id, delay=20)
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=20000)
    assert claim_id in first.inner_text()  # the first result is the claim's page, with the claim in it
    first.locator("a[href*='#claim-ncnn-vulkan-layer-count']").first.click()
    page.wait_for_url(re.compile(r".*/engines/ncnn/(\?[^#]*)?#claim-ncnn-vulkan-layer-count$"), timeout=10000)
    assert page.locator("#claim-ncnn-vulkan-layer-count").is_visible()


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
    assert shown.inner_text() == str(len(catalog.claims))
    page.select_option(".kb-filters select[name=engine]", "ncnn")
    page.select_option(".kb-filters select[name=label]", "verified")
    expected = sum(1 for c in catalog.claims if c.engine == "ncnn" and c.label == "verified")
    assert shown.inner_text() == str(expected)
    assert page.locator(".kb-count-label[data-label=verified] .kb-n").inner_text() == str(expected)
    assert page.locator(".kb-count-label[data-label=inferred] .kb-n").inner_text() == "0"
    assert "engine=ncnn" in page.url and "label=verified" in page.url
    page.goto(page.url)  # a shared link opens the same view
    assert page.locator(".kb-explorer .kb-shown").inner_text() == str(expected)


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
        evidence = cell.locator(".kb-evidence")
        assert not evidence.is_visible()
        cell.locator("summary").click()
        assert evidence.is_visible()
        link = evidence.locator("a.kb-ref").first
        assert "#claim-" in link.get_attribute("href")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


def test_the_experiments_page_filters_its_figure_and_artifact_tables_each_under_its_own_key(page, served_site):
    catalog = load_catalog(PROJECT)
    measured = [c for c in catalog.claims if c.measurement]
    page.goto(f"{served_site}/analysis/experiments/")
    every = page.locator(".kb-measurements", has=page.locator("select[name=page]")).last
    every.locator("select[name=page]").select_option("phone-npu")
    expected = sum(1 for c in measured if c.report == "phone-npu")
    assert every.locator(".kb-shown").inner_text() == str(expected)
    artifacts = page.locator(".kb-artifacts")
    artifacts.locator("select[name=status]").select_option("superseded")
    superseded = [a for a in catalog.inventory.artifacts if a.reason == "superseded"]
    assert artifacts.locator(".kb-shown").inner_text() == str(len(superseded))
    assert "a-status=superseded" in page.url and "page=phone-npu" in page.url
    page.goto(page.url)  # a shared link restores both tables
    assert page.locator(".kb-artifacts .kb-shown").inner_text() == str(len(superseded))
    row = page.locator(".kb-measurements-table tr:not([hidden])").last
    row.locator("summary").click()  # the provenance is one tap away
    assert row.locator(".kb-provenance-list").is_visible()
