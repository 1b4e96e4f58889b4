"""Scenarios (claims/scenarios/<id>.yaml): each lint rule with a case that breaks it, the derived
evidence label, the stats report and the rendering on a page."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from kbsite.pages import scenario_page
from upstream import make_project

from claimtool.cli import main as claims
from enginekb.load import load_catalog
from enginekb.scenarios import answer_label

CLAIMS = {
    "demo/a.yaml": """\
        - id: demo/runs
          label: verified
          dimension: platform.android
          text: Builds for Android.
          cites: [{file: CMakeLists.txt, symbol: ANDROID}]
        - id: demo/no-stream
          label: verified
          dimension: tts.streaming
          text: No chunk API.
          absence: true
          note: Searched src/ for chunk and callback.
          cites: [{file: src/net.cpp, symbol: Net::forward}]
        - id: demo/guess
          label: inferred
          dimension: tts.streaming
          text: An app loop could chunk.
        - id: demo/static-graph
          label: inferred
          dimension: constraints.architectural
          text: A static graph.
        - id: demo/speed
          label: repo-reported
          dimension: deploy.minimum-unit
          text: The README reports 1 MB.
          cites: [{file: README.md, phrase: 1 MB}]
        """,
    "demo/cells.yaml": """\
        - {dimension: platform.android, verdict: yes, answer: Builds., rests_on: [demo/runs]}
        - {dimension: tts.streaming, verdict: no, answer: No chunk API., rests_on: [demo/no-stream]}
        """,
    "other/a.yaml": """\
        - id: other/runs
          label: inferred
          dimension: platform.android
          text: Builds for Android.
        """,
}

SCENARIO = {
    "id": "speak",
    "title": "Stream speech on a phone",
    "who": "An app developer.",
    "needs": {"platform": "Android", "model_class": "TTS", "runtime": "in-process library", "constraints": ["first audio < 300 ms"]},
    "draws_on": ["platform.android", "tts.streaming"],
    "figures": [{"claim": "demo/speed", "tells": "How big the library is."}],
    "engines": {
        "demo": {"verdict": "no", "path": "Net on the CPU", "obstacle": {"kind": "missing-implementation", "what": "a chunk API"},
                 "rank": 2, "reason": "No chunks.", "would_change": "A chunk API.",
                 "rests_on": ["demo/cell/tts.streaming", "demo/guess"]},
        "other": {"verdict": "unknown", "path": "Not studied", "obstacle": {"kind": "none"}, "rank": 1,
                  "reason": "Unknown.", "would_change": "An analysis.", "rests_on": ["other/runs"]},
    },
}


def project(tmp_path, scenario=None, name="speak"):
    root = make_project(tmp_path / "project", {"demo": {}, "other": {}}, CLAIMS)
    target = root / "claims" / "scenarios" / f"{name}.yaml"
    target.parent.mkdir()
    target.write_text(yaml.safe_dump(scenario or SCENARIO, sort_keys=False))
    return root


def lint(root, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.chdir(root)
    code = claims(["--root", str(root), "lint"])
    out = capsys.readouterr()
    return code, out.out + out.err


def changed(path: str, value) -> dict:
    """SCENARIO with the field at `path` (dots) set to `value`, or removed when value is None."""
    scenario = json.loads(json.dumps(SCENARIO))
    *parents, last = path.split(".")
    node = scenario
    for part in parents:
        node = node[part]
    if value is None:
        node.pop(last)
    else:
        node[last] = value
    return scenario


def test_a_valid_scenario_loads_best_first(tmp_path):
    catalog = load_catalog(project(tmp_path))
    (scenario,) = catalog.scenarios
    assert [a.engine for a in scenario.answers] == ["other", "demo"]
    assert scenario.needs["constraints"] == ["first audio < 300 ms"]


def test_the_evidence_label_is_the_weakest_under_it(tmp_path):
    catalog = load_catalog(project(tmp_path))
    answers = {a.engine: a for a in catalog.scenarios[0].answers}
    assert answer_label(answers["demo"], catalog) == "inferred"  # a Verified cell plus an Inferred claim
    only_cell = changed("engines.demo.rests_on", ["demo/cell/tts.streaming"])
    catalog = load_catalog(project(tmp_path / "b", only_cell))
    assert answer_label(next(a for a in catalog.scenarios[0].answers if a.engine == "demo"), catalog) == "verified"


def test_stats_report_each_scenarios_verdicts(tmp_path, monkeypatch, capsys):
    root = project(tmp_path)
    monkeypatch.chdir(root)
    assert claims(["--root", str(root), "stats", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["scenarios"] == {"speak": {"other": "unknown", "demo": "no"}}


def test_scenarios_is_not_an_engine_directory(tmp_path, monkeypatch, capsys):
    code, text = lint(project(tmp_path), monkeypatch, capsys)
    assert code == 0, text
    assert "unknown engine directory" not in text


@pytest.mark.parametrize("scenario, message", [
    (changed("engines.other", None), "claims/scenarios/speak.yaml:1: speak: engines: no verdict for other"),
    (changed("engines.demo.verdict", "partial"),
     "speak: demo: verdict partial is better than the cell on tts.streaming: say why (better_than_rows)"),
    (changed("engines.demo.rests_on", ["demo/guess"]),
     "speak: demo: a `no` rests on a claim of absence (absence: true) or an architectural constraint"),
    (changed("engines.demo.rests_on", ["demo/nothing"]), "speak: demo: rests_on: unknown claim 'demo/nothing'"),
    (changed("engines.demo.rests_on", ["demo/cell/io.streaming"]), "speak: demo: rests_on: unknown cell 'demo/cell/io.streaming'"),
    (changed("engines.other.rests_on", ["demo/runs"]), "speak: other: rests_on: demo/runs belongs to demo, not to other"),
    (changed("engines.other.rests_on", ["demo/cell/platform.android"]),
     "speak: other: rests_on: demo/cell/platform.android belongs to demo, not to other"),
    (changed("draws_on", ["platform.android", "tts.nothing"]), "speak: draws_on: unknown row 'tts.nothing'"),
    (changed("engines.demo.rank", 0), "speak: engines.demo.rank: rank: a positive whole number (1 is best)"),
    (changed("engines.demo.rank", -3), "rank: a positive whole number"),
    (changed("engines.demo.verdict", None), "speak: engines.demo: 'verdict' is a required property"),
    (changed("engines.demo.obstacle", {"kind": "architectural"}), "speak: demo: obstacle: say which (obstacle.what)"),
    (changed("engines.other.obstacle", {"kind": "architectural", "what": "a static graph"}),
     "speak: other: obstacle: an architectural obstacle rests on a claim of constraints.architectural"),
    (changed("figures", [{"claim": "demo/guess", "tells": "x"}]),
     "speak: figures: demo/guess is inferred; a figure is a Verified, repo-reported or measured claim"),
    (changed("figures", [{"claim": "demo/none", "tells": "x"}]), "speak: figures: unknown claim 'demo/none'"),
    (changed("id", "talk"), "claims/scenarios/speak.yaml:1: talk: id must be the file name ('speak')"),
])
def test_each_rule_is_a_clear_error(tmp_path, monkeypatch, capsys, scenario, message):
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 2, text
    assert message in text, text
    assert "Traceback" not in text


def test_errors_name_the_line_of_the_engine(tmp_path, monkeypatch, capsys):
    root = project(tmp_path, changed("engines.demo.rests_on", ["demo/nothing"]))
    line = next(n for n, text in enumerate((root / "claims/scenarios/speak.yaml").read_text().splitlines(), 1)
                if text.startswith("  demo:"))
    code, text = lint(root, monkeypatch, capsys)
    assert code == 2 and re.search(rf"claims/scenarios/speak.yaml:{line}: speak: demo: rests_on", text), text


def test_better_than_the_row_passes_with_a_reason(tmp_path, monkeypatch, capsys):
    scenario = changed("engines.demo.verdict", "partial")
    scenario["engines"]["demo"]["better_than_rows"] = "The app can loop over chunks itself."
    scenario["engines"]["demo"]["rests_on"] = ["demo/guess"]
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def test_an_architectural_constraint_supports_a_no(tmp_path, monkeypatch, capsys):
    scenario = changed("engines.demo.rests_on", ["demo/static-graph"])
    scenario["engines"]["demo"]["obstacle"] = {"kind": "architectural", "what": "a static graph"}
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def test_a_broken_scenario_file_is_a_clear_error(tmp_path, monkeypatch, capsys):
    root = project(tmp_path)
    (root / "claims/scenarios/speak.yaml").write_text("- just a list\n")
    code, text = lint(root, monkeypatch, capsys)
    assert code == 2 and "claims/scenarios/speak.yaml:1: speak: " in text and "Traceback" not in text, text


def test_a_page_shows_the_answers_best_first_with_evidence_and_breakdown(tmp_path):
    from citecheck.lock import Lock
    from kbsite.render import render_page

    scenario = changed("engines.other.path", "<script>alert(1)</script> `llama-server`")
    scenario["title"] = "Speak <b>now</b> # [x](javascript:alert(1))"
    catalog = load_catalog(project(tmp_path, scenario))
    page = render_page("<!-- kb:scenarios -->\n\n<!-- kb:scenario speak -->\n", "analysis/choosing.md", catalog, Lock())
    assert "<script>" not in page and "<b>" not in page and "&lt;script&gt;" in page
    assert "<code>llama-server</code>" in page
    heading = next(line for line in page.splitlines() if line.startswith("## "))
    assert "<" not in heading and "[" not in heading and "(" not in heading and heading.endswith("{#scenario-speak .kb-scenario-title}")
    ranking = page.split('class="kb-cells kb-ranking"')[1].split("</table>")[0]
    assert ranking.index('data-engine="other"') < ranking.index('data-engine="demo"')  # rank 1 before rank 2
    # The evidence: every claim under the answer (through its cell, then directly), drawn by kb.js on tap;
    # its label is the weakest of them.
    assert ('<details class="kb-cell kb-verdict-no" data-label="inferred" data-evidence="demo/no-stream demo/guess">'
            '<summary>no&#10;No chunks.</summary></details>') in ranking
    assert "missing implementation</span>: a chunk API" in ranking
    figures = page.split('class="kb-cells kb-figures"')[1].split("</table>")[0]
    assert "repo-reported" in figures and "How big the library is." in figures
    breakdown = page.split("<template>")[-1].split("</template>")[0]  # the breakdown, drawn when opened
    assert breakdown.count('<td data-engine="demo">') == 2 and breakdown.index(">Other<") < breakdown.index(">Demo<")
    overview = page.split("kb-matrix kb-cells kb-scenarios")[1].split("</table>")[0]
    assert 'href="scenarios/speak.md#scenario-speak"' in overview  # each question has its own page and '<td data-engine="demo"><strong class="kb-verdict kb-verdict-no">' in overview


def test_the_guide_shows_every_scenario_and_each_has_its_page():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    page = (root / "docs/analysis/choosing.md").read_text()
    for path in sorted((root / "claims/scenarios").glob("*.yaml")):
        own = (root / "docs" / scenario_page(path.stem)).read_text()
        assert own.startswith(f"<!-- kb:scenario {path.stem} heading=1 -->"), path.stem
        assert re.search(rf"<!-- kb:scenarios [^>]*\b{path.stem}\b", page), path.stem  # in the guide's tables
