"""`citecheck drift` on a fixture upstream whose third commit exercises every drift class."""

import json

import pytest

from citecheck.drift import drift
from citecheck.drift_cli import main
from citecheck.gitstore import GitStore
from enginekb.load import load_catalog
from upstream import SECOND_TREE, make_upstream

# At the pin (SECOND_TREE): Net::load and Net::forward in src/net.cpp, run_op in src/kernels/ops.c,
# `class Net` in src/net.h, two backend directories.
CLAIMS = """
- id: demo/same
  label: verified
  dimension: kind.category
  text: The scheduler is a class.
  cites: [{file: engine/sched.py, symbol: Scheduler}]
- id: demo/moved
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::forward` returns 0."
  cites: [{file: src/net.cpp, symbol: Net::forward}]
- id: demo/renamed
  label: verified
  dimension: kernel.operators
  text: "`run_op` tests for addition."
  cites: [{file: src/kernels/ops.c, symbol: run_op}]
- id: demo/changed
  label: verified
  dimension: runner.lifecycle
  text: "`Net::load` opens the file."
  cites: [{file: src/net.cpp, symbol: Net::load}]
- id: demo/broken
  label: verified
  dimension: kind.process-model
  text: "`Net` is declared in net.h."
  cites: [{file: src/net.h, symbol: Net}]
- id: demo/backends
  label: verified
  dimension: device.accelerators
  text: Two backend directories.
  cites: [{file: src/backends/cpu/cpu.c, symbol: cpu_init}]
  count: {value: 2, how: {glob: 'src/backends/*', entries: directories}}
- id: demo/reader
  label: inferred
  dimension: runner.format
  text: Loading depends on the file layout.
  see: [demo/changed]
"""

NET_CPP_THIRD = """\
#include "net.h"
namespace demo {
int helper_added_above();

int Net::load(const char* path)
{
    return open_file(path, 0);
}

int Net::forward()
{
    return 0;
}
}
"""
THIRD_TREE = {k: v for k, v in SECOND_TREE.items() if k not in ("src/kernels/ops.c", "src/net.h", "src/net.cpp")} | {
    "src/ops/ops.c": SECOND_TREE["src/kernels/ops.c"],  # renamed, byte-identical
    "src/net.h": "#pragma once\nnamespace demo { int net_api(); }\n",  # class Net gone
    "src/net.cpp": NET_CPP_THIRD,  # forward moves down a line; load's body changes
    "src/backends/npu/npu.c": "int npu_init(void) { return 0; }\n",  # a third backend
}


def _project(demo_project, tmp_path):
    """An upstream whose first commit is the demo pin's tree and whose second is THIRD_TREE."""
    upstream = make_upstream(tmp_path / "moving", [SECOND_TREE, THIRD_TREE])
    return upstream, demo_project({"demo/a.yaml": CLAIMS}, pin=upstream[1][0])


def test_each_cite_gets_its_drift_class(demo_project, tmp_path):
    (upstream, (pin, candidate)), project = _project(demo_project, tmp_path)
    report = drift(load_catalog(project), "demo", GitStore(upstream), candidate)
    status = {c.claim: c.status for c in report.cites}
    assert status == {"demo/same": "unchanged", "demo/moved": "moved", "demo/renamed": "moved",
                      "demo/changed": "changed", "demo/broken": "broken", "demo/backends": "unchanged"}
    by_claim = {c.claim: c for c in report.cites}
    assert by_claim["demo/renamed"].new_file == "src/ops/ops.c"
    assert by_claim["demo/moved"].old_lines != by_claim["demo/moved"].new_lines
    assert "-    return open_file(path);\n+    return open_file(path, 0);" in by_claim["demo/changed"].diff
    assert "symbol not found" in by_claim["demo/broken"].reason
    assert [(c.claim, c.old, c.new) for c in report.counts] == [("demo/backends", 2, 3)]
    assert report.to_reread == {"demo/backends": [], "demo/broken": [], "demo/changed": ["demo/reader"]}
    assert report.tally() == {"unchanged": 2, "moved": 2, "changed": 1, "broken": 1, "counts changed": 1}


def test_drift_command_prints_text_and_json_and_never_writes_the_lock(demo_project, tmp_path, capsys):
    (upstream, (pin, candidate)), project = _project(demo_project, tmp_path)
    args = ["--root", str(project), "--engine", "demo", "--repo", f"demo={upstream}", "--to", candidate]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"demo: {pin[:12]} -> {candidate[:12]}: 2 unchanged, 2 moved, 1 changed, 1 broken, 1 counts changed")
    assert "count   demo/backends: 2 -> 3" in out and "demo/changed  <- demo/reader" in out
    assert main(args + ["--format", "json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    assert report["tally"]["changed"] == 1 and report["new"] == candidate
    assert not (project / "claims" / "citecheck.lock").exists()
    assert main(args[:-1] + [pin]) == 0  # against itself: everything unchanged
    assert "6 unchanged, 0 moved, 0 changed, 0 broken, 0 counts changed" in capsys.readouterr().out
    assert main(args[:-1] + ["no-such-branch"]) == 2


def test_a_revision_that_looks_like_an_option_never_reaches_git_fetch_as_one(demo_project, tmp_path, capsys,
                                                                             monkeypatch):
    (upstream, (pin, candidate)), project = _project(demo_project, tmp_path)
    marker = tmp_path / "ran"
    monkeypatch.setenv("CITECHECK_FETCH_URLS", f"demo={upstream}")  # a local fetch: upload-pack runs here
    args = ["--root", str(project), "--engine", "demo", "--fetch", "--cache", str(tmp_path / "cache")]
    assert main(args + ["--to", f"--upload-pack=touch {marker}; git-upload-pack"]) == 2
    assert "is not a branch, tag or commit name" in capsys.readouterr().err
    assert not marker.exists()
    assert main(args + ["--to", candidate]) == 1  # the same fetch with a real revision works


def test_a_commit_argument_must_be_a_full_sha_before_git_sees_it(demo):
    from citecheck.errors import CommitMissing
    store = GitStore(demo[0])
    for bad in ("--output=/tmp/x", "HEAD", demo[1][1][:12]):
        with pytest.raises(CommitMissing, match="not a full commit SHA"):
            store.entries(bad)
        with pytest.raises(CommitMissing, match="not a full commit SHA"):
            store.files_mentioning(bad, "Net")
    assert store.entries(demo[1][1])


ODD_CLAIMS = """
- id: demo/link
  label: verified
  dimension: kind.process-model
  text: "`Net` is declared in net.h."
  cites: [{file: src/net.h, symbol: Net}]
- id: demo/folder
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` opens the file."
  cites: [{file: src/net.cpp, symbol: Net::load}]
- id: demo/binary
  label: verified
  dimension: kind.category
  text: The scheduler is a class.
  cites: [{file: engine/sched.py, symbol: Scheduler}]
- id: demo/readme
  label: verified
  dimension: kind.category
  text: Demo is small.
  cites: [{file: README.md, phrase: small inference engine}]
"""


def test_odd_paths_are_reported_per_cite_and_hints_name_where_a_symbol_is_defined(demo_project, tmp_path):
    """At the candidate net.h is a symbolic link, net.cpp a directory and sched.py binary: each cite is
    broken with its reason and the report goes on. `class Net` now lives in src/zz/deep/, after eight
    files that only mention Net; Net::load in a file whose name holds a quote, a space and a newline."""
    from upstream import Symlink

    odd = {k: v for k, v in SECOND_TREE.items() if k not in ("src/net.h", "src/net.cpp", "engine/sched.py")} | {
        "src/net.h": Symlink("zz/deep/net_class.h"),
        "src/net.cpp/inner.c": "int inner(void);\n",
        "src/zz/deep/net_class.h": "namespace demo {\nclass Net {\n    int load(const char* path);\n};\n}\n",
        'src/we"ird\nname.cpp': "namespace demo {\nint Net::load(const char* path)\n{\n    return 1;\n}\n}\n",
        "engine/sched.py": b"\x00class Scheduler: pass\n",
    } | {f"a{i}.c": f"/* Net {i} */ int a{i};\n" for i in range(8)}
    upstream, (pin, candidate) = make_upstream(tmp_path / "odd", [SECOND_TREE, odd])
    project = demo_project({"demo/a.yaml": ODD_CLAIMS}, pin=pin)
    report = drift(load_catalog(project), "demo", GitStore(upstream), candidate)
    by_claim = {c.claim: c for c in report.cites}
    assert {c: e.status for c, e in by_claim.items()} == {
        "demo/link": "broken", "demo/folder": "broken", "demo/binary": "broken", "demo/readme": "unchanged"}
    assert "src/net.h is a symbolic link" in by_claim["demo/link"].reason
    assert "Net is defined in src/zz/deep/net_class.h" in by_claim["demo/link"].reason
    assert "src/net.cpp is a directory" in by_claim["demo/folder"].reason
    assert 'Net::load is defined in src/we"ird\nname.cpp' in by_claim["demo/folder"].reason
    assert "engine/sched.py is a binary file" in by_claim["demo/binary"].reason


ESCAPING = """
- id: demo/gone
  label: verified
  dimension: kind.category
  text: f returns one.
  cites: [{file: src/a.c, symbol: f}]
- id: demo/edited
  label: verified
  dimension: kind.unit-of-work
  text: g returns two.
  cites: [{file: src/c.c, symbol: g}]
"""


def test_upstream_names_and_code_reach_the_terminal_escaped(demo_project, tmp_path, capsys):
    """An upstream file name or line may hold ESC, CSI or a bidi override: drift's report and citecheck's
    show them as escapes (\\x1b), never raw, and keep one failure on one line."""
    before = {"src/a.c": "int f(void)\n{\n    return 1;\n}\n", "src/c.c": "int g(void)\n{\n    return 2;\n}\n"}
    after = {"src/\x1b[2Jb\u202e.c": before["src/a.c"], "src/c.c": "int g(void)\n{\n    return 2; /* \x1b]0;x\x07 */\n}\n"}
    upstream, (pin, candidate) = make_upstream(tmp_path / "esc", [before, after])
    project = demo_project({"demo/a.yaml": ESCAPING}, pin=pin)
    args = ["--root", str(project), "--repo", f"demo={upstream}"]
    from citecheck.cli import main as citecheck
    assert citecheck(["drift", *args, "--engine", "demo", "--to", candidate]) == 1
    assert citecheck([*args, "--pin", f"demo={candidate}"]) == 1
    out = capsys.readouterr().out
    assert not set(out) & {"\x1b", "\x07", "\u202e"}, out
    assert "src/\\x1b[2Jb\\u202e.c" in out and "\\x1b]0;x\\x07" in out
