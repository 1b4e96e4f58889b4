"""`citecheck verify-lock --base REV` on a fixture project kept in git: a hand-edited or forged lock
entry that `citecheck --offline` accepts is caught, a genuine refresh passes, bad input is exit 2."""

import json
import subprocess

import pytest

from citecheck.cli import main

CLAIMS = """
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` opens a file."
  cites:
    - {file: src/net.cpp, symbol: Net::load, contains: open_file}
    - {file: README.md, phrase: small inference engine}
- id: demo/layer-count
  label: inferred
  dimension: kernel.operators
  text: Three layers are registered.
  count: {value: 3, how: {file: CMakeLists.txt, lines: '^demo_add_layer\\('}}
"""
GHOST = """
- id: demo/ghost
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::ghost` runs the graph."
  cites:
    - {file: src/net.cpp, symbol: Net::ghost}
"""
FORWARD = """
- id: demo/forward
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::forward` runs the graph."
  cites:
    - {file: src/net.cpp, symbol: Net::forward}
"""


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def project(demo_project, demo, capsys):
    """A project whose lock citecheck wrote, committed as the base: (root, upstream, base SHA)."""
    upstream, _ = demo
    root = demo_project({"demo/a.yaml": CLAIMS})
    assert main(["--root", str(root), "--repo", f"demo={upstream}"]) == 0
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "base")
    capsys.readouterr()
    return root, upstream, git(root, "rev-parse", "HEAD")


def verify(root, upstream, base, capsys, *extra):
    code = main(["verify-lock", "--root", str(root), f"--base={base}", "--repo", f"demo={upstream}", *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def offline(root, capsys):
    code = main(["--root", str(root), "--offline"])
    capsys.readouterr()
    return code


def edit_lock(root, change, ensure_ascii=True):
    path = root / "claims" / "citecheck.lock"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=ensure_ascii) + "\n", encoding="utf-8")


def test_an_unchanged_lock_has_nothing_to_verify(project, capsys):
    code, out = verify(*project, capsys)
    assert code == 0, out
    assert "0 lock entries new or changed" in out


def test_hand_edited_lines_pass_offline_but_not_verify_lock(project, capsys):
    root, upstream, base = project

    def wrong_lines(data):
        next(e for e in data["cites"] if e.get("symbol") == "Net::load")["lines"] = [1, 2]
    edit_lock(root, wrong_lines)
    assert offline(root, capsys) == 0  # the offline check cannot see it
    code, out = verify(root, upstream, base, capsys)
    assert code == 1
    assert "Net::load" in out and "lines 1-2 (definition), the resolver finds 4-7 (definition)" in out
    assert "1 lock entries new or changed" in out and "1 failed" in out


def test_a_forged_entry_for_a_missing_symbol_is_caught(project, capsys):
    root, upstream, base = project
    (root / "claims" / "demo" / "ghost.yaml").write_text(GHOST.lstrip())

    def forge(data):
        real = next(e for e in data["cites"] if e.get("symbol") == "Net::load")
        data["cites"].append({**real, "symbol": "Net::ghost"} | {"contains": None})
        data["cites"][-1].pop("contains")
    edit_lock(root, forge)
    assert offline(root, capsys) == 0
    code, out = verify(root, upstream, base, capsys, "--format", "github")
    assert code == 1
    assert "::error file=claims/citecheck.lock,title=citecheck verify-lock::demo" in out
    assert "symbol not found: Net::ghost is not in src/net.cpp" in out


def test_a_forged_blob_or_count_is_caught(project, capsys):
    root, upstream, base = project

    def forge(data):
        data["cites"][0]["blob"] = "1" * 40
        data["counts"][0]["value"] = 4
    edit_lock(root, forge)
    code, out = verify(root, upstream, base, capsys)
    assert code == 1
    assert f"the lock names blob {'1' * 40}" in out
    assert "the lock says 4, the commit gives 3" in out and "2 failed" in out


def test_a_genuine_refresh_verifies(project, capsys):
    root, upstream, base = project
    (root / "claims" / "demo" / "forward.yaml").write_text(FORWARD.lstrip())
    assert main(["--root", str(root), "--repo", f"demo={upstream}", "--engine", "demo"]) == 0
    code, out = verify(root, upstream, base, capsys)
    assert code == 0, out
    assert "1 lock entries new or changed since" in out and "1 verified, 0 failed" in out


def test_a_base_without_a_lock_verifies_every_entry(project, capsys):
    root, upstream, _ = project
    git(root, "rm", "-q", "--cached", "claims/citecheck.lock")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "no lock")
    code, out = verify(root, upstream, "HEAD", capsys)
    assert code == 0, out
    assert "3 lock entries new or changed" in out


@pytest.mark.parametrize("base", ["--output=/tmp/x", "no-such-branch", "HEAD\x1b[2J"])
def test_a_bad_base_is_exit_2_and_never_an_option(project, capsys, base):
    root, upstream, _ = project
    code, out = verify(root, upstream, base, capsys)
    assert code == 2
    assert "verify-lock:" in out and "Traceback" not in out


def test_a_malformed_repo_argument_is_exit_2(project, capsys):
    root, _, base = project
    assert main(["verify-lock", "--root", str(root), "--base", base, "--repo", "demo"]) == 2
    assert "--repo takes ENGINE=PATH" in capsys.readouterr().err


def test_an_unavailable_repository_fails_each_entry_it_holds(project, capsys, tmp_path):
    root, _, base = project
    edit_lock(root, lambda data: data["cites"][0].update(lines=[1, 1]))
    code, out = verify(root, tmp_path / "nowhere", base, capsys)
    assert code == 1
    assert "repository unavailable" in out


def workflow_step():
    from test_ci import PROJECT, load_workflow

    lock = load_workflow(PROJECT / ".github" / "workflows" / "lock.yml")
    steps = lock["jobs"]["verify"]["steps"]
    return lock, next(s for s in steps if "verify-lock" in s.get("run", ""))


def test_the_pull_request_workflow_runs_verify_lock_against_the_base():
    lock, step = workflow_step()
    assert set(lock["on"]) == {"pull_request"}
    assert step["env"]["BASE"] == "${{ github.event.pull_request.base.sha }}"
    checkout = lock["jobs"]["verify"]["steps"][0]
    assert checkout["with"]["fetch-depth"] == 0  # the base commit must be there to compare with


def test_the_workflow_script_catches_a_forged_entry_with_a_partial_fetch(project, capsys, tmp_path):
    """The step's own script, run on the fixture project with --fetch from a local upstream that
    serves partial clones: a forged entry fails it, and only the blobs named were fetched."""
    import os
    import sys
    from pathlib import Path

    root, upstream, base = project
    git(upstream, "config", "uploadpack.allowFilter", "true")
    git(upstream, "config", "uploadpack.allowAnySHA1InWant", "true")
    (root / ".venv").symlink_to(Path(sys.executable).parent.parent)
    edit_lock(root, lambda data: next(e for e in data["cites"] if e.get("symbol") == "Net::load").update(lines=[5, 7]))
    _, step = workflow_step()
    cache = tmp_path / "xdg"
    env = {**os.environ, "BASE": base, "XDG_CACHE_HOME": str(cache), "ENGINEKB_CACHE": "off",
           "CITECHECK_FETCH_URLS": f"demo={upstream.as_uri()}"}
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::error file=claims/citecheck.lock" in done.stdout and "lines 5-7" in done.stdout
    fetched = next(cache.rglob("demo"))
    assert git(fetched, "config", "remote.origin.promisor") == "true"
    pin = json.loads((root / "claims" / "citecheck.lock").read_text())["cites"][0]["commit"]
    missing = git(fetched, "rev-list", "--objects", "--missing=print", pin)
    assert "?" in missing  # blobs nobody read (weights.bin, the other sources) were never fetched


def test_a_count_query_is_run_only_as_a_claim_states_it(project, capsys):
    """A forged count entry may carry any pattern (one that takes for ever, or does not compile): only
    the queries of the claims' counts are run."""
    root, upstream, base = project

    def forge(data):
        data["counts"].append({**data["counts"][0], "query": {"file": "CMakeLists.txt", "lines": "(a+)+$"}})
        data["counts"].append({**data["counts"][0], "query": {"file": "CMakeLists.txt", "lines": "("}})
    edit_lock(root, forge)
    code, out = verify(root, upstream, base, capsys)
    assert code == 1
    assert out.count("no claim counts with this query at this commit") == 2


@pytest.mark.parametrize("ensure_ascii", [True, False], ids=["escaped", "raw"])
@pytest.mark.parametrize("change", [{"symbol": "Net::\u001b[2Jload"}, {"file": "src/\u009b31mnet.cpp"}, {"phrase": "x\u0000y"},
                                    {"engine": "demo\u202e"}, {"contains": "open\r_file"}, {"symbol": "Net\x7fload"},
                                    {"symbol": "Net\\\u001b[2Jload"}])
def test_a_lock_entry_holding_a_control_or_format_character_is_refused_before_anything_prints_it(
        project, capsys, change, ensure_ascii):
    """JSON can spell what YAML refuses (\\u001b, \\u009b, \\u0000) as an escape, and DEL, C1 controls and
    format characters raw: such an entry in a pull request was printed raw to the terminal by
    verify-lock's messages. The lock is malformed: exit 2, named."""
    root, upstream, base = project
    edit_lock(root, lambda data: data["cites"][0].update(change), ensure_ascii)
    for run in (lambda: verify(root, upstream, base, capsys),
                lambda: (main(["--root", str(root), "--offline"]), "".join(capsys.readouterr()))):
        code, out = run()
        assert code == 2, out
        assert "citecheck.lock: cites[0]: missing or malformed text" in out
        assert not set(out) & {"\x1b", "\x9b", "\0", "\r", "\u202e", "\x7f"}
