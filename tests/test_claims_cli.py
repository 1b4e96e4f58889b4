"""The claims command: grep, stats and lint."""

import json

import yaml

from claimtool.cli import main
from enginekb.ledger import text_hash
from enginekb.load import load_catalog

CLAIMS = """
- id: demo/vulkan
  label: verified
  dimension: device.accelerators
  text: Vulkan is the only GPU API.
  scope: Every backend directory under src/ listed; only src/gpu.cpp creates a GPU instance (git grep).
  cites:
    - {file: src/gpu.cpp, symbol: create_gpu_instance}
- id: demo/no-queue
  label: unknown
  dimension: scheduler.request
  text: Nothing queues requests.
"""


def test_grep_prints_path_line_label_id_and_text(demo_project, capsys):
    project = demo_project({"demo/a.yaml": CLAIMS})
    assert main(["--root", str(project), "grep", "--label", "verified"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.endswith("claims/demo/a.yaml:1: [Verified] demo/vulkan: Vulkan is the only GPU API.")
    assert main(["--root", str(project), "grep", "--dimension", "scheduler", "QUEUE"]) == 0
    assert "[Unknown] demo/no-queue" in capsys.readouterr().out
    assert main(["--root", str(project), "grep", "gpu_instance"]) == 0  # cites are searched too
    assert "demo/vulkan" in capsys.readouterr().out
    assert main(["--root", str(project), "grep", "nothing-like-this"]) == 1


def test_grep_json(demo_project, capsys):
    project = demo_project({"demo/a.yaml": CLAIMS})
    assert main(["--root", str(project), "grep", "--engine", "demo", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ["demo/vulkan", "demo/no-queue"]
    assert rows[0]["cites"][0] == {"file": "src/gpu.cpp", "symbol": "create_gpu_instance", "commit": rows[0]["cites"][0]["commit"]}


def test_stats_counts_labels_and_lists_missing_dimensions(demo_project, capsys):
    project = demo_project({"demo/a.yaml": CLAIMS})
    assert main(["--root", str(project), "stats"]) == 0
    out = capsys.readouterr().out
    assert "demo: lacks 48 dimensions: kind.category," in out
    assert "other: no claims yet" in out
    assert main(["--root", str(project), "stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["engines"]["demo"]["labels"]["verified"] == 1 and stats["engines"]["demo"]["dimensions_covered"] == 2
    assert stats["cells"] == {"demo": {}, "other": {}}


def test_lint_and_bad_input(demo_project, capsys):
    project = demo_project({"demo/a.yaml": CLAIMS + "- {id: demo/x, label: maybe, dimension: kind.category, text: t}\n"})
    assert main(["--root", str(project), "lint"]) == 2
    err = capsys.readouterr().err
    assert "a.yaml:12: demo/x: label: 'maybe' is not one of" in err and "1 problem(s)" in err
    assert main(["--root", str(project), "grep", "--engine", "nosuch"]) == 2


def test_grep_and_show_read_the_claims_and_leave_the_other_records_to_lint(demo_project, capsys):
    """A broken cells file is lint's to report; grep and show, which print claims only, still answer.
    A broken claims file stops them as it stops lint."""
    project = demo_project({"demo/a.yaml": CLAIMS, "demo/cells.yaml": "- {dimension: kind.category, verdict: maybe}\n"})
    assert main(["--root", str(project), "lint"]) == 2
    assert "cells.yaml" in capsys.readouterr().err
    assert main(["--root", str(project), "grep", "--label", "verified"]) == 0
    assert "demo/vulkan" in capsys.readouterr().out
    assert main(["--root", str(project), "show", "demo/vulkan"]) == 0
    capsys.readouterr()
    (project / "claims/demo/b.yaml").write_text("- {id: demo/x, label: maybe, dimension: kind.category, text: t}\n")
    for command in (["grep", "--label", "verified"], ["show", "demo/vulkan"]):
        assert main(["--root", str(project), *command]) == 2
        assert "b.yaml:1: demo/x: label: 'maybe' is not one of" in capsys.readouterr().err


def test_show_prints_the_claim_with_locked_lines_and_permalinks(demo_project, demo, capsys):
    from citecheck.cli import main as citecheck

    path, shas = demo
    claims = "- id: demo/net\n  label: verified\n  dimension: kind.category\n  text: Net::load opens a file.\n  cites:\n    - {file: src/net.cpp, symbol: Net::load, contains: open_file}\n"
    project = demo_project({"demo/a.yaml": claims})
    assert citecheck(["--root", str(project), "--repo", f"demo={path}"]) == 0
    capsys.readouterr()
    assert main(["--root", str(project), "show", "demo/net"]) == 0
    out = capsys.readouterr().out
    assert "demo/net  [Verified]" in out and "claims/demo/a.yaml:1" in out
    assert "cite: src/net.cpp Net::load contains 'open_file' (definition, lines 4-7)" in out
    assert f"https://example.invalid/demo/blob/{shas[1]}/src/net.cpp#L4-L7" in out
    assert main(["--root", str(project), "show", "demo/none"]) == 2


REVIEWED = """
- id: demo/only-one
  label: verified
  dimension: kind.category
  text: Every backend uses `Net::load`, and only it.
  scope: All three backend directories under src/ read; git grep -n load at the pin.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
- id: demo/two-cites
  label: verified
  dimension: kind.category
  text: Every backend uses it.
  scope: Both backends read.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
    - {file: src/net.h, symbol: Net}
- id: demo/whole-graph
  label: verified
  dimension: kind.category
  text: The whole graph is loaded by `Net::load`.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
- id: demo/absent
  label: verified
  dimension: kind.process-model
  text: The engine has no scheduler; `NONE` is a name here.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
    - {file: src/net.h, symbol: Net}
- id: demo/absent-searched
  label: verified
  dimension: kind.process-model
  text: The engine has no scheduler.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
  note: "Searched with git grep -i sched at the pin: no match."
"""


def test_review_lists_what_lint_cannot_judge(demo_project, capsys):
    root = demo_project({"demo/a.yaml": REVIEWED})
    read_every_claim(root)  # so that only the wording checks speak (the ledger's listing: test_ledger.py)
    assert main(["--root", str(root), "review"]) == 0  # advice, never a failure
    out = capsys.readouterr().out
    assert ("demo/only-one: generalises (exclusive: 'only it'; universal: 'Every backend') on one cite: "
            "check that its scope covers the sibling paths it names") in out
    assert "demo/two-cites" not in out  # scoped, and more than one path cited
    assert "demo/whole-graph: absolute word 'whole' with one cite" in out
    assert "demo/absent: states an absence ('has no') but its note does not say how the tree was searched" in out
    assert "demo/absent-searched: states" not in out and "'none'" not in out
    assert out.rstrip().endswith("claims review: 3 of 5 Verified claims to look at again (3 notes); advice, not a failure")


def read_every_claim(root) -> None:
    """A ledger in which every Verified claim of demo has a matching second reading."""
    catalog = load_catalog(root)
    reads = [{"claim": c.id, "text": text_hash(c.text), "result": "held", "searched": ["git grep -n x PIN"]}
             for c in catalog.engine_claims("demo") if c.label == "verified"]
    (root / "claims/demo/second-reads.yaml").write_text(yaml.safe_dump({"checklist": [], "reads": reads}))


def test_grep_with_an_invalid_regex_is_a_usage_error(demo_project, capsys):
    root = demo_project({"demo/a.yaml": REVIEWED})
    assert main(["--root", str(root), "grep", "(("]) == 2
    assert "claims grep: '((' is not a regular expression" in capsys.readouterr().err
