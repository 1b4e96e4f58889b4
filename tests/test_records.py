"""Loading the records: every problem is reported at once, as path:line: claim-id: reason."""

import pytest

from enginekb.load import load_catalog
from enginekb.problems import CatalogError

GOOD = """
- id: demo/net-loads
  label: verified
  dimension: runner.lifecycle
  text: "`Net::load` opens the file."
  cites:
    - {file: src/net.cpp, symbol: Net::load, contains: open_file}
- id: demo/no-scheduler
  label: unknown
  dimension: scheduler.request
  text: Nothing schedules requests.
"""


def problems_of(project) -> list[str]:
    with pytest.raises(CatalogError) as caught:
        load_catalog(project)
    return [str(p) for p in caught.value.problems]


def test_good_records_load_with_defaults(demo_project):
    catalog = load_catalog(demo_project({"demo/runner.yaml": GOOD}))
    claim = catalog.claim("demo/net-loads")
    assert claim.engine == "demo" and claim.line == 1
    assert claim.cites[0].commit == catalog.engines["demo"].pin  # the pin is the default commit
    assert claim.cites[0].line == 6
    assert [c.id for c in catalog.engine_claims("demo")] == ["demo/net-loads", "demo/no-scheduler"]


@pytest.mark.parametrize(
    "record, expected",
    [
        ("{id: demo/a, label: verifed, dimension: kind.category, text: t}", "demo/a: label: 'verifed' is not one of"),
        ("{id: demo/a, label: verified, dimension: kind.category, text: t}", "demo/a: a verified claim needs at least one cite"),
        ("{id: demo/a, label: verified, dimension: kind.category, text: t, cites: []}", "demo/a: cites: a verified claim needs at least one cite"),
        ("{id: demo/a, label: repo-reported, dimension: kind.category, text: t}", "demo/a: a repo-reported claim must cite"),
        ("{id: demo/a, label: measured, dimension: kind.category, text: t}", "demo/a: a measured claim needs provenance"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, measurement: {value: 1, unit: s}, provenance: {measured_by: the earlier study, machine: 'EPYC, 222 GB/s', model: Qwen3-0.6B, quantisation: Q4_0, threads: '32 threads', engine_build: llama.cpp e71b805, command: llama-bench -t 32, date: '2026-01-02', source: {repository: 'https://github.com/Hosi121/vllm-omni', commit: '9999999999999999999999999999999999999999', path: benchmarks/x.json, field: results.tps}}}",
         "demo/a: only a measured claim carries provenance and a measurement"),
        ("{id: demo/a, label: proposal, dimension: kind.category, text: t}", "demo/a: a proposal rests on at least one claim (rests_on)"),
        ("{id: demo/a, label: proposal, dimension: kind.category, text: t, rests_on: [demo/nothing]}", "demo/a: rests_on: unknown claim 'demo/nothing'"),
        ("{id: demo/a, label: verified, dimension: kind.category, text: t, absence: true, cites: [{file: a.c, symbol: f}]}",
         "demo/a: an absence claim says in its note how the tree was searched"),
        ("{id: demo/a, label: inferred, dimension: kind.nothing, text: t}", "demo/a: unknown dimension 'kind.nothing'"),
        ("{id: other/a, label: inferred, dimension: kind.category, text: t}", "other/a: id must start with 'demo/'"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: 3}", "demo/a: text: 3 is not of type 'string'"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, cites: [{file: a.c, symbol: x, phrase: y}]}",
         "demo/a: cites[0]: a cite gives exactly one of symbol or phrase"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, cites: [{file: ../x.c, symbol: x}]}",
         "demo/a: cite file '../x.c' must be a relative path inside the repository"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, cites: [{file: /etc/x, symbol: x}]}",
         "demo/a: cite file '/etc/x' must be a relative path"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, count: {value: 1, how: {glob: x, file: y}}}",
         "demo/a: count.how: `how` is one of"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, count: {value: 1, how: {file: y, lines: '('}}}",
         "demo/a: count.how.lines: invalid regular expression"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, see: [demo/missing]}", "demo/a: see: unknown claim 'demo/missing'"),
        ("{id: demo/a, label: inferred, dimension: kind.category, text: t, colour: red}", "demo/a: Additional properties are not allowed"),
    ],
)
def test_each_bad_record_is_named_with_file_line_and_claim(demo_project, record, expected):
    project = demo_project({"demo/kind.yaml": f"- id: demo/first\n  label: unknown\n  dimension: kind.category\n  text: ok\n- {record}\n"})
    found = problems_of(project)
    assert len(found) == 1, found
    assert found[0].startswith(str(project / "claims/demo/kind.yaml") + ":5: ") or "claims/demo/kind.yaml:5: " in found[0]
    assert expected in found[0]


def test_all_problems_are_reported_together_including_duplicates_across_files(demo_project):
    project = demo_project({
        "demo/a.yaml": "- {id: demo/x, label: unknown, dimension: kind.category, text: t}\n- {id: demo/y, label: nope, dimension: kind.category, text: t}\n",
        "demo/b.yaml": "- {id: demo/x, label: unknown, dimension: kind.category, text: t}\n",
        "ghost/c.yaml": "- {id: ghost/x, label: unknown, dimension: kind.category, text: t}\n",
    })
    found = problems_of(project)
    assert any("a.yaml:2: demo/y: label" in p for p in found)
    assert any("b.yaml:1: demo/x: duplicate id (first at a.yaml:1)" in p for p in found)
    assert any("ghost/c.yaml:1: -: unknown engine directory 'ghost'" in p for p in found)


def test_malformed_yaml_names_its_line(demo_project):
    project = demo_project({"demo/a.yaml": "- id: demo/x\n  label: unknown\n  text: [unclosed\n"})
    (found,) = problems_of(project)
    assert "a.yaml:" in found and "malformed YAML" in found


def test_a_file_that_is_not_a_list_is_rejected(demo_project):
    (found,) = problems_of(demo_project({"demo/a.yaml": "id: demo/x\n"}))
    assert "a claims file is a YAML list of claims" in found


def test_dates_stay_text_so_provenance_validates(demo_project):
    claims = {"demo/a.yaml": """
        - id: demo/m
          label: measured
          dimension: deploy.cold-start
          text: Loads in 1 s, as the earlier study measured it.
          measurement: {value: 1, unit: s}
          provenance: {measured_by: the earlier study, machine: 'EPYC, 222 GB/s', model: Qwen3-0.6B, quantisation: Q4_0, threads: '32 threads', engine_build: llama.cpp e71b805, command: llama-bench -t 32, date: '2026-01-02', source: {repository: 'https://github.com/Hosi121/vllm-omni', commit: '9999999999999999999999999999999999999999', path: benchmarks/x.json, field: results.tps}}
        """}
    catalog = load_catalog(demo_project(claims))
    assert catalog.claim("demo/m").provenance["date"] == "2026-01-02"
    assert catalog.claim("demo/m").measurement == (1, "s")
