"""Evidence on demand in Chromium: a panel reads its page's small evidence files, never the whole
claims.json, and the ncnn page's first cite panel fits a phone; the search index waits for the reader."""

import shutil

import pytest
from playwright.sync_api import sync_playwright

from enginekb.model import LABEL_TITLES
from kbsite.evidence import cite_bucket
from sitebuild import built_project_site, served

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = built_project_site(tmp_path_factory)
    with served(out) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser, f"{url}/"
        browser.close()


def tab(browser, width):
    page = browser.new_page(viewport={"width": width, "height": 844 if width < 600 else 900})
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    return page


def test_a_verdict_cells_evidence_reads_the_pages_own_files(site):
    browser, base = site
    page = tab(browser, 1400)
    page.goto(base + "analysis/comparison/", wait_until="load")
    cell = page.locator('td[data-engine="ncnn"] details.kb-cell').first
    cell.locator("summary").click()
    cell.locator(".kb-evidence li a.kb-ref").first.wait_for(timeout=20000)
    assert cell.locator(".kb-rubric-note").count() == 1  # the row's rubric, from rubrics.json
    fetched = [url for url in page.requests if "/evidence/" in url or "claims.json" in url]
    row = cell.locator("xpath=ancestor::tr[1]").get_attribute("data-row")
    assert fetched == [f"{base}evidence/analysis/comparison/row-{row}.json"]  # one small file: the row's
    assert not [url for url in fetched if "claims.json" in url]
    page.close()


def test_the_ncnn_pages_first_cite_panel_fits_a_phone(site):
    browser, base = site
    page = tab(browser, 390)
    page.goto(base + "engines/ncnn/", wait_until="load")
    page.locator("section.kb-claims").first.scroll_into_view_if_needed()
    cites = page.locator("details.kb-cites").first
    cites.wait_for(timeout=20000)
    cites.locator("summary").click()
    links = cites.locator(".kb-cites-list a.kb-cite")
    links.first.wait_for(timeout=20000)
    cites.evaluate("element => element.scrollIntoView({block: 'center'})")
    box = cites.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for index in range(links.count()):
        link = links.nth(index).bounding_box()
        assert link["x"] >= 0 and link["x"] + link["width"] <= 390, link
    assert [url for url in page.requests if "/evidence/engines/ncnn/cites-" in url]
    assert not [url for url in page.requests if "claims.json" in url]
    page.close()


FIRST_CITES = """async () => {
  const details = document.querySelector('details.kb-cites');
  const meta = document.querySelector('meta[name="kb-evidence"]');
  const result = {claim: details.dataset.claim, fromPiece: Boolean(details.closest('section[data-piece]')),
                  buckets: Number(meta.dataset.citeBuckets), folder: new URL(meta.content, location.href).href};
  details.open = true;
  while (!details.querySelector('.kb-cites-list li')) await new Promise(resolve => setTimeout(resolve, 20));
  const ready = performance.getEntriesByName('kb-ready')[0].startTime;
  result.files = performance.getEntriesByType('resource').filter(e => e.name.startsWith(result.folder))
    .map(e => ({name: e.name.slice(result.folder.length), by: e.initiatorType, started: e.startTime, ready: ready}));
  return result;
}"""


@pytest.mark.parametrize("engine", ["vllm", "vllm_omni", "llama_cpp", "ncnn", "mnn", "executorch"])
def test_an_engine_pages_first_cites_panel_waits_for_no_piece_and_no_request_of_its_own(site, engine):
    """On an engine page the first panel a reader can open, the first claim's cites, is in the page as
    served (its list stays there: no piece to wait for), and the one file it draws from was asked for by
    the page's head (a preload), before the page's script was ready: opening it sends no request."""
    browser, base = site
    page = tab(browser, 1400)
    page.goto(base + f"engines/{engine}/", wait_until="domcontentloaded")
    panel = page.evaluate(FIRST_CITES)
    assert not panel["fromPiece"], panel
    wanted = f"cites-{cite_bucket(panel['claim'], panel['buckets'])}.json"
    assert [(file["name"], file["by"]) for file in panel["files"]] == [(wanted, "link")], panel  # no rubrics.json either
    assert panel["files"][0]["started"] < panel["files"][0]["ready"], panel
    assert len([url for url in page.requests if url.endswith(f"/evidence/engines/{engine}/{wanted}")]) == 1
    page.close()


def test_the_search_index_waits_for_the_reader_or_for_load(site):
    browser, base = site
    page = tab(browser, 1400)
    page.goto(base + "analysis/scenarios/barge-in/", wait_until="domcontentloaded")
    assert not [url for url in page.requests if "search_index.json" in url]
    worker = "() => performance.getEntriesByType('resource').some(e => e.name.includes('/workers/search.'))"
    assert not page.evaluate(worker)  # nor is the theme's search worker started (the bundle asked for it before DOMContentLoaded)
    page.locator("input.md-search__input").click()  # reaching for search asks for it at once
    page.wait_for_function("() => performance.getEntriesByType('resource').some(e => e.name.endsWith('search_index.json'))",
                           timeout=10000)
    page.wait_for_function(worker, timeout=10000)
    page.keyboard.type("barge-in")
    page.locator(".md-search-result__item").first.wait_for(timeout=30000)
    page.close()


def test_a_reference_gains_its_claims_text_on_hover_from_the_pages_evidence(site):
    browser, base = site
    page = tab(browser, 1400)
    page.goto(base + "analysis/comparison/", wait_until="load")
    ref = page.locator("p a.kb-ref[data-ref]").first
    claim = ref.get_attribute("data-ref")
    title = ref.get_attribute("title")
    assert title in LABEL_TITLES.values(), title  # the label only
    ref.hover()
    page.wait_for_function("ref => ref.title.indexOf(': ') > 0", arg=ref.element_handle(), timeout=20000)
    assert ref.get_attribute("title").startswith(title + ": ")
    assert f"{base}evidence/analysis/comparison/{claim.split('/')[0]}.json" in page.requests
    assert not [url for url in page.requests if "claims.json" in url]
    page.close()


def test_report_a_problem_opens_a_prefilled_issue_naming_the_record(site):
    """With ENGINEKB_REPO_URL the build names the new-issue page in a <meta> (kbsite/report.py); here that
    meta is put into the served pages as the build would, and each claim card and evidence item gains the link."""
    from urllib.parse import parse_qs, urlsplit

    from kbsite.report import issues_meta, with_issues_meta

    browser, base = site
    meta = issues_meta("https://github.com/example/enginekb")
    page = tab(browser, 1400)

    def with_meta(route):
        response = route.fetch()
        body = response.text()
        route.fulfill(response=response, body=with_issues_meta(body, meta) if "<head>" in body else body)
    page.route("**/", with_meta)
    page.goto(base + "analysis/comparison/", wait_until="load")
    cell = page.locator('td[data-engine="mnn"] details.kb-cell').first
    cell.locator("summary").click()
    item = cell.locator(".kb-evidence li").first
    link = item.locator("a.kb-report")
    link.wait_for(timeout=20000)
    claim = item.locator("a.kb-ref").get_attribute("data-claim")
    href = urlsplit(link.get_attribute("href"))
    asked = parse_qs(href.query)
    assert f"{href.scheme}://{href.netloc}{href.path}" == "https://github.com/example/enginekb/issues/new"
    assert asked["title"] == [f"Problem with record {claim}"] and f"`{claim}`" in asked["body"][0]
    assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    page.close()
