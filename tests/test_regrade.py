"""`claims regrade`: a blind form without the verdicts, filled in by a second grader and compared with the
cells (agreement and Cohen's kappa, per row, per layer and overall); and the grading rules the form carries."""

from __future__ import annotations

import json

import yaml

from citecheck.lock import Lock
from claimtool.cli import main as claims
from claimtool.regrade import kappa
from enginekb.cells import evidence_label
from enginekb.load import load_catalog
from enginekb.scenarios import Answer, AnswerPath, answer_label
from kbsite.render import render_page

CLAIMS = {
    "demo/kind.yaml": """
        - id: demo/library
          label: verified
          dimension: kind.category
          text: "`Net` is a library the application links."
          cites: [{file: src/net.cpp, symbol: Net::load}]
        - id: demo/no-server
          label: inferred
          dimension: kind.process-model
          text: No server program in the tree.
          absence: true
          note: git grep -n listen found nothing.
        - id: demo/server-idea
          label: proposal
          dimension: kind.process-model
          text: A small server could wrap `Net`.
          rests_on: [demo/no-server]
        - id: demo/runs-anywhere
          label: inferred
          dimension: device.portability
          text: Builds on Linux and Android.
    """,
    "demo/cells.yaml": """
        - {dimension: kind.category, verdict: "yes", answer: A library., rests_on: [demo/library]}
        - {dimension: kind.process-model, verdict: "no", answer: No server., rests_on: [demo/no-server]}
        - {dimension: kind.foundations, verdict: "yes", answer: Stands alone., rests_on: [demo/runs-anywhere]}
    """,
    "other/kind.yaml": """
        - id: other/stack
          label: inferred
          dimension: kind.category
          text: A serving stack.
        - id: other/server
          label: inferred
          dimension: kind.process-model
          text: A server keeps the model loaded.
    """,
    "other/cells.yaml": """
        - {dimension: kind.category, verdict: partial, answer: A stack., rests_on: [other/stack]}
        - {dimension: kind.process-model, verdict: "yes", answer: A server., rests_on: [other/server]}
    """,
}


def run(root, *args, capsys):
    code = claims(["--root", str(root), "regrade", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_form_carries_rubric_rules_and_claims_but_no_verdict(demo_project, capsys):
    root = demo_project(CLAIMS)
    code, out, _ = run(root, "kind", capsys=capsys)
    assert code == 0
    form = yaml.safe_load(out)
    rows = {row["row"]: row for row in form["rows"]}
    assert list(rows) == ["kind.category", "kind.unit-of-work", "kind.process-model", "kind.foundations"]
    process = rows["kind.process-model"]
    assert process["meanings"]["no"].startswith("A library only")
    assert set(process["rules"]) <= {rule["id"] for rule in form["rules"]}  # every named rule is written out
    demo = next(e for e in process["engines"] if e["engine"] == "demo")
    assert demo["verdict"] == ""
    assert [c["id"] for c in demo["claims"]] == ["demo/no-server", "demo/server-idea"]
    assert demo["claims"][0] | {"absence": True, "label": "Inferred"} == demo["claims"][0]
    # A cell's claim filed on another row is in the form too: the grader sees the decisive claim.
    foundations = next(e for e in rows["kind.foundations"]["engines"] if e["engine"] == "demo")
    assert [c["id"] for c in foundations["claims"]] == ["demo/runs-anywhere"]
    assert "No server." not in out and "Stands alone." not in out  # answers would give the verdict away
    library = next(e for e in rows["kind.category"]["engines"] if e["engine"] == "demo")["claims"][0]
    assert library["cites"] == ["src/net.cpp : Net::load"]
    code, out, _ = run(root, "kind.category", "--format", "json", capsys=capsys)
    assert code == 0 and [row["row"] for row in json.loads(out)["rows"]] == ["kind.category"]
    _, out, _ = run(root, "platform.android", capsys=capsys)  # claims on related rows bear on it: named there
    assert "device.accelerators" in yaml.safe_load(out)["rows"][0]["related_rows"]


def test_compare_gives_agreement_and_kappa_computed_by_hand(demo_project, capsys, tmp_path):
    root = demo_project(CLAIMS)
    _, out, _ = run(root, "kind", capsys=capsys)
    form = yaml.safe_load(out)
    filled = {("kind.category", "demo"): "yes", ("kind.category", "other"): "yes",  # cell: partial
              ("kind.process-model", "demo"): "no", ("kind.process-model", "other"): "yes"}
    for row in form["rows"]:
        for entry in row["engines"]:
            entry["verdict"] = filled.get((row["row"], entry["engine"]), "")
    path = tmp_path / "filled.yaml"
    path.write_text(yaml.safe_dump(form, sort_keys=False))
    code, out, _ = run(root, "--compare", str(path), "--format", "json", capsys=capsys)
    assert code == 0
    result = json.loads(out)
    # By hand: 3 of 4 agree, p_o = 3/4. Cells give yes 2, partial 1, no 1; the grader yes 3, no 1.
    # p_e = (2*3 + 1*0 + 1*1) / 16 = 7/16, so kappa = (3/4 - 7/16) / (1 - 7/16) = 5/9.
    assert result["overall"] == {"graded": 4, "agree": 3, "agreement": 0.75, "kappa": round(5 / 9, 4)}
    assert result["layers"] == {"kind": result["overall"]}
    # kind.category: p_o = 1/2; cells yes 1, partial 1; grader yes 2: p_e = 2/4, kappa 0.
    assert result["rows"]["kind.category"] == {"graded": 2, "agree": 1, "agreement": 0.5, "kappa": 0.0}
    # kind.process-model: both agree on two different verdicts: p_e = 1/2, kappa 1.
    assert result["rows"]["kind.process-model"]["kappa"] == 1.0
    assert "kind.foundations" not in result["rows"]  # left blank: not counted
    assert result["disagreements"] == [{"row": "kind.category", "engine": "other", "cell": "partial", "grader": "yes"}]
    code, text, _ = run(root, "--compare", str(path), capsys=capsys)
    assert code == 0 and "kind.category other: partial -> yes" in text and "kappa 0.56" in text


def test_kappa_is_undefined_when_chance_agreement_is_certain():
    assert kappa([("yes", "yes"), ("yes", "yes")]) is None  # one category only: p_e = 1
    assert kappa([("yes", "no"), ("no", "yes")]) == -1.0


def test_a_bad_form_is_a_located_error(demo_project, capsys, tmp_path):
    root = demo_project(CLAIMS)
    path = tmp_path / "filled.yaml"
    path.write_text("form: enginekb-regrade\nrows:\n  - row: kind.category\n    engines:\n"
                    "      - {engine: demo, verdict: maybe}\n      - {engine: nobody, verdict: 'yes'}\n")
    code, out, err = run(root, "--compare", str(path), capsys=capsys)
    assert code == 2 and out == ""
    assert f"{path}:5: kind.category/demo: verdict 'maybe': this row takes yes, partial, no" in err
    assert f"{path}:6: kind.category/nobody: unknown engine 'nobody'" in err
    path.write_text("rows: []\n")
    assert run(root, "--compare", str(path), capsys=capsys)[0] == 2
    assert run(root, "kind.nothing", capsys=capsys)[0] == 2


def test_a_cell_rests_on_its_decisive_claim_on_any_row_and_inferred_support_labels_it(demo_project):
    catalog = load_catalog(demo_project(CLAIMS))  # kind.foundations rests on a device.portability claim
    cell = next(c for c in catalog.cells if c.id == "demo/cell/kind.foundations")
    assert evidence_label(cell, catalog) == "inferred"  # its only support is Inferred, and its label says so


def test_a_note_lets_every_engine_share_one_verdict_and_rules_reach_the_page(demo_project):
    shared = CLAIMS | {"other/cells.yaml": CLAIMS["other/cells.yaml"].replace("partial, answer: A stack.",
                                                                               '"yes", answer: A library too.')}
    root = demo_project(shared)
    dimensions = root / "claims" / "dimensions.yaml"
    text = dimensions.read_text()
    anchor = "            the tree is an optional layer on top.\n"
    assert anchor in text
    dimensions.write_text(text.replace(anchor, anchor + "          note: Both are libraries, which is the finding.\n", 1))
    catalog = load_catalog(root)  # without the note this is a lint error (tests/test_bad_input.py)
    assert catalog.dimensions["kind.category"].rubric.note.startswith("Both are libraries")
    html = render_page("<!-- kb:rules -->", "analysis/c.md", catalog, Lock())
    for rule in catalog.rules.values():
        assert f'<dt id="rule-{rule.id}">' in html
    assert "inheritance" in catalog.rules and "not-applicable" in catalog.rules


def test_a_proposal_an_answer_names_does_not_label_it(demo_project):
    catalog = load_catalog(demo_project(CLAIMS))
    answer = Answer("demo", "partial", AnswerPath("", "", "demo/library", "", "Net in-process."), "", {},
                    "missing-implementation", "No server.", (), "Why.", "Our server design.", "", "",
                    ("demo/library", "demo/server-idea"), 1)
    assert answer_label(answer, catalog) == "verified"  # demo/server-idea is a Proposal: shown, never a label
