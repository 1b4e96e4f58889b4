"""The study's artifact inventory: every artifact is either cited by a measured record or says why not."""

import pytest

from enginekb.load import load_catalog
from enginekb.problems import CatalogError

STUDY = "https://github.com/Hosi121/vllm-omni"
SHA = "9" * 40


def measured(path: str, claim_id: str = "demo/figure") -> str:
    return f"""
- id: {claim_id}
  label: measured
  dimension: kind.category
  text: The earlier study measured 1 s.
  measurement: {{value: 1, unit: s}}
  provenance:
    measured_by: the earlier study
    machine: a host
    model: a model
    quantisation: bf16
    threads: '1'
    engine_build: a build
    command: a command
    date: '2026-09-09'
    source: {{repository: '{STUDY}', commit: '{SHA}', path: {path}, field: a.b}}
"""


def inventory(*rows: str) -> str:
    return f"repository: {STUDY}\ncommit: '{SHA}'\nartifacts:\n" + "".join(rows)


def problems_of(project) -> list[str]:
    with pytest.raises(CatalogError) as caught:
        load_catalog(project)
    return [str(p) for p in caught.value.problems]


def test_a_cited_artifact_and_an_explained_one_load(demo_project):
    catalog = load_catalog(demo_project({
        "demo/experiments/x.yaml": measured("benchmarks/results/a.json"),
        "study-artifacts.yaml": inventory(
            "  - {path: benchmarks/results/a.json, measures: one run}\n",
            "  - {path: benchmarks/results/old.json, measures: a run, reason: retracted,"
            " replacement: benchmarks/results/a.json, why: wrong head}\n",
            "  - {path: benchmarks/later/, files: [a.json, b.json], measures: runs, reason: later-commit, why: after the pages}\n")}))
    assert [a.path for a in catalog.inventory.artifacts][0] == "benchmarks/results/a.json"
    assert catalog.inventory.artifacts[1].reason == "retracted"


@pytest.mark.parametrize("rows, expected", [
    (["  - {path: benchmarks/results/a.json, measures: m, reason: duplicate, why: w}\n"],
     "benchmarks/results/a.json: marked duplicate but demo/figure draws a figure from it"),
    (["  - {path: benchmarks/results/b.json, measures: m}\n", "  - {path: benchmarks/results/a.json, measures: m}\n"],
     "benchmarks/results/b.json: no measured record cites it"),
    (["  - {path: benchmarks/results/a.json, measures: m}\n", "  - {path: benchmarks/results/a.json, measures: m}\n"],
     "benchmarks/results/a.json: listed twice"),
    (["  - {path: benchmarks/results/a.json, measures: m}\n",
      "  - {path: benchmarks/results/c.json, measures: m, reason: retracted, why: w}\n"],
     "a retracted or superseded artifact names its replacement and says why"),
    (["  - {path: benchmarks/results/a.json, measures: m}\n",
      "  - {path: benchmarks/results/c.json, measures: m, reason: lost}\n"],
     "reason: 'lost' is not one of"),
    (["  - {path: benchmarks/results/a.json, measures: m}\n", "  - {path: /etc/passwd, measures: m, reason: no-figure, why: w}\n"],
     "path: '/etc/passwd' does not match"),
])
def test_each_inconsistency_is_named_with_its_line(demo_project, rows, expected):
    project = demo_project({"demo/experiments/x.yaml": measured("benchmarks/results/a.json"),
                            "study-artifacts.yaml": inventory(*rows)})
    found = problems_of(project)
    assert any(expected in problem and "study-artifacts.yaml:" in problem for problem in found), found


def test_a_record_whose_artifact_is_not_listed_is_rejected(demo_project):
    project = demo_project({"demo/experiments/x.yaml": measured("baselines/new.json"),
                            "study-artifacts.yaml": inventory("  - {path: baselines/old/, measures: m, reason: not-read, why: w}\n")})
    assert any("demo/figure: its artifact baselines/new.json is missing from claims/study-artifacts.yaml" in p
               for p in problems_of(project))


def test_a_folder_row_covers_the_files_inside_it(demo_project):
    catalog = load_catalog(demo_project({"demo/experiments/x.yaml": measured("baselines/run/summary.json"),
                                         "study-artifacts.yaml": inventory("  - {path: baselines/run/, measures: m}\n")}))
    assert catalog.inventory.artifacts[0].is_folder


def test_a_listed_folder_covers_only_its_listed_files(demo_project):
    """A folder that lists its files holds exactly those: a record citing another file in it is not covered."""
    project = demo_project({"demo/experiments/x.yaml": measured("baselines/run/parity.json"),
                            "study-artifacts.yaml": inventory(
                                "  - {path: baselines/run/, files: [summary.json], measures: m, reason: superseded,"
                                " replacement: baselines/new.json, why: w}\n")})
    assert any("its artifact baselines/run/parity.json is missing" in p for p in problems_of(project))


def test_the_count_of_a_folder_is_its_listed_files(demo_project):
    catalog = load_catalog(demo_project({"demo/experiments/x.yaml": measured("baselines/run/summary.json"),
                                         "study-artifacts.yaml": inventory(
                                             "  - {path: baselines/run/, files: [summary.json, step/a.json], measures: m}\n")}))
    assert catalog.inventory.artifacts[0].files == ("summary.json", "step/a.json")


@pytest.mark.parametrize("row, expected", [
    ("  - {path: baselines/run/, files: 2, measures: m}\n", "files: 2 is not of type 'array'"),
    ("  - {path: baselines/run.json, files: [a.json], measures: m}\n", "only a folder row (a path ending in /) lists files"),
    ("  - {path: baselines/run/, files: [summary.json, summary.json], measures: m}\n", "files"),
])
def test_a_typed_count_or_a_file_list_off_a_folder_is_rejected(demo_project, row, expected):
    project = demo_project({"demo/experiments/x.yaml": measured("baselines/run/summary.json"),
                            "study-artifacts.yaml": inventory(row)})
    assert any(expected in p for p in problems_of(project))


def test_a_file_with_its_own_row_is_not_listed_in_its_folder_too(demo_project):
    project = demo_project({"demo/experiments/x.yaml": measured("baselines/run/summary.json"),
                            "study-artifacts.yaml": inventory(
                                "  - {path: baselines/run/summary.json, measures: m}\n",
                                "  - {path: baselines/run/, files: [summary.json, b.json], measures: m, reason: no-figure,"
                                " why: w}\n")})
    assert any("files: summary.json has a row of its own" in p for p in problems_of(project))


def test_other_stray_files_under_claims_are_still_rejected(demo_project):
    project = demo_project({"notes.yaml": "- a\n"})
    assert any("only engines.yaml, dimensions.yaml, hardware.yaml, study-artifacts.yaml and study-disagreements.yaml stand directly in claims/" in p
               for p in problems_of(project))
