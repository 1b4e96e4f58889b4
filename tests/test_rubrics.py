"""Rubrics on pages: a legend under each `kb:cells` matrix and the meaning of a cell's own verdict in
its evidence panel, both escaped like any record text."""

from __future__ import annotations

from html import unescape

from citecheck.lock import Lock
from enginekb.load import load_catalog
from kbsite.exports import Stamp, claims_json
from kbsite.render import render_page

CLAIM = """
- id: demo/net
  label: inferred
  dimension: kind.unit-of-work
  text: One call per request.
- id: demo/none
  label: inferred
  dimension: kind.process-model
  text: Nothing serves requests.
"""
CELLS = """
- {dimension: kind.unit-of-work, verdict: partial, answer: One call., rests_on: [demo/net]}
- {dimension: kind.process-model, verdict: unknown, answer: Not settled., rests_on: [demo/none]}
"""
HOSTILE = """\
layers:
  - key: kind
    title: Kind
    dimensions:
      - key: kind.unit-of-work
        title: Unit
        rubric:
          grades: "Whether `run` exists <script>alert(1)</script>"
          yes: A call.
          partial: "Only \\"quoted\\" <img src=x onerror=alert(1)> calls."
          no: None.
      - key: kind.process-model
        title: Process
        rubric:
          grades: Whether a server exists.
          yes: A server.
          partial: An example server.
          no: None.
"""


def test_matrix_has_a_legend_and_each_cell_the_meaning_of_its_verdict(demo_project):
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIM, "demo/cells.yaml": CELLS}))
    html = render_page("<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, Lock())
    legend = unescape(html.split('<details class="kb-rubric-legend">')[1])  # parentheses are written as references
    rubric = catalog.dimensions["kind.unit-of-work"].rubric
    for dimension in (d for d in catalog.dimensions.values() if d.layer == "kind"):
        assert f"<dt>{dimension.title}</dt>" in legend
    assert legend.count('<span class="kb-verdict kb-verdict-no">no</span>') == 4  # every kind row defines no
    assert rubric.meaning("partial").split("(")[0] in legend
    # A cell names its row; kb.js draws what the verdict means there from the rubrics in claims.json.
    assert '<details class="kb-cell kb-verdict-partial" data-row="kind.unit-of-work"' in html
    rows = {row["key"]: row for row in claims_json(catalog, Lock(), Stamp("c0ffee", "2026-12-03"), str)["rows"]}
    assert rows["kind.unit-of-work"]["meanings"]["partial"] == rubric.meaning("partial")
    assert rows["kind.unit-of-work"]["grades"] == rubric.grades


def test_rubric_text_is_escaped(demo_project):
    root = demo_project({"demo/a.yaml": CLAIM, "demo/cells.yaml": CELLS})
    (root / "claims" / "dimensions.yaml").write_text(HOSTILE)
    catalog = load_catalog(root)
    html = render_page("<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, Lock())
    assert "<script" not in html and "<img" not in html
    assert "<script>alert(1)</script>" in unescape(html) and "<img src=x onerror=alert(1)>" in unescape(html)
    assert "Whether <code>run</code> exists" in html and ("&#34;quoted&#34;" in html or "&quot;quoted&quot;" in html)
