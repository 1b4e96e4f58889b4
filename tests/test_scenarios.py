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
        - id: demo/rtf-desktop
          label: repo-reported
          dimension: tts.streaming
          text: The README reports a real-time factor of 2.1 on a desktop CPU and 0.4 on a phone CPU.
          cites: [{file: README.md, phrase: real-time factor}]
        - id: demo/api
          label: verified
          dimension: tts.streaming
          text: The runner's API.
          cites: [{file: src/net.cpp, symbol: Net::forward}, {file: README.md, phrase: experimental}]
          maturity: {level: experimental, cite: 1}
        - id: demo/cpu
          label: verified
          dimension: platform.android
          text: The CPU backend.
          cites: [{file: src/net.cpp, symbol: Net::load}]
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
        - id: other/api
          label: verified
          dimension: platform.android
          text: An API.
          cites: [{file: src/net.cpp, symbol: Net::forward}]
        """,
}

SCENARIO = {
    "id": "speak",
    "title": "Stream speech on a phone",
    "who": "An app developer.",
    "hardware": "android-phone",
    "needs": {"platform": "Android", "model_class": "TTS", "runtime": "in-process library",
              "constraints": ["first audio < 300 ms"]},
    "no_model": "The fixture names no model records.",
    "draws_on": ["platform.android", "tts.streaming"],
    "tiers": [["other"], ["demo"]],
    "figures": [{"claim": "demo/speed", "tells": "How big the library is."}],
    "engines": {
        "demo": {"verdict": "no", "path": {"how": "Net on the CPU"},
                 "obstacle": {"kind": "missing-implementation", "what": "a chunk API", "rests_on": ["demo/no-stream"]},
                 "reason": "No chunks.", "would_change": "A chunk API.",
                 "rests_on": ["demo/cell/tts.streaming", "demo/guess"]},
        "other": {"verdict": "unknown", "path": {"how": "Not studied", "api": "other/api", "backend": "other/api"},
                  "obstacle": {"kind": "none"}, "reason": "Unknown.", "would_change": "An analysis.",
                  "rests_on": ["other/runs"]},
    },
}


def with_numbers(verdict: str, figures, *, numeric=None, hardware="android-phone-cpu", tiers=None,
                 api="demo/cpu") -> dict:
    """SCENARIO with a real-time need on the phone and demo answering `verdict` on its CPU, citing `figures`."""
    scenario = json.loads(json.dumps(SCENARIO))
    scenario["needs"]["numeric"] = numeric or {"rtf_max": {"value": 1}}
    demo = scenario["engines"]["demo"]
    demo.update({"verdict": verdict, "hardware": hardware, "figures": {"rtf_max": figures},
                 "path": {"how": "Net on the CPU", "api": api, "backend": "demo/cpu"},
                 "better_than_rows": "Whole sentences are enough here."})
    if verdict != "no":
        demo["obstacle"] = {"kind": "none"}
    else:
        demo["obstacle"] = {"kind": "missing-implementation", "what": "speed", "rests_on": ["demo/no-stream"]}
    scenario["engines"]["other"]["figures"] = {measure: "no figure" for measure in scenario["needs"]["numeric"]}
    scenario["tiers"] = tiers or ([["demo"], ["other"]] if verdict in ("yes", "partial") else [["other"], ["demo"]])
    return scenario


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
    (changed("engines.demo", dict(SCENARIO["engines"]["demo"], rests_on=["demo/guess"],
                                  obstacle={"kind": "missing-implementation", "what": "x", "rests_on": ["demo/guess"]})),
     "speak: demo: a `no` rests on a claim of absence (absence: true), an architectural constraint"),
    (changed("engines.demo.rests_on", ["demo/nothing"]), "speak: demo: rests_on: unknown claim 'demo/nothing'"),
    (changed("engines.demo.rests_on", ["demo/cell/io.streaming"]), "speak: demo: rests_on: unknown cell 'demo/cell/io.streaming'"),
    (changed("engines.other.rests_on", ["demo/runs"]), "speak: other: rests_on: demo/runs belongs to demo, not to other"),
    (changed("engines.other.rests_on", ["demo/cell/platform.android"]),
     "speak: other: rests_on: demo/cell/platform.android belongs to demo, not to other"),
    (changed("draws_on", ["platform.android", "tts.nothing"]), "speak: draws_on: unknown row 'tts.nothing'"),
    (changed("engines.demo.rank", 1), "speak: engines.demo: Additional properties are not allowed ('rank' was unexpected)"),
    (changed("tiers", [["other"]]), "claims/scenarios/speak.yaml:1: speak: tiers: demo stands in no tier"),
    (changed("tiers", [["other", "demo"], ["demo"]]), "speak: tiers: demo stands in two tiers"),
    (changed("tiers", [["other"], ["demo", "ghost"]]), "speak: tiers: ghost has no answer in engines"),
    (changed("tiers", [["demo"], ["other"]]), "speak: tiers: all `no`s form one last tier"),
    (changed("tiers", [["other", "demo"]]), "speak: tiers: demo (no) shares a tier with other (unknown); a tier shares one verdict"),
    (changed("hardware", "a-toaster"), "speak: hardware: unknown class 'a-toaster' (claims/hardware.yaml)"),
    (changed("engines.other.hardware", "iphone-cpu"),
     "speak: other: hardware: iphone-cpu is neither android-phone, a unit within it, nor a server class"),
    (changed("engines.other.path", {"how": "x", "api": "other/api"}),
     "speak: other: path.backend: name the claim that establishes the path's backend (a `no` may leave it out)"),
    (changed("engines.other.path", {"how": "x", "api": "demo/api", "backend": "other/api"}),
     "speak: other: path.api: demo/api belongs to demo, not to other"),
    (changed("no_model", None), "speak: other: path.model: name the model record the path runs (or give the scenario `no_model`)"),
    (changed("engines.demo.obstacle", {"kind": "missing-implementation", "what": "a chunk API"}),
     "speak: demo: obstacle: rests on the claims that establish it (obstacle.rests_on)"),
    (changed("engines.demo.obstacle", {"kind": "missing-implementation", "what": "a chunk API", "rests_on": ["demo/guess"]}),
     "speak: demo: obstacle: a missing implementation rests on a claim of absence (absence: true"),
    (changed("engines.demo.obstacle", {"kind": "missing-implementation", "what": "a chunk API", "rests_on": ["other/runs"]}),
     "speak: demo: obstacle.rests_on: other/runs belongs to other, not to demo"),
    (changed("engines.other.obstacle", {"kind": "none", "what": "nothing"}),
     "speak: other: obstacle: kind none takes neither `what` nor `rests_on`"),
    (changed("engines.demo.verdict", None), "speak: engines.demo: 'verdict' is a required property"),
    (changed("engines.demo.obstacle", {"kind": "architectural"}), "speak: demo: obstacle: say which (obstacle.what)"),
    (changed("engines.other.obstacle", {"kind": "architectural", "what": "a static graph", "rests_on": ["other/runs"]}),
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
    scenario["engines"]["demo"]["path"] = {"how": "Net on the CPU", "api": "demo/cpu", "backend": "demo/cpu"}
    scenario["tiers"] = [["demo"], ["other"]]
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def test_an_architectural_constraint_supports_a_no(tmp_path, monkeypatch, capsys):
    scenario = changed("engines.demo.rests_on", ["demo/static-graph"])
    scenario["engines"]["demo"]["obstacle"] = {"kind": "architectural", "what": "a static graph",
                                               "rests_on": ["demo/static-graph"]}
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

    scenario = changed("engines.other.path.how", "<script>alert(document.cookie)</script> `llama-server`")
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
        body = own.split("\n---\n", 1)[1] if own.startswith("---\n") else own  # after the page's front matter
        assert body.startswith(f"<!-- kb:scenario {path.stem} heading=1 -->"), path.stem
        assert re.search(rf"<!-- kb:scenarios [^>]*\b{path.stem}\b", page), path.stem  # in the guide's tables


# Numeric needs against figures: the phone's CPU is weaker than a desktop CPU (claims/hardware.yaml).
DESKTOP = {"claim": "demo/rtf-desktop", "value": 2.1, "on": "desktop-cpu"}
PHONE = {"claim": "demo/rtf-desktop", "value": 0.4, "on": "android-phone-cpu"}


@pytest.mark.parametrize("scenario, message", [
    (with_numbers("partial", [DESKTOP]),
     "speak: demo: figures.rtf_max: demo/rtf-desktop gives 2.1 on desktop-cpu, failing real-time factor ≤ 1 on "
     "stronger hardware: that caps the verdict at no unless the figure says why it does not bind (not_binding)"),
    (with_numbers("yes", "no figure"), "speak: demo: figures.rtf_max: `no figure` caps the verdict at partial"),
    (with_numbers("yes", [{**PHONE, "on": "desktop-cpu"}]),
     "speak: demo: figures.rtf_max: a `yes` needs a figure that meets real-time factor ≤ 1 on android-phone-cpu"),
    (with_numbers("partial", [{**PHONE, "value": 0.5}]), "speak: demo: figures.rtf_max: demo/rtf-desktop states no 0.5"),
    (with_numbers("partial", [{"claim": "demo/rtf-desktop", "value": 0.4}]),
     "speak: demo: figures.rtf_max: say which hardware class the figure was measured on (on)"),
    (with_numbers("partial", [{**PHONE, "claim": "demo/guess"}]),
     "speak: demo: figures.rtf_max: demo/guess is inferred; a figure is a Verified, repo-reported or measured claim"),
    (with_numbers("partial", [{**PHONE, "claim": "other/api"}]),
     "speak: demo: figures.rtf_max: other/api belongs to other, not to demo"),
    (with_numbers("partial", [PHONE], numeric={"rtf_max": {"value": 1}, "first_audio_ms": {"value": 300}}),
     "speak: demo: figures.first_audio_ms: cite the figures bearing on first audio ≤ 300 ms, or say `no figure`"),
    (with_numbers("yes", [PHONE], api="demo/api"),
     "speak: demo: verdict yes on a path whose demo/api is experimental: experimental caps `yes` at partial unless "
     "the scenario allows it (allows_maturity)"),
])
def test_each_figure_rule_is_a_clear_error(tmp_path, monkeypatch, capsys, scenario, message):
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 2, text
    assert message in text, text


@pytest.mark.parametrize("scenario", [
    with_numbers("yes", [PHONE]),  # meets the need on the class itself
    with_numbers("yes", [PHONE, {**DESKTOP, "not_binding": "An fp32 build; the phone path runs 4-bit."}]),
    with_numbers("no", [DESKTOP]),  # a failing figure on stronger hardware and a `no`: consistent
    with_numbers("partial", "no figure"),
], ids=["meets-on-class", "failing-figure-with-reason", "fails-so-no", "no-figure-partial"])
def test_figures_that_fit_the_verdict_pass(tmp_path, monkeypatch, capsys, scenario):
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def with_obstacle(what: str, rests_on: list[str]) -> dict:
    return changed("engines.demo.obstacle", {"kind": "missing-implementation", "what": what, "rests_on": rests_on})


@pytest.mark.parametrize("scenario, message", [
    (with_obstacle("Too slow: RTF 2.1 on a desktop CPU.", ["demo/no-stream"]),
     "speak: demo: obstacle.what: 2.1 stated by no claim among its obstacle.rests_on"),
    (changed("engines.demo.path", {"how": "A 3 MB library on the CPU"}),
     "speak: demo: path.how: 3 stated by no claim among the records under the answer"),
    (changed("engines.demo.reason", "No chunks, and 1 MB of library."),  # demo/speed says 1 MB, but no record under it
     "speak: demo: reason: 1 stated by no claim among the records under the answer"),
])
def test_a_number_in_the_prose_is_stated_by_a_record_under_it(tmp_path, monkeypatch, capsys, scenario, message):
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 2, text
    assert message in text, text


@pytest.mark.parametrize("what", ["Too slow: RTF 2.1 on a desktop CPU.", "Too slow: about RTF 2 on a desktop CPU."],
                         ids=["as-stated", "rounded"])
def test_a_number_its_obstacle_rests_on_passes(tmp_path, monkeypatch, capsys, what):
    scenario = with_obstacle(what, ["demo/no-stream", "demo/rtf-desktop"])
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def test_a_scenario_may_allow_experimental_code(tmp_path, monkeypatch, capsys):
    scenario = with_numbers("yes", [PHONE])
    scenario["engines"]["demo"]["path"]["api"] = "demo/api"
    scenario["allows_maturity"] = ["experimental"]
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text


def test_maturity_names_a_cite_that_exists_and_examples_live_under_examples(tmp_path, monkeypatch, capsys):
    claims_files = dict(CLAIMS)
    claims_files["demo/a.yaml"] = CLAIMS["demo/a.yaml"].replace("maturity: {level: experimental, cite: 1}",
                                                               "maturity: {level: experimental, cite: 5}").rstrip(" ") + """\
        - id: demo/sample
          label: verified
          dimension: tts.streaming
          text: A sample.
          cites: [{file: src/net.cpp, symbol: Net::load}]
          maturity: {level: example, cite: 0}
        """
    root = make_project(tmp_path / "project", {"demo": {}, "other": {}}, claims_files)
    (root / "claims/scenarios").mkdir()
    (root / "claims/scenarios/speak.yaml").write_text(yaml.safe_dump(SCENARIO, sort_keys=False))
    code, text = lint(root, monkeypatch, capsys)
    assert code == 2, text
    assert "demo/api: maturity.cite: 5 is not one of the claim's 2 cites (0-based)" in text, text
    assert "demo/sample: maturity: `example` cites a path under an examples/ directory, not 'src/net.cpp'" in text, text


def test_an_unknown_above_a_partial_needs_a_reason(tmp_path, monkeypatch, capsys):
    scenario = with_numbers("partial", [PHONE], tiers=[["other"], ["demo"]])
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 2 and "speak: tiers: other (unknown) stands above demo (partial): say why (above_partial)" in text, text
    scenario["engines"]["other"]["above_partial"] = "Its path is the only one on the NPU."
    code, text = lint(project(tmp_path / "b", scenario), monkeypatch, capsys)
    assert code == 0, text


def test_ranks_are_dense_and_server_answers_are_ranked_apart(tmp_path):
    from enginekb.tiers import ranked

    scenario = json.loads(json.dumps(SCENARIO))
    engines = {name: dict(SCENARIO["engines"]["other"], path={"how": "x", "api": "other/api", "backend": "other/api"})
               for name in ("a", "b", "c", "d")}
    scenario["engines"] = engines | {"e": dict(engines["a"], hardware="datacenter-gpu")}
    scenario["tiers"] = [["a"], ["b", "c"], ["e"], ["d"]]
    catalog = load_catalog(project(tmp_path))  # for the hardware classes
    from enginekb.scenarios import load_scenario
    from enginekb.yamlfile import load_yaml

    target = tmp_path / "speak.yaml"
    target.write_text(json.dumps(scenario))  # JSON is YAML, and has no aliases
    loaded = load_scenario(load_yaml(target), catalog.root / "claims/scenario.schema.json", [])
    groups = ranked(loaded, catalog.hardware)
    assert [(kind, [(rank, a.engine) for rank, a in rows]) for kind, rows in groups] == [
        ("device", [(1, "a"), (2, "b"), (2, "c"), (3, "d")]), ("server", [(1, "e")])]


def test_hardware_classes_form_a_partial_order(tmp_path, monkeypatch, capsys):
    root = project(tmp_path)
    (root / "claims/hardware.yaml").write_text(
        "classes:\n  - {id: a, title: A, kind: device, stronger_than: [b]}\n"
        "  - {id: b, title: B, kind: device, stronger_than: [a, c]}\n")
    code, text = lint(root, monkeypatch, capsys)
    assert code == 2, text
    assert "claims/hardware.yaml:2: a: stronger_than: a cycle leads back to this class" in text, text
    assert "claims/hardware.yaml:3: b: stronger_than: unknown class 'c'" in text, text


def test_every_measure_of_the_schema_has_its_bound():
    from pathlib import Path

    from enginekb.needs import MEASURES

    schema = json.loads((Path(__file__).resolve().parent.parent / "claims/scenario.schema.json").read_text())
    assert set(schema["properties"]["needs"]["properties"]["numeric"]["properties"]) == set(MEASURES)


def test_stats_report_the_needs_and_which_answers_have_figures(tmp_path, monkeypatch, capsys):
    root = project(tmp_path, with_numbers("partial", [PHONE]))
    monkeypatch.chdir(root)
    assert claims(["--root", str(root), "stats", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["scenario_needs"]["speak"]
    assert report == {"hardware": "android-phone", "needs": {"rtf_max": 1},
                      "figures": {"demo": {"rtf_max": True}, "other": {"rtf_max": False}}}


def test_a_figure_in_seconds_is_compared_in_milliseconds(tmp_path, monkeypatch, capsys):
    claims_files = dict(CLAIMS)
    claims_files["demo/a.yaml"] = CLAIMS["demo/a.yaml"].rstrip(" ") + """\
        - id: demo/first-audio
          label: repo-reported
          dimension: tts.streaming
          text: The README reports 2.6 s to first audio on a desktop CPU.
          cites: [{file: README.md, phrase: first audio}]
        """
    root = make_project(tmp_path / "project", {"demo": {}, "other": {}}, claims_files)
    scenario = with_numbers("partial", [PHONE], numeric={"rtf_max": {"value": 1}, "first_audio_ms": {"value": 500}})
    scenario["engines"]["demo"]["figures"]["first_audio_ms"] = [
        {"claim": "demo/first-audio", "value": 2.6, "unit": "s", "on": "desktop-cpu"}]
    (root / "claims/scenarios").mkdir()
    (root / "claims/scenarios/speak.yaml").write_text(yaml.safe_dump(scenario, sort_keys=False))
    code, text = lint(root, monkeypatch, capsys)
    assert code == 2, text
    assert ("speak: demo: figures.first_audio_ms: demo/first-audio gives 2.6 s on desktop-cpu, failing first audio "
            "≤ 500 ms on stronger hardware") in text, text


def test_a_figure_that_fails_the_need_supports_a_no(tmp_path, monkeypatch, capsys):
    scenario = with_numbers("no", [DESKTOP])
    scenario["engines"]["demo"]["rests_on"] = ["demo/rtf-desktop"]
    scenario["engines"]["demo"]["obstacle"] = {"kind": "none"}
    code, text = lint(project(tmp_path, scenario), monkeypatch, capsys)
    assert code == 0, text
    scenario["engines"]["demo"]["figures"]["rtf_max"] = [PHONE]  # a figure that meets the need supports no `no`
    code, text = lint(project(tmp_path / "b", scenario), monkeypatch, capsys)
    assert code == 2 and "speak: demo: a `no` rests on a claim of absence" in text, text


def test_a_page_shows_computed_ranks_figures_against_the_need_and_the_least_mature_link(tmp_path):
    from citecheck.lock import Lock
    from kbsite.render import render_page

    scenario = with_numbers("partial", [PHONE, {**DESKTOP, "not_binding": "An fp32 <b>build</b>."}], api="demo/api")
    scenario["engines"]["other"]["hardware"] = "datacenter-gpu"  # a server answer, ranked apart
    catalog = load_catalog(project(tmp_path, scenario))
    page = render_page("<!-- kb:scenario speak -->\n", "analysis/choosing.md", catalog, Lock())
    device, server = page.split('class="kb-cells kb-ranking"')[1:3]
    assert 'data-kind="device"' in device and '<span class="kb-rank">#1</span> Demo' in device
    assert '<span class="kb-rank">#1</span> Other' in server  # ranked on its own, not #2
    assert "real-time factor ≤ 1:</strong>" in device
    # Parentheses reach the page as entities (text is made inert to Markdown).
    assert '<span class="kb-figure-meets">0.4 &#40;meets&#41;</span>' in device
    assert '<span class="kb-figure-fails">2.1 &#40;fails&#41;</span>' in device
    assert "does not bind: An fp32 &lt;b&gt;build&lt;/b&gt;." in device
    assert "<strong>Least mature link:</strong> experimental (demo/api)" in device
    assert "<em>no figure</em>" in server


def test_a_reading_is_current_until_the_scenario_changes(tmp_path, monkeypatch, capsys):
    def readings_of(scenario, name):
        root = project(tmp_path / name, scenario)
        monkeypatch.chdir(root)
        assert claims(["--root", str(root), "stats", "--format", "json"]) == 0
        return json.loads(capsys.readouterr().out)["scenario_readings"]["speak"]

    unread = readings_of(SCENARIO, "unread")
    assert unread["readings"] == 0 and not unread["current"]
    reading = {"by": "second reader", "date": "2026-12-04", "read": unread["hash"], "result": "held",
               "checked": ["demo's path at the pin"]}
    assert readings_of(changed("readings", [reading]), "read") == {**unread, "readings": 1, "current": True}
    edited = changed("readings", [reading])
    edited["engines"]["demo"]["reason"] = "A different reason."
    assert readings_of(edited, "edited")["current"] is False


def test_a_reading_without_what_it_checked_is_a_clear_error(tmp_path, monkeypatch, capsys):
    reading = {"by": "second reader", "date": "2026-12-04", "read": "0" * 16, "result": "held", "checked": []}
    code, out = lint(project(tmp_path, changed("readings", [reading])), monkeypatch, capsys)
    assert code == 2 and "speak" in out and "checked" in out
