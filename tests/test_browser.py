"""The built site in headless Chromium (Debian's package): a diagram renders, search finds a claim,
and a citation link carries the pinned commit and a line anchor. No request leaves the machine."""

import functools
import http.server
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
def served_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = build_site(project_config(), out)
    assert done.returncode == 0, done.stderr
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
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
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
