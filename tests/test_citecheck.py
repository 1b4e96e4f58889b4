"""citecheck end to end on fixture repositories: each failure kind, the lock, offline mode, counts."""

import json

import pytest

from citecheck.cli import main
from citecheck.lock import read_lock

PASSING = """
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` opens a file."
  cites:
    - {file: src/net.cpp, symbol: Net::load, contains: open_file}
    - {file: src/net.h, symbol: Net}
    - {file: README.md, phrase: small inference engine}
- id: demo/old-ops
  label: verified
  dimension: kernel.operators
  text: At the first commit the op enum lived in src/ops.c.
  cites:
    - {file: src/ops.c, symbol: op, commit: FIRST}
- id: demo/op-count
  label: verified
  dimension: kernel.operators
  text: Two real ops.
  cites:
    - {file: src/kernels/ops.c, symbol: op}
  count: {value: 2, how: {file: src/kernels/ops.c, enum: op, exclude: '^OP_(COUNT|NONE)$'}}
- id: demo/layer-count
  label: inferred
  dimension: kernel.operators
  text: Three layers are registered.
  count: {value: 3, how: {file: CMakeLists.txt, lines: '^demo_add_layer\\('}}
- id: demo/backend-count
  label: inferred
  dimension: device.accelerators
  text: Two backend directories.
  count: {value: 2, how: {glob: 'src/backends/*', entries: directories}}
- id: demo/source-count
  label: inferred
  dimension: device.accelerators
  text: Three C and C++ sources outside kernels.
  count: {value: 3, how: {glob: 'src/**/*.c*', exclude: '/kernels/'}}
"""


@pytest.fixture
def passing_project(demo_project, demo):
    _, shas = demo
    return demo_project({"demo/a.yaml": PASSING.replace("FIRST", shas[0])})


def run(project, *args, capsys=None):
    code = main(["--root", str(project), *args])
    out = capsys.readouterr() if capsys else None
    return code, out


def test_passing_run_writes_a_sorted_lock_that_offline_mode_accepts(passing_project, demo, capsys):
    path, shas = demo
    code, out = run(passing_project, "--repo", f"demo={path}", capsys=capsys)
    assert code == 0, out.out
    assert "demo @ " in out.out and "9 ok, 0 failed" in out.out
    lock_file = passing_project / "claims" / "citecheck.lock"
    data = json.loads(lock_file.read_text())
    net = next(e for e in data["cites"] if e.get("symbol") == "Net::load")
    assert (net["lines"], net["kind"], net["commit"]) == ([4, 7], "definition", shas[1])
    assert next(e for e in data["cites"] if e.get("symbol") == "op" and e["commit"] == shas[0])["file"] == "src/ops.c"
    assert sorted(e["value"] for e in data["counts"]) == [2, 2, 3, 3]
    first = lock_file.read_text()
    assert run(passing_project, "--repo", f"demo={path}")[0] == 0
    assert lock_file.read_text() == first  # stable output
    code, out = run(passing_project, "--offline", capsys=capsys)
    assert code == 0, out.out
    assert "offline" in out.out


def test_mirrors_directory_and_environment_variable(passing_project, demo, monkeypatch, capsys):
    path, _ = demo
    assert run(passing_project, "--mirrors", str(path.parent))[0] == 0
    monkeypatch.setenv("CITECHECK_MIRRORS", str(path.parent))
    assert run(passing_project)[0] == 0


def test_fetch_clones_the_pinned_commit_into_a_cache(passing_project, demo, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CITECHECK_FETCH_URLS", f"other=https://example.invalid/x demo={demo[0].as_uri()}")
    cache = tmp_path / "cache"
    code, out = run(passing_project, "--fetch", "--cache", str(cache), "--engine", "demo", capsys=capsys)
    assert code == 0, out.out
    assert (cache / "demo" / "HEAD").exists()


@pytest.mark.parametrize(
    "cite, reason",
    [
        ("{file: src/nope.cpp, symbol: Net::load}", "file missing: src/nope.cpp does not exist at"),
        ("{file: src/kernels/gone.c, symbol: run_op}", "run_op is defined in src/kernels/ops.c"),
        ("{file: ops.c, symbol: run_op}", "(a file of that name is at src/kernels/ops.c)"),
        ("{file: src, symbol: x}", "path not a regular file: src is a directory"),
        ("{file: include/net_link.h, symbol: Net}", "path not a regular file: include/net_link.h is a symbolic link"),
        ("{file: third_party/sub, symbol: x}", "path not a regular file: third_party/sub is a submodule entry"),
        ("{file: third_party/sub/inner.c, symbol: x}", "third_party/sub is a submodule entry"),
        ("{file: weights.bin, symbol: x}", "path not a regular file: weights.bin is a binary file"),
        ("{file: src/net.cpp, symbol: Net::unload}", "symbol not found: Net::unload is not in src/net.cpp"),
        ("{file: src/net.cpp, symbol: Net::forward, contains: open_file}", "contains not found"),
        ("{file: src/net.cpp, symbol: Net::load, commit: '" + "a" * 40 + "'}", "commit not in repository"),
    ],
)
def test_each_failure_kind_is_reported_with_file_line_and_claim(demo_project, demo, capsys, cite, reason):
    path, _ = demo
    project = demo_project({"demo/a.yaml": f"- id: demo/bad\n  label: verified\n  dimension: kind.category\n  text: t\n  cites:\n    - {cite}\n"})
    code, out = run(project, "--repo", f"demo={path}", capsys=capsys)
    assert code == 1
    assert "claims/demo/a.yaml:6: demo/bad: " in out.out
    assert reason in out.out
    assert not (project / "claims" / "citecheck.lock").exists()  # nothing written on failure


def test_count_mismatch_fails_and_leaves_the_old_lock_alone(passing_project, demo, capsys):
    path, _ = demo
    assert run(passing_project, "--repo", f"demo={path}")[0] == 0
    lock_file = passing_project / "claims" / "citecheck.lock"
    before = lock_file.read_bytes()
    claims_file = passing_project / "claims" / "demo" / "a.yaml"
    claims_file.write_text(claims_file.read_text().replace("{value: 2,", "{value: 18,"))
    code, out = run(passing_project, "--repo", f"demo={path}", capsys=capsys)
    assert code == 1
    assert "demo/backend-count: count mismatch: the claim says 18, the pin gives 2" in out.out
    assert lock_file.read_bytes() == before
    assert not list(lock_file.parent.glob(".citecheck-*"))  # no temporary left behind
    code, out = run(passing_project, "--offline", capsys=capsys)
    assert code == 1 and "the claim says 18, the lock recorded 2" in out.out


def test_repository_unavailable_is_said_once_per_engine(passing_project, capsys, monkeypatch):
    monkeypatch.delenv("CITECHECK_MIRRORS", raising=False)
    code, out = run(passing_project, "--engine", "demo", capsys=capsys)
    assert code == 1
    lines = [line for line in out.out.splitlines() if "repository unavailable" in line]
    assert len(lines) == 1 and "give --repo demo=PATH" in lines[0]
    assert "(and 8 more with the same reason)" in lines[0]
    code, out = run(passing_project, "--repo", "demo=/nonexistent/path", capsys=capsys)
    assert code == 1 and "repository unavailable: /nonexistent/path is not a git repository" in out.out


def test_unknown_engine_and_bad_usage_exit_2(passing_project, capsys):
    code, out = run(passing_project, "--engine", "nosuch", capsys=capsys)
    assert code == 2 and "unknown engine nosuch" in out.err
    code, out = run(passing_project, "--repo", "nosuch=/tmp", capsys=capsys)
    assert code == 2 and "unknown engine nosuch" in out.err


def test_bad_records_exit_2_with_every_problem(demo_project, capsys):
    project = demo_project({"demo/a.yaml": "- {id: demo/x, label: verified, dimension: kind.category, text: t}\n"})
    code, out = run(project, "--offline", capsys=capsys)
    assert code == 2 and "a.yaml:1: demo/x: a verified claim needs at least one cite" in out.err


def test_citecheck_reads_the_claims_and_leaves_the_other_records_to_lint(passing_project, demo, capsys):
    """A broken cells file is lint's to report (lint runs before citecheck in CI): citecheck, which checks
    the claims' cites and counts, still checks them and writes the lock."""
    (passing_project / "claims/demo/cells.yaml").write_text("- {dimension: kind.category, verdict: maybe}\n")
    code, out = run(passing_project, "--repo", f"demo={demo[0]}", capsys=capsys)
    assert code == 0 and "passed" in out.out, out.err
    assert read_lock(passing_project / "claims" / "citecheck.lock").cites


def test_offline_fails_on_missing_and_stale_entries(passing_project, demo, capsys):
    path, _ = demo
    code, out = run(passing_project, "--offline", capsys=capsys)
    assert code == 1 and out.out.count("lock missing: there is no lock") == 1 and "not in lock" not in out.out
    assert run(passing_project, "--repo", f"demo={path}")[0] == 0
    claims_file = passing_project / "claims" / "demo" / "a.yaml"
    claims_file.write_text(claims_file.read_text().replace("symbol: Net}", "symbol: demo::Net}"))
    code, out = run(passing_project, "--offline", capsys=capsys)
    assert code == 1
    assert "a.yaml:7: demo/net: not in lock" in out.out
    assert "citecheck.lock:0: -: stale lock entry: no claim cites demo src/net.h 'Net'" in out.out
    assert run(passing_project, "--repo", f"demo={path}")[0] == 0  # a real run refreshes the lock
    assert run(passing_project, "--offline")[0] == 0
    assert not any(e.get("symbol") == "Net" for e in read_lock(passing_project / "claims" / "citecheck.lock").cites.values())


def test_a_malformed_lock_is_a_configuration_error(passing_project, capsys):
    (passing_project / "claims" / "citecheck.lock").write_text("{not json")
    code, out = run(passing_project, "--offline", capsys=capsys)
    assert code == 2 and "not a citecheck lock" in out.err


def test_json_output(passing_project, demo, capsys):
    path, shas = demo
    code, out = run(passing_project, "--repo", f"demo={path}", "--format", "json", capsys=capsys)
    report = json.loads(out.out)
    assert code == 0 and report["summary"]["demo"]["failed"] == 0
    row = next(r for r in report["results"] if r["symbol"] == "Net::load")
    assert row | {"reason": None} == row and row["status"] == "ok" and row["line"] == 4 and row["kind"] == "definition"
    assert row["claim"] == "demo/net" and row["commit"] == shas[1] and row["file"] == "src/net.cpp"


def test_a_candidate_pin_shows_what_breaks_without_touching_the_lock(demo_project, demo, capsys):
    path, shas = demo
    claims = """
- id: demo/ops
  label: verified
  dimension: kernel.operators
  text: The op enum lives in src/kernels/ops.c.
  cites:
    - {file: src/kernels/ops.c, symbol: run_op}
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: Net::load exists.
  cites:
    - {file: src/net.cpp, symbol: Net::load}
"""
    project = demo_project({"demo/a.yaml": claims})
    assert run(project, "--repo", f"demo={path}")[0] == 0
    lock_file = project / "claims" / "citecheck.lock"
    before = lock_file.read_bytes()
    # Moving the pin back to the first commit, where ops.c sat elsewhere:
    code, out = run(project, "--repo", f"demo={path}", "--pin", f"demo={shas[0]}", capsys=capsys)
    assert code == 1
    assert "a.yaml:6: demo/ops: file missing: src/kernels/ops.c does not exist at" in out.out
    assert "run_op is defined in src/ops.c" in out.out
    assert f"demo @ {shas[0][:12]}" in out.out
    assert lock_file.read_bytes() == before
    code, out = run(project, "--repo", f"demo={path}", "--pin", "demo=abc", capsys=capsys)
    assert code == 2 and "full 40-hex commit SHA" in out.err


def test_a_symbol_gone_from_its_file_says_where_it_is_now(demo_project, demo, capsys):
    path, _ = demo
    project = demo_project({"demo/a.yaml": "- id: demo/x\n  label: verified\n  dimension: kind.category\n  text: t\n  cites:\n    - {file: src/net.cpp, symbol: run_op}\n"})
    code, out = run(project, "--repo", f"demo={path}", capsys=capsys)
    assert code == 1
    assert "symbol not found: run_op is not in src/net.cpp outside comments at this commit; run_op is defined in src/kernels/ops.c" in out.out


def test_an_engine_named_twice_is_checked_once(passing_project, demo, capsys):
    path, _ = demo
    code, out = run(passing_project, "--repo", f"demo={path}", "--engine", "demo", "--engine", "demo", capsys=capsys)
    assert code == 0 and out.out.count("demo @ ") == 1
    assert "demo @ " in out.out and "passed, 9 ok, 0 failed" in out.out  # 5 cites and 4 counts, once each


def test_no_cache_resolves_again_and_leaves_the_cache_alone(passing_project, demo, private_cache, capsys):
    path, _ = demo
    assert run(passing_project, "--repo", f"demo={path}", "--no-cache")[0] == 0
    assert not private_cache.exists()
    assert run(passing_project, "--repo", f"demo={path}")[0] == 0
    assert (private_cache / "resolved.json").exists()


def test_a_count_can_be_the_value_a_file_gives_a_constant(demo_project, demo, capsys):
    path, _ = demo
    claims = """
- id: demo/version
  label: inferred
  dimension: kind.category
  text: The header's version is 3.
  count: {value: 3, how: {file: src/net.h, constant: DEMO_VERSION}}
- id: demo/nothing
  label: inferred
  dimension: kind.category
  text: A constant that is not there.
  count: {value: 1, how: {file: src/net.h, constant: NOT_DEFINED}}
"""
    project = demo_project({"demo/a.yaml": claims})
    code, out = run(project, "--repo", f"demo={path}", capsys=capsys)
    assert code == 1
    assert "demo/version" not in out.out.split("demo @")[0]  # the first passes
    assert "demo/nothing: symbol not found: NOT_DEFINED: no integer definition in src/net.h" in out.out


def test_a_symlink_read_twice_is_refused_both_times(passing_project, demo):
    from citecheck.errors import NotRegularFile
    from citecheck.gitstore import GitStore

    path, shas = demo
    store = GitStore(path)
    for _ in range(2):  # the second read comes from the store's memo of tree lookups
        with pytest.raises(NotRegularFile, match="symbolic link"):
            store.read(shas[1], "include/net_link.h")


def test_a_missing_commit_is_looked_up_once_however_many_cites_ask(demo, monkeypatch):
    """Every cite at a pin the mirror lacks asks for the commit; git is asked once (each first answer
    waits for git's stderr, so asking per cite made a run at a missing pin take seconds per hundred)."""
    from citecheck.errors import CommitMissing
    from citecheck.gitstore import GitStore

    path, shas = demo
    store = GitStore(path)
    asked = []
    real = store.repo.commit
    monkeypatch.setattr(store.repo, "commit", lambda sha: asked.append(sha) or real(sha))
    try:
        for _ in range(3):
            with pytest.raises(CommitMissing, match=f"commit {'a' * 40} is not in"):
                store.commit("a" * 40)
        assert store.commit(shas[1]).hexsha == store.commit(shas[1]).hexsha == shas[1]
    finally:
        store.close()
    assert asked == ["a" * 40, shas[1]]
