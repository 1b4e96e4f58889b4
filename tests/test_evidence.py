"""A page's evidence files (tools/kbsite/evidence.py): what a page names is what its files hold, and only
the fields kb.js draws; the built site's pages name a folder holding every claim their panels ask for."""

import json
import re

import pytest

from sitebuild import built_project_site
from kbsite.evidence import Named, cite_bucket, evidence_dir, evidence_files, named_in, with_evidence_meta

DATA = {
    "labels": [{"id": "verified", "title": "Verified", "mark": "V"}],
    "rows": [{"key": "device-gpu", "rules": ["r1"], "grades": "g", "meanings": {}, "title": "GPU", "note": None},
             {"key": "other", "rules": ["r2"], "grades": "g", "meanings": {}, "title": "Other", "note": None}],
    "rules": [{"id": "r1", "title": "One"}, {"id": "r2", "title": "Two"}],
    "unknown_meaning": "not known",
    "claims": [
        {"id": "ncnn/a", "label": "verified", "text": "A.", "page": "p#a", "cites": [{"file": "x.cpp"}], "scope": "s", "note": "n"},
        {"id": "mnn/b", "label": "verified", "text": "B.", "page": "p#b", "cites": [], "scope": None, "note": None},
        {"id": "mnn/c", "label": "verified", "text": "C.", "page": "p#c", "cites": [{"file": "c.cpp"}], "scope": None, "note": None},
    ],
}


def test_a_page_names_claims_under_cells_claims_with_cites_and_rows():
    page = ('<tr data-row="device-gpu"><td><details class="kb-cell" data-evidence="ncnn/a mnn/b"></details></td></tr>'
            '<details class="kb-cites" data-claim="mnn/c"></details><div data-claims="x.json"></div>')
    named = named_in(page)
    assert named.drawn == {"ncnn/a", "mnn/b"} and named.cited == {"mnn/c"} and named.rows == {"device-gpu"}
    assert named.by_row == {"device-gpu": {"ncnn/a", "mnn/b"}}
    assert not named_in("<p>nothing to draw</p>")
    # A reference's text comes on hover from the engine's file, so a reference names its claim too.
    ref = named_in('<a class="kb-ref kb-ref-verified" href="x#claim-mnn-c" data-ref="mnn/c" title="Verified">mnn/c</a>')
    assert ref.drawn == {"mnn/c"} and not ref.cited


def test_a_reference_carries_its_label_not_its_text():
    from enginekb.model import Claim
    from kbsite.refs import render_ref

    claim = Claim.__new__(Claim)
    object.__setattr__(claim, "id", "mnn/c")
    object.__setattr__(claim, "label", "verified")
    object.__setattr__(claim, "text", "A <long> text")
    object.__setattr__(claim, "engine", "mnn")
    object.__setattr__(claim, "report", None)
    html = render_ref(claim, lambda target: target)
    assert 'data-ref="mnn/c"' in html and 'title="Verified"' in html and "long" not in html


def test_page_scripts_come_only_with_the_pages_that_use_them_and_before_kb_js():
    from kbsite.inline import with_page_scripts

    tail = '<script src="../../assets/kb.js" defer></script>\n<script src="../../assets/report.js" defer></script>'
    plain = with_page_scripts("<p>prose</p>" + tail)
    assert plain == "<p>prose</p>" + tail
    grid = with_page_scripts('<div class="kb-grid" data-search-exclude></div><div class="kb-matrix-scroll"><table class="kb-matrix kb-cells">' + tail)
    order = re.findall(r'assets/([\w.-]+\.js)', grid)
    assert order == ["kb-matrix.js", "grid.js", "kb.js", "report.js"]
    explorer = with_page_scripts('<div class="kb-explorer" data-search-exclude>' + tail)
    assert re.findall(r'assets/([\w.-]+\.js)', explorer) == ["kb-explorer.js", "explorer-export.js", "kb.js", "report.js"]
    assert with_page_scripts('<div class="kb-explorer">') == '<div class="kb-explorer">'  # no kb.js: left alone


def test_the_files_hold_what_the_page_names_split_by_engine_and_cite_bucket():
    files = evidence_files(DATA, Named(drawn={"ncnn/a", "mnn/b", "mnn/gone"}, cited={"mnn/c"}, rows={"device-gpu"}))
    assert files["ncnn.json"] == {"claims": [{"id": "ncnn/a", "label": "verified", "text": "A.", "page": "p#a"}]}
    assert [c["id"] for c in files["mnn.json"]["claims"]] == ["mnn/b"]  # an unknown id is left out
    assert files["cites-0.json"] == {"claims": [{"id": "mnn/c", "cites": [{"file": "c.cpp"}], "scope": None}]}
    assert [r["key"] for r in files["rubrics.json"]["rows"]] == ["device-gpu"]
    assert files["rubrics.json"]["rules"] == [{"id": "r1", "title": "One"}]  # only the rules its rows apply
    assert set(files) == {"ncnn.json", "mnn.json", "cites-0.json", "rubrics.json"}
    row = evidence_files(DATA, Named(drawn={"ncnn/a"}, rows={"device-gpu"}, by_row={"device-gpu": {"ncnn/a"}}))["row-device-gpu.json"]
    assert [c["id"] for c in row["claims"]] == ["ncnn/a"] and [r["key"] for r in row["rows"]] == ["device-gpu"]
    assert row["rules"] == [{"id": "r1", "title": "One"}] and row["labels"] == DATA["labels"]


def test_the_cite_bucket_is_the_javascript_string_hash():
    # kb.js: hash = (hash * 31 + charCodeAt(i)) % 2^32, then % buckets. "ab": 97 * 31 + 98 = 3105.
    assert cite_bucket("ab", 10_000) == 3105 and cite_bucket("ab", 8) == 3105 % 8
    long_id = "vllm-omni/" + "x" * 40
    value = 0
    for ch in long_id:
        value = (value * 31 + ord(ch)) % 2**32
    assert cite_bucket(long_id, 7) == value % 7
    assert cite_bucket("é/π", 5) == ((0xE9 * 31 + ord("/")) * 31 + 0x3C0) % 5  # UTF-16 code units, as JavaScript reads


def test_the_meta_names_the_folder_and_buckets():
    named = Named(cited={f"e/{i}" for i in range(30)})
    assert named.buckets == 2 and evidence_dir("engines/ncnn.md") == "evidence/engines/ncnn/"
    page = with_evidence_meta("<html><head><title>t</title></head><body></body></html>", "../x/", named)
    assert '<meta name="kb-evidence" content="../x/" data-cite-buckets="2"></head>' in page
    assert with_evidence_meta("<p>no head</p>", "../x/", named) == "<p>no head</p>"


def test_a_page_whose_first_panel_is_a_claims_cites_preloads_that_cites_file():
    cites = '<details class="kb-cites" data-claim="mnn/c"></details><details class="kb-cites" data-claim="ncnn/a"></details>'
    cell = '<details class="kb-cell" data-evidence="ncnn/a"></details>'
    assert named_in(cites).first_cites == "mnn/c"  # the first in the page
    assert named_in(cell + cites).first_cites == ""  # a verdict cell comes first: its panel is the page's first
    assert named_in('<details class="kb-cites" data-claim="a&amp;b/c"></details>').first_cites == "a&b/c"
    # A claim list waiting for the screen is in sight; a model row's claim, until the row is opened, is not.
    waiting = f'<section class="kb-claims kb-later" data-search-exclude><template>{cites}</template></section>'
    row = f'<details class="kb-row-claim"><summary>claim</summary><template>{waiting.replace("mnn/c", "e/row")}</template></details>'
    assert named_in(row + waiting).first_cites == "mnn/c" and named_in(row).first_cites == ""
    named = named_in(cites)
    page = with_evidence_meta("<html><head><title>t</title></head><body></body></html>", "../x/", named)
    bucket = cite_bucket("mnn/c", named.buckets)
    assert (f'<meta name="kb-evidence" content="../x/" data-cite-buckets="1"><link rel="preload" href="../x/cites-{bucket}.json" '
            'as="fetch" crossorigin fetchpriority="low"></head>') in page
    assert "preload" not in with_evidence_meta("<html><head></head></html>", "../x/", named_in(cell + cites))
    # The folder's name comes from the page's path: escaped like the <meta>'s.
    assert 'href="../a&amp;b/cites-0.json"' in with_evidence_meta("<head></head>", "../a&b/", named)


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    out = built_project_site(tmp_path_factory)
    return out


def test_every_claim_a_built_page_asks_for_is_in_its_evidence_folder(built_site):
    data = json.loads((built_site / "downloads" / "claims.json").read_text())
    known = {c["id"] for c in data["claims"]}
    checked = 0
    for page in (p for p in built_site.rglob("index.html") if "assets" not in p.parts):
        text = page.read_text()
        meta = re.search(r'<meta name="kb-evidence" content="([^"]+)" data-cite-buckets="(\d+)">', text)
        pieces = [json.loads((page.parent / href).read_text()) for href in set(re.findall(r'data-piece="([^"]+)"', text))]
        named = named_in(text + "".join(html for piece in pieces for html in piece))
        if not named:
            continue
        assert meta, page
        folder, buckets = page.parent / meta.group(1), int(meta.group(2))
        for claim_id in named.drawn & known:
            held = json.loads((folder / f"{claim_id.split('/')[0]}.json").read_text())["claims"]
            assert claim_id in {c["id"] for c in held}, (page, claim_id)
            checked += 1
        for key, under in named.by_row.items():
            held = json.loads((folder / f"row-{key}.json").read_text())["claims"]
            assert under & known <= {c["id"] for c in held}, (page, key)
            checked += 1
        for claim_id in named.cited & known:
            held = json.loads((folder / f"cites-{cite_bucket(claim_id, buckets)}.json").read_text())["claims"]
            assert claim_id in {c["id"] for c in held}, (page, claim_id)
            checked += 1
    assert checked > 500
