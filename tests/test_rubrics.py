"""Rubrics on pages: a matrix names its rows for the legend kb.js draws under it, and claims.json
carries each row's rubric for that legend and for the meaning of a cell's verdict in its evidence."""

from __future__ import annotations


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


def test_matrix_names_its_rows_for_the_legend_and_claims_json_carries_their_rubrics(demo_project):
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIM, "demo/cells.yaml": CELLS}))
    html = render_page("<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, Lock())
    rows = [d.key for d in catalog.dimensions.values() if d.layer == "kind"]
    assert f'<details class="kb-rubric-legend" data-rows="{" ".join(rows)}">' in html  # kb.js draws it on open
    # A cell's row names itself once; kb.js draws what the verdict means there from claims.json.
    assert '<tr id="row-kind-unit-of-work" data-row="kind.unit-of-work">' in html
    rubric = catalog.dimensions["kind.unit-of-work"].rubric
    exported = claims_json(catalog, Lock(), Stamp("c0ffee", "2026-12-03"), str)
    by_key = {row["key"]: row for row in exported["rows"]}
    assert set(by_key) == set(catalog.dimensions)
    assert by_key["kind.unit-of-work"]["meanings"]["partial"] == rubric.meaning("partial")
    assert by_key["kind.unit-of-work"]["grades"] == rubric.grades
    assert "do not settle this row" in exported["unknown_meaning"]  # no rubric defines unknown


def test_hostile_rubric_text_stays_off_the_page(demo_project):
    root = demo_project({"demo/a.yaml": CLAIM, "demo/cells.yaml": CELLS})
    (root / "claims" / "dimensions.yaml").write_text(HOSTILE)
    catalog = load_catalog(root)
    html = render_page("<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, Lock())
    assert "<script" not in html and "<img" not in html and "alert" not in html  # the page names rows only
