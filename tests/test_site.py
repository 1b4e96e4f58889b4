"""A real strict build of the project's site, and a build that must fail on a bad page."""

import html
import json
import posixpath
import re
import shutil
from urllib.parse import urldefrag, urlsplit

import pytest

from enginekb.load import load_catalog
from enginekb.model import claim_anchor
from kbsite.pages import engine_page
from kbsite.pieces import split_waiting
from kbsite.templating import plain
from sitebuild import build_site, project_config
from upstream import PROJECT


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """The project's site, built once with --strict for the tests of this module."""
    out = tmp_path_factory.mktemp("built") / "site"
    done = build_site(project_config(), out)
    assert done.returncode == 0, done.stderr
    return out


def page_as_read(page) -> str:
    """A built page as a reader gets it: each claim list waiting in the page's piece put back in its section."""
    pieces = {}

    def filled(match: re.Match) -> str:
        tag = match.group(0)
        href, index = re.search(r'data-piece="([^"]+)"', tag).group(1), int(re.search(r'data-index="(\d+)"', tag).group(1))
        if href not in pieces:
            pieces[href] = json.loads((page.parent / href).read_text())
        return tag + pieces[href][index]

    return re.sub(r'<section class="kb-claims kb-later"[^>]*\bdata-piece="[^>]*>', filled, page.read_text())


def test_the_project_site_builds_strictly(built_site):
    home = (built_site / "index.html").read_text()
    assert "kb-engines" in home and "kb-coverage" in home
    ncnn = (built_site / "engines" / "ncnn" / "index.html").read_text()
    # Its claim lists wait in the page's pieces (tested below), all but the first, which holds the page's
    # first cites panel: that panel waits for no piece.
    first = re.search(r'<section class="kb-claims" data-search-exclude>(.*?)</section>', ncnn, re.S)
    assert first and 'class="kb-cites"' in first.group(1) and ncnn.count('class="kb-claim"') == first.group(1).count('class="kb-claim"')
    assert ncnn.index('class="kb-claim"') < ncnn.index("data-piece=")
    catalog = load_catalog(PROJECT)
    explorer = (built_site / "analysis" / "explorer" / "index.html").read_text()
    assert 'data-claims="../../downloads/claims.json"' in explorer  # the explorer reads every claim from it
    data = json.loads((built_site / "downloads" / "claims.json").read_text())
    assert len(data["claims"]) == len(catalog.claims) and len({c["id"] for c in data["claims"]}) == len(catalog.claims)
    # A diagram's page keeps its source for diagrams.js, which imports the vendored mermaid itself (no CDN,
    # no module script of a plugin's in the page); a page without a diagram names no mermaid.
    assert '<div  class="mermaid">' in ncnn and "unpkg.com" not in ncnn and "cdn.jsdelivr" not in ncnn
    assert "import mermaid" not in ncnn and 'src="../../assets/diagrams.js"' in ncnn
    assert "mermaid" not in (built_site / "404.html").read_text() and "mermaid" not in explorer
    # ...and its layout words stay out of the search index, which holds the page's sentences instead.
    index = (built_site / "search" / "search_index.json").read_text()
    assert '<div data-search-exclude><div  class="mermaid">' in ncnn and "graph TB" not in index


def test_every_page_and_the_search_index_are_within_their_budgets(built_site):
    """The weights the site promises (elements at load are measured by the browser test)."""
    pages = [p for p in built_site.rglob("*.html") if "assets" not in p.parts]
    heavy = {p.relative_to(built_site).as_posix(): p.stat().st_size for p in pages if p.stat().st_size > 350_000}
    assert len(pages) > 15 and heavy == {}
    # 1.2 MB while every page fetched the index at once; it now waits for the reader or for `load`
    # (kbsite/inline/search-later.js), and the words that find pages by other spellings, file names and
    # symbols (kbsite/searchwords.py) cost about 130 KB; at 1,880 claims it was 1.41 MB. The claims' entries
    # are now a second file, fetched after the first answer, and long texts are cut (kbsite/searchwords.py):
    # the pages' index is 0.33 MB at 2,012 claims, the claims' file 0.91 MB. What a reader waits for is in
    # site_bench.py, whose BUDGET_INDEX is this one.
    assert (built_site / "search" / "search_index.json").stat().st_size <= 500_000
    assert (built_site / "search" / "search_claims.json").stat().st_size <= 1_500_000


def test_each_waiting_claim_list_names_an_entry_of_its_pages_piece(built_site):
    """A page's claim lists leave it for pieces/<page>.json, and every section left behind is filled from there
    (an index past the piece's end raises in page_as_read)."""
    for page in (p for p in built_site.rglob("*.html") if "assets" not in p.parts):
        assert '<section class="kb-claims kb-later" data-search-exclude><template>' not in page.read_text(), page
        assert re.findall(r'<section class="kb-claims kb-later"[^>]*></section>', page_as_read(page)) == [], page
    assert page_as_read(built_site / "engines" / "ncnn" / "index.html").count('class="kb-claim"') >= 60


def test_the_list_holding_the_first_cites_stays_in_the_page():
    """split_waiting moves every waiting list into pieces but the first that shows claim `keep`'s cites,
    which stays, drawn; without `keep`, all move."""
    def waiting(body):
        return f'<section class="kb-claims kb-later" data-search-exclude><template>{body}</template></section>'

    page = "<h3>1</h3>" + waiting("<p>no cites</p>") + "<h3>2</h3>" + waiting('<details class="kb-cites" data-claim="e/a&amp;b">') + \
        waiting('<details class="kb-cites" data-claim="e/a&amp;b">')
    html_, pieces = split_waiting(page, lambda number: f"p{number}.json", keep="e/a&b")
    assert pieces == [["<p>no cites</p>", '<details class="kb-cites" data-claim="e/a&amp;b">']]
    assert '<section class="kb-claims" data-search-exclude><details class="kb-cites" data-claim="e/a&amp;b"></section>' in html_
    assert html_.count('data-piece="p0.json"') == 2
    assert len(split_waiting(page, lambda number: f"p{number}.json")[1][0]) == 3
    # A list inside a model row's template waits for the row to open: it moves even when it shows `keep`.
    row = '<details class="kb-row-claim"><template>' + waiting('<details class="kb-cites" data-claim="e/r">') + "</template></details>"
    html_, pieces = split_waiting(row + waiting('<details class="kb-cites" data-claim="e/r">'), lambda number: f"p{number}.json", keep="e/r")
    assert len(pieces[0]) == 1 and html_.endswith('<section class="kb-claims" data-search-exclude><details class="kb-cites" data-claim="e/r"></section>')


def test_the_search_index_holds_each_claims_text_once(built_site):
    """Claim lists are left out of their pages' search text; each claim's own entry carries it (in the
    claims' index, which search-later.js adds to the pages')."""
    catalog = load_catalog(PROJECT)
    docs = [doc for name in ("search_index.json", "search_claims.json")
            for doc in json.loads((built_site / "search" / name).read_text())["docs"]]
    text = "\n".join(doc["text"] for doc in docs)
    claim = catalog.claim("ncnn/vulkan-layer-count")
    sentence = html.escape(plain(claim.text))[:60]
    assert text.count(sentence) == 1, sentence


def test_a_page_naming_an_unknown_claim_fails_the_build(tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns(".venv", "node_modules", "site", ".git", "__pycache__"))
    (copy / "docs" / "engines" / "ncnn.md").write_text("# ncnn\n\n<!-- kb:claim ncnn/no-such-claim -->\n")
    done = build_site(copy / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "engines/ncnn.md:3: kb:claim: unknown claim 'ncnn/no-such-claim'" in done.stderr


def test_every_link_inside_the_built_site_resolves_to_a_page_and_anchor(built_site):
    """Rendered claim lists and tables are HTML that MkDocs does not check, so check them here."""
    out = built_site
    pages = {p.relative_to(out).as_posix(): page_as_read(p) for p in out.rglob("*.html")}
    ids = {name: set(re.findall(r'\bid="([^"]+)"', text)) for name, text in pages.items()}
    checked, broken = 0, []
    for name, text in pages.items():
        if name == "404.html":  # served from any depth, so MkDocs gives it root-absolute links
            continue
        for href in re.findall(r'\bhref="([^"]+)"', text):
            if urlsplit(href).scheme or href.startswith("/"):
                continue
            path, anchor = urldefrag(href)
            path = urlsplit(path).path  # a query (the explorer's filters) names the same page
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
            if not path or path.endswith("/"):
                target = posixpath.join(target, "index.html") if path else target
            if not (out / target).exists():
                broken.append(f"{name}: {href} (no {target})")
            elif anchor and target.endswith(".html") and anchor not in ids.get(target, set()):
                broken.append(f"{name}: {href} (no #{anchor} in {target})")
            checked += 1
    assert checked > 1000 and broken == []


def test_every_claim_is_shown_on_the_page_its_links_point_to(built_site):
    catalog = load_catalog(PROJECT)
    pages: dict[str, str] = {}
    missing = []
    for claim in catalog.claims:
        page = engine_page(claim.engine, claim.report).removesuffix(".md")
        page = page.removesuffix("index")  # edge/index.md is edge/
        if page not in pages:
            pages[page] = page_as_read(built_site / page / "index.html")
        if f'id="{claim_anchor(claim.id)}"' not in pages[page]:
            missing.append(f"{claim.id} (on {page})")
    assert missing == []


def test_the_built_claims_csv_is_read_by_pythons_csv_module_header_first(built_site):
    import csv

    from kbsite.exports import CSV_COLUMNS
    with (built_site / "downloads" / "claims.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert len(rows) == len(load_catalog(PROJECT).claims) and rows[0]["id"]
    assert (built_site / "downloads" / "claims.csv.stamp").read_text().startswith("claims.csv built ")
