"""The study's coverage (claims/study-coverage/<slug>.yaml) and its disagreements
(claims/study-disagreements.yaml): each lint rule, the counts `claims stats` reports, and the pages."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml
from upstream import make_project

from citecheck.lock import Lock
from claimtool.cli import main as claims
from enginekb.load import load_catalog
from kbsite.errors import RenderError
from kbsite.render import render_page

CLAIMS = {
    "demo/kind.yaml": """\
        - id: demo/figure
          label: inferred
          dimension: kind.category
          text: A figure the study gives.
        """,
    "study-artifacts.yaml": """\
        repository: https://github.com/example/study
        commit: 9264ff81ab291bc34360ba38cdd18ef75bc34007
        artifacts:
          - {path: baselines/README.md, measures: What the folder holds., reason: no-figure, why: A description.}
        """,
}
COVERAGE = """\
    document: docs/edge/laptop.md
    title: A laptop run
    statements:
      - says: The <b>iGPU</b> run took 3 s.
        where: §2
        recorded: [demo/figure]
      - says: A plan for next week.
        not_recorded: A plan, not a finding.
    """


def project(tmp_path, coverage: str | None = COVERAGE, disagreements: str | None = None):
    files = dict(CLAIMS)
    if coverage is not None:
        files["study-coverage/laptop.yaml"] = coverage
    if disagreements is not None:
        files["study-disagreements.yaml"] = disagreements
    return make_project(tmp_path / "p", {"demo": {}}, files)


def run(root, capsys, *args):
    code = claims(["--root", str(root), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_stats_count_statements_and_recorded_ones(tmp_path, capsys):
    code, out, _ = run(project(tmp_path), capsys, "stats", "--format", "json")
    assert code == 0
    assert json.loads(out)["study_coverage"] == {"docs/edge/laptop.md": {"statements": 2, "recorded": 1}}


@pytest.mark.parametrize("coverage, message", [
    (COVERAGE.replace("[demo/figure]", "[demo/missing]"), "docs/edge/laptop.md: recorded: unknown claim 'demo/missing'"),
    (COVERAGE.replace("        not_recorded: A plan, not a finding.\n", ""),
     "a statement names its records (recorded) or says why there are none"),
    (COVERAGE.replace("        where: §2\n", "        not_recorded: both\n"),
     "a statement names its records (recorded) or says why there are none"),
    (COVERAGE.replace("docs/edge/laptop.md", "../outside"), "../outside: a relative path to a .md file"),
    (COVERAGE.replace("    title:", "    commit: 4e3e8a1\n    title:"), "a full 40-character commit"),
])
def test_each_coverage_rule_is_an_error_on_its_line(tmp_path, capsys, coverage, message):
    code, _, err = run(project(tmp_path, coverage), capsys, "lint")
    assert code == 2
    assert "claims/study-coverage/laptop.yaml:" in err and message in err


def test_a_document_is_covered_once(tmp_path, capsys):
    root = project(tmp_path)
    (root / "claims/study-coverage/again.yaml").write_text(textwrap.dedent(COVERAGE))
    code, _, err = run(root, capsys, "lint")
    assert code == 2 and "this document is covered already in" in err


DISAGREEMENT = """\
    disagreements:
      - id: import-time
        quantity: Import time of the package
        values:
          - {value: 19.6 s, source: docs/a.md, where: §3}
          - {value: about 30 s, source: docs/b.md}
        uses: 19.6 s
        why: The section measured it; the notes estimate.
        records: [demo/figure]
    """


@pytest.mark.parametrize("text, message", [
    (DISAGREEMENT.replace("[demo/figure]", "[demo/none]"), "import-time: records: unknown claim 'demo/none'"),
    (DISAGREEMENT.replace("          - {value: about 30 s, source: docs/b.md}\n", ""), "values: [{'value'"),
    (textwrap.dedent(DISAGREEMENT) + textwrap.dedent(DISAGREEMENT).split("\n", 1)[1], "import-time: duplicate id"),
])
def test_each_disagreement_rule_is_an_error(tmp_path, capsys, text, message):
    code, _, err = run(project(tmp_path, disagreements=text), capsys, "lint")
    assert code == 2
    assert "claims/study-disagreements.yaml:" in err and message in err


def test_a_coverage_commit_that_is_not_a_full_sha_is_refused(tmp_path, capsys):
    code, _, err = run(project(tmp_path / "bad", COVERAGE.replace("    title: A laptop run\n",
                                                                  "    title: A laptop run\n    commit: 4e3e8a1\n")),
                       capsys, "lint")
    assert code == 2 and "claims/study-coverage/laptop.yaml:" in err and "a full 40-character commit" in err


def test_pages_show_counts_reasons_and_both_values_escaped(tmp_path):
    catalog = load_catalog(project(tmp_path, disagreements=DISAGREEMENT))
    html = render_page("<!-- kb:statements -->", "analysis/study_coverage.md", catalog, Lock())
    assert "the records hold 1 of the 2 statements" in html
    assert "50% (below 80%)" in html and "A plan, not a finding." not in html  # the reasons are on the document's page
    assert 'href="https://github.com/example/study/blob/9264ff81ab291bc34360ba38cdd18ef75bc34007/docs/edge/laptop.md"' in html
    assert "read at <code>" not in html.split("</p>", 1)[1]  # the inventory's commit is not repeated per row
    assert 'href="study_coverage/laptop.md"' in html
    page = render_page("<!-- kb:statements document=docs/edge/laptop.md -->", "analysis/study_coverage/laptop.md",
                       catalog, Lock())
    assert "A plan, not a finding." in page and "&lt;b&gt;iGPU&lt;/b&gt;" in page and "<b>iGPU</b>" not in page
    assert "The records hold 1 of its 2 statements (50%, below 80%)" in page
    with pytest.raises(RenderError, match="no coverage file covers"):
        render_page("<!-- kb:statements document=docs/none.md -->", "analysis/study_coverage/x.md", catalog, Lock())
    html = render_page("<!-- kb:disagreements -->", "analysis/disagreements.md", catalog, Lock())
    assert "19.6 s" in html and "about 30 s" in html and "The site uses: <strong>19.6 s</strong>" in html


def test_a_document_read_at_another_commit_is_linked_and_named_there(tmp_path):
    other = "4e3e8a1ebcf6a91e3a9ba0e5a5abadff0bba8306"
    catalog = load_catalog(project(tmp_path, COVERAGE.replace("    title:", f"    commit: {other}\n    title:")))
    html = render_page("<!-- kb:statements -->", "analysis/study_coverage.md", catalog, Lock())
    assert f'href="https://github.com/example/study/blob/{other}/docs/edge/laptop.md"' in html
    assert "at <code>4e3e8a1ebcf6</code>" in html and "read at its commit <code>9264ff81ab29</code> unless" in html
    laptop_side = DISAGREEMENT.replace("source: docs/b.md", "source: docs/edge/laptop.md")
    catalog = load_catalog(project(tmp_path / "d", COVERAGE.replace("    title:", f"    commit: {other}\n    title:"),
                                   disagreements=laptop_side))
    html = render_page("<!-- kb:disagreements -->", "analysis/disagreements.md", catalog, Lock())
    assert f"blob/{other}/docs/edge/laptop.md" in html and "blob/9264ff81ab291bc34360ba38cdd18ef75bc34007/docs/a.md" in html


def test_every_coverage_file_has_its_page_and_every_page_its_file():
    """A page per study document (docs/analysis/study_coverage/<slug>.md) keeps the table's page light."""
    root = Path(__file__).resolve().parent.parent
    files = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))["document"]
             for p in (root / "claims" / "study-coverage").glob("*.yaml")}
    pages = {p.stem: p.read_text(encoding="utf-8") for p in (root / "docs" / "analysis" / "study_coverage").glob("*.md")}
    assert files and set(pages) == set(files)
    for stem, document in files.items():
        assert f"<!-- kb:statements document={document} -->" in pages[stem]
