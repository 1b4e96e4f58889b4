"""A real strict build of the project's site, and a build that must fail on a bad page."""

import posixpath
import re
import shutil
from urllib.parse import urldefrag, urlsplit

import pytest

from enginekb.load import load_catalog
from enginekb.model import claim_anchor
from kbsite.pages import engine_page
from sitebuild import build_site, project_config
from upstream import PROJECT


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """The project's site, built once with --strict for the tests of this module."""
    out = tmp_path_factory.mktemp("built") / "site"
    done = build_site(project_config(), out)
    assert done.returncode == 0, done.stderr
    return out


def test_the_project_site_builds_strictly(built_site):
    home = (built_site / "index.html").read_text()
    assert "kb-engines" in home and "kb-coverage" in home
    ncnn = (built_site / "engines" / "ncnn" / "index.html").read_text()
    assert ncnn.count('class="kb-claim ') >= 60
    catalog = load_catalog(PROJECT)
    explorer = (built_site / "analysis" / "explorer" / "index.html").read_text()
    assert explorer.count("<tr data-engine=") == len(catalog.claims)  # the explorer lists every claim once
    assert '<pre class="mermaid">' in ncnn
    assert "assets/vendor/mermaid/mermaid.min.js" in ncnn and "unpkg.com" not in ncnn and "cdn.jsdelivr" not in ncnn


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
    pages = {p.relative_to(out).as_posix(): p.read_text() for p in out.rglob("*.html")}
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
            pages[page] = (built_site / page / "index.html").read_text()
        if f'id="{claim_anchor(claim.id)}"' not in pages[page]:
            missing.append(f"{claim.id} (on {page})")
    assert missing == []
