"""The warm run's fast path: the confirming process reads the lock's blobs with plain git (batchread.py),
as strict as GitStore about what it gives, and a run that confirms everything opens no repository in
its own process (gitpython is not even imported) and writes no citecheck cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from citecheck.batchread import read_regular_files
from citecheck.cache import CACHE_NAME, load_cache
from citecheck.cli import main as citecheck
from citecheck.confirm import confirm_entries
from citecheck.lock import read_lock
from citecheck.repos import RepositorySources
from test_bad_input import GOOD
from upstream import PROJECT, Submodule, Symlink, make_project, make_upstream

NET = "int Net::load(const char* path)\n{\n    return open_file(path);\n}\n"
TREE = {"src/net.cpp": NET, "src/link.cpp": Symlink("net.cpp"), "src/blob.bin": b"Net::load\0\1\2",
        "src/sub": Submodule("1" * 40), "src/dir/x.cpp": NET}


def _git(repository: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-C", str(repository), *arguments], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_only_regular_text_files_at_commits_are_read(tmp_path):
    repository, (sha,) = make_upstream(tmp_path / "up", [TREE])
    wanted = {sha: {"src/net.cpp", "src/link.cpp", "src/blob.bin", "src/sub", "src/dir", "src/absent.cpp", ":(glob)*"}}
    held, blobs = read_regular_files(repository, wanted)
    assert held == {sha} and list(blobs) == [(sha, "src/net.cpp")]
    assert blobs[(sha, "src/net.cpp")].data == NET.encode()
    assert blobs[(sha, "src/net.cpp")].sha == _git(repository, "rev-parse", f"{sha}:src/net.cpp")


def test_a_tag_a_tree_or_a_missing_object_is_not_a_commit(tmp_path):
    repository, (sha,) = make_upstream(tmp_path / "up", [TREE])
    _git(repository, "tag", "-a", "-m", "a tag", "v1", sha)
    tag, tree = _git(repository, "rev-parse", "v1"), _git(repository, "rev-parse", f"{sha}^{{tree}}")
    held, blobs = read_regular_files(repository, {tag: {"src/net.cpp"}, tree: {"src/net.cpp"}}, {"f" * 40, "HEAD"})
    assert held == set() and blobs == {}


def test_what_is_not_a_sound_repository_gives_nothing(tmp_path):
    assert read_regular_files(tmp_path, {"a" * 40: {"x"}}) is None
    repository, (sha,) = make_upstream(tmp_path / "up", [TREE])
    os.mkfifo(repository / ".git" / "packed-refs")  # git would wait on it
    assert read_regular_files(repository, {sha: {"src/net.cpp"}}) is None


def test_a_lock_and_cache_naming_a_symbolic_link_are_not_confirmed(tmp_path, private_cache):
    """The link's own blob holds its target's name: forged into the lock and the cache alike, the
    confirmation must still refuse what the checks refuse (a cite into a link is no regular file)."""
    repository, (sha,) = make_upstream(tmp_path / "up", [{"src/net.cpp": NET, "src/link.cpp": Symlink("Net::load")}])
    root = make_project(tmp_path / "project", {"demo": {"pin": sha}}, {"demo/a.yaml": GOOD.split("- id: demo/layers")[0]})
    assert citecheck(["--root", str(root), "--repo", f"demo={repository}"]) == 0
    sources = RepositorySources(repos={"demo": repository})
    lock_path = root / "claims" / "citecheck.lock"
    assert confirm_entries(read_lock(lock_path), sources, load_cache(private_cache))[0]  # as written: confirmed
    link = _git(repository, "rev-parse", f"{sha}:src/link.cpp")
    data = json.loads(lock_path.read_text())
    data["cites"][0].update(file="src/link.cpp", blob=link, lines=[1, 1], kind="mention")
    lock_path.write_text(json.dumps(data))
    cache = json.loads((private_cache / CACHE_NAME).read_text())
    cache["blobs"][f"{sha}:src/link.cpp"] = link
    cache["cites"] = {json.dumps([link, "src/link.cpp", "symbol", "Net::load", "open_file"]): [1, 1, "mention"]}
    (private_cache / CACHE_NAME).write_text(json.dumps(cache))
    assert confirm_entries(read_lock(lock_path), sources, load_cache(private_cache))[0] == set()


RUN = """
import sys
sys.path.insert(0, {tools!r})
from citecheck.cli import main
code = main(["--root", {root!r}, "--repo", "demo=" + {repository!r}])
print(code, "git" in sys.modules, "tree_sitter" in sys.modules)
"""


def test_a_warm_run_opens_no_repository_itself_and_writes_no_cache(tmp_path, private_cache):
    repository, (sha,) = make_upstream(tmp_path / "up", [{"src/net.cpp": NET, "CMakeLists.txt": "demo_add_layer(a)\n" * 3}])
    root = make_project(tmp_path / "project", {"demo": {"pin": sha}}, {"demo/a.yaml": GOOD})
    code = RUN.format(tools=str(PROJECT / "tools"), root=str(root), repository=str(repository))
    run = lambda: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,  # noqa: E731
                                 env={**os.environ, "CITECHECK_CACHE": str(private_cache)}).stdout.splitlines()[-1].split()
    assert run() == ["0", "True", "True"]  # cold: resolved here
    cache_file = private_cache / CACHE_NAME
    before = cache_file.stat().st_mtime_ns
    assert run() == ["0", "False", "False"]  # warm: the forked process confirmed every entry
    assert cache_file.stat().st_mtime_ns == before  # and nothing was learned, so nothing is written
