"""Special files where the tools expect regular ones (a FIFO above all): each is a clear error or a
cache left unused, with its name, never a wait for a writer that never comes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from citecheck.cache import CACHE_NAME
from citecheck.cli import main as citecheck
from claimtool.cli import main as claims
from enginekb.store import STORE_NAME
from test_bad_input import GOOD
from test_faults import bounded  # noqa: F401 - the fixture that turns a hang into a failure


@pytest.fixture
def checked(demo_project, demo, monkeypatch):
    root = demo_project({"demo/a.yaml": GOOD})
    monkeypatch.chdir(root)
    assert citecheck(["--root", str(root), "--repo", f"demo={demo[0]}"]) == 0
    return root


def _fifo(path: Path) -> Path:
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    return path


def test_a_fifo_for_the_lock_is_a_clear_error(checked, capsys, bounded):
    fifo = _fifo(checked / "claims" / "citecheck.lock")
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--offline"]) == 2
    assert f"{fifo} is a FIFO" in capsys.readouterr().err
    assert claims(["show", "demo/net"]) in (0, 2)  # show reads the lock too: no wait there either


def test_a_fifo_for_the_lock_guard_is_a_clear_error(checked, demo, capsys, bounded):
    fifo = _fifo(checked / "claims" / ".citecheck.lock.guard")
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 2
    assert str(fifo) in capsys.readouterr().err


@pytest.mark.parametrize("where", ["record store", "resolve cache"])
def test_a_fifo_for_a_cache_leaves_it_unused_with_a_warning(checked, demo, tmp_path, capsys, where, bounded):
    fifo = _fifo(tmp_path / "enginekb-cache" / STORE_NAME if where == "record store"
                 else tmp_path / "citecheck-cache" / CACHE_NAME)
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 0
    assert f"{fifo} is a FIFO" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["config", "packed-refs"])
def test_a_fifo_in_a_mirror_s_metadata_is_a_clear_error(checked, demo, tmp_path, capsys, name, bounded):
    mirror = tmp_path / "mirror"
    shutil.copytree(demo[0], mirror)
    fifo = _fifo(mirror / ".git" / name)
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--repo", f"demo={mirror}", "--no-write"]) == 1
    out = capsys.readouterr()
    assert f"{fifo} is a FIFO" in out.out + out.err and "Traceback" not in out.err


def test_a_mirror_config_without_a_section_header_is_a_clear_error(checked, demo, tmp_path, capsys, bounded,
                                                                  monkeypatch):
    monkeypatch.setenv("CITECHECK_CACHE", "off")
    mirror = tmp_path / "mirror"
    shutil.copytree(demo[0] / ".git", mirror)  # a bare mirror: gitpython reads its config in Python
    (mirror / "config").write_text("bare = true\n")
    capsys.readouterr()
    code = citecheck(["--root", str(checked), "--repo", f"demo={mirror}", "--no-write"])
    out = capsys.readouterr()
    assert code == 1, out.out + out.err
    assert "its git config cannot be read (File contains no section headers" in out.out + out.err


def test_a_hundred_thousand_nested_flow_sequences_are_an_error_not_a_crash(demo_project, tmp_path):
    import subprocess
    import sys
    root = demo_project({"demo/a.yaml": GOOD, "demo/deep.yaml": "- " + "[" * 100_000 + "]" * 100_000 + "\n"})
    done = subprocess.run([sys.executable, "-c", "import sys; from claimtool.cli import main; sys.exit(main(['lint']))"], cwd=root, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent / "tools")})
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert "claims/demo/deep.yaml:1: -: nested deeper than 32 levels" in done.stderr + done.stdout


@pytest.mark.parametrize("deep", ["- " * 100_000 + "x\n", "? - " * 50_000 + "x\n", "key:\n  " + "? " * 100_000 + "x\n"])
def test_block_nesting_on_one_line_is_an_error_not_a_crash(demo_project, deep):
    """No bracket at all: compact block entries (`- - - x`) nest a level each, and libyaml's composer
    recursed through 100,000 of them into a SIGSEGV before the depth check ran."""
    import subprocess
    import sys
    root = demo_project({"demo/a.yaml": GOOD, "demo/deep.yaml": deep})
    done = subprocess.run([sys.executable, "-c", "import sys; from claimtool.cli import main; sys.exit(main(['lint']))"],
                          cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent / "tools")})
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert "claims/demo/deep.yaml:" in done.stderr + done.stdout and "nested deeper than 32 levels" in done.stderr + done.stdout


@pytest.mark.parametrize("where", [".git itself", "config behind a gitdir file", "commondir's config", "shallow"])
def test_a_fifo_wherever_gitpython_reads_a_mirror_s_metadata_is_a_clear_error(checked, demo, tmp_path, capsys,
                                                                              where, bounded, monkeypatch):
    """A mirror that is a worktree or a submodule has a `.git` file naming its git directory: gitpython
    read the config there (a FIFO: a wait in a child process, beyond any alarm), as it reads `.git`."""
    monkeypatch.setenv("CITECHECK_GIT_TIMEOUT", "5")
    mirror = tmp_path / "mirror"
    shutil.copytree(demo[0], mirror)
    dotgit = mirror / ".git"
    if where == ".git itself":
        shutil.rmtree(dotgit)
        fifo = _fifo(dotgit)
    elif where == "shallow":
        fifo = _fifo(dotgit / "shallow")
    else:
        real = tmp_path / "real.git"
        shutil.move(dotgit, real)
        dotgit.write_text(f"gitdir: {real}\n")
        if where == "commondir's config":
            common = tmp_path / "common.git"
            shutil.copytree(real, common)
            (real / "commondir").write_text(f"{common}\n")
            real = common
        fifo = _fifo(real / "config")
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--repo", f"demo={mirror}", "--no-write", "--no-cache"]) == 1
    out = capsys.readouterr()
    assert f"{fifo} is a FIFO" in out.out + out.err and "Traceback" not in out.err


@pytest.mark.parametrize("ref", ["refs/heads/candidate", "refs/tags/candidate"])
def test_drift_to_a_ref_whose_file_is_a_fifo_is_a_clear_error_within_the_time_limit(checked, demo, tmp_path, capsys,
                                                                                   ref, bounded, monkeypatch):
    """gitpython resolved `--to NAME` by reading the ref's file in Python: a FIFO there waited for ever.
    git resolves it now, within $CITECHECK_GIT_TIMEOUT."""
    monkeypatch.setenv("CITECHECK_GIT_TIMEOUT", "3")
    mirror = tmp_path / "mirror"
    shutil.copytree(demo[0], mirror)
    (mirror / ".git" / ref).parent.mkdir(parents=True, exist_ok=True)
    _fifo(mirror / ".git" / ref)
    capsys.readouterr()
    code = citecheck(["drift", "--root", str(checked), "--repo", f"demo={mirror}", "--engine", "demo", "--to", "candidate"])
    out = capsys.readouterr()
    assert code == 2, out.out + out.err
    assert "citecheck drift: demo: repository unavailable:" in out.err and "Traceback" not in out.err
    assert citecheck(["drift", "--root", str(checked), "--repo", f"demo={demo[0]}", "--engine", "demo",
                      "--to", demo[1][1]]) == 0  # a commit still resolves
    assert citecheck(["drift", "--root", str(checked), "--repo", f"demo={demo[0]}", "--engine", "demo",
                      "--to", "no-such-branch"]) == 2
    assert "no-such-branch names no commit" in capsys.readouterr().err
