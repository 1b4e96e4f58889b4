"""A thin read-only wrapper around an upstream git repository, read at given commits.

Blobs are read by tree lookup through gitpython's long-lived `git cat-file --batch` process: no
checkout, no working tree, and nothing outside the repository can be reached.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import git
from gitdb.exc import BadName, BadObject

from .errors import CommitMissing, FileMissing, NotRegularFile, RepositoryUnavailable

SYMLINK_MODE = 0o120000
BINARY_PROBE = 8000  # git's own heuristic: a NUL byte in the first 8000 bytes means binary


@dataclass(frozen=True)
class Blob:
    path: str
    sha: str
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class TreeEntry:
    path: str
    kind: str  # "file", "directory", "symlink" or "submodule"


class GitStore:
    def __init__(self, path: Path):
        try:
            self.repo = git.Repo(path)
        except (git.NoSuchPathError, git.InvalidGitRepositoryError) as error:
            raise RepositoryUnavailable(f"{path} is not a git repository ({type(error).__name__})") from None
        self.path = Path(path)
        self._blobs: dict[str, bytes] = {}
        self._nodes: dict[tuple[str, str], object] = {}  # (commit, path) -> tree or blob object

    def close(self) -> None:
        self.repo.close()

    @lru_cache(maxsize=None)
    def commit(self, sha: str) -> git.Commit:
        try:
            commit = self.repo.commit(sha)
        except (BadName, BadObject, ValueError):
            raise CommitMissing(f"commit {sha} is not in {self.path}") from None
        except (OSError, git.GitCommandError) as error:
            raise RepositoryUnavailable(f"{self.path} cannot be read ({type(error).__name__})") from None
        if commit.hexsha != sha:
            raise CommitMissing(f"{sha} names {commit.hexsha}, not a full commit SHA")
        return commit

    def resolve_revision(self, revision: str) -> str:
        """The full SHA of a commit, branch or tag of this repository."""
        try:
            return self.repo.commit(revision).hexsha
        except (BadName, BadObject, ValueError, git.GitCommandError):
            raise CommitMissing(f"{revision} names no commit in {self.path}") from None

    def read(self, sha: str, path: str) -> Blob:
        """The blob at `path` in `sha`, walking the tree one component at a time."""
        node = self.commit(sha).tree
        parts = path.split("/")
        for depth, part in enumerate(parts):
            here = "/".join(parts[: depth + 1])
            if node.type != "tree":
                raise FileMissing(f"{'/'.join(parts[:depth])} is not a directory at {sha[:12]}")
            try:
                known = self._nodes.get((sha, here))
                # Kept: each lookup in a fresh subtree object parses it again, gitpython's slow part.
                node = known if known is not None else self._nodes.setdefault((sha, here), node[part])
            except KeyError:
                raise FileMissing(f"{path} does not exist at {sha[:12]}" + self._moved_hint(sha, path)) from None
            except (ValueError, OSError, BadObject, git.GitCommandError) as error:
                raise RepositoryUnavailable(f"{self.path} is damaged: the tree of {here} cannot be read "
                                            f"({type(error).__name__})") from None
            if node.type == "submodule":
                raise NotRegularFile(f"{here} is a submodule entry at {sha[:12]}, not a file")
            if node.type == "blob" and node.mode & 0o170000 == SYMLINK_MODE:
                raise NotRegularFile(f"{here} is a symbolic link at {sha[:12]}, not a regular file")
        if node.type == "tree":
            raise NotRegularFile(f"{path} is a directory at {sha[:12]}, not a file")
        data = self._blobs.get(node.hexsha)
        if data is None:
            try:
                data = self._blobs[node.hexsha] = node.data_stream.read()
            except (ValueError, OSError, BadObject, git.GitCommandError) as error:
                raise RepositoryUnavailable(f"{self.path} is damaged: blob {node.hexsha[:12]} of {path} cannot be "
                                            f"read ({type(error).__name__})") from None
        if b"\0" in data[:BINARY_PROBE]:
            raise NotRegularFile(f"{path} is a binary file at {sha[:12]}")
        return Blob(path, node.hexsha, data)

    @lru_cache(maxsize=None)
    def entries(self, sha: str) -> tuple[TreeEntry, ...]:
        """Every path in the commit's tree, directories included."""
        self.commit(sha)
        try:
            listing = self.repo.git.ls_tree("-r", "-t", "-z", "--full-tree", sha)
        except git.GitCommandError as error:
            raise RepositoryUnavailable(f"{self.path} is damaged: cannot list {sha[:12]} ({error.stderr.strip()})") from None
        entries = []
        for record in filter(None, listing.split("\0")):
            meta, path = record.split("\t", 1)
            mode, kind, _ = meta.split()
            if kind == "tree":
                entries.append(TreeEntry(path, "directory"))
            elif kind == "commit":
                entries.append(TreeEntry(path, "submodule"))
            else:
                entries.append(TreeEntry(path, "symlink" if int(mode, 8) == SYMLINK_MODE else "file"))
        return tuple(entries)

    def files_mentioning(self, sha: str, word: str, limit: int = 5) -> list[str]:
        """Files at `sha` where `word` occurs as a whole word (used to say where a symbol went)."""
        try:
            out = self.repo.git.grep("-l", "-w", "-F", "-e", word, sha, "--")
        except git.GitCommandError:
            return []
        return [line.split(":", 1)[1] for line in out.splitlines()[:limit]]

    def _moved_hint(self, sha: str, path: str) -> str:
        name = path.rsplit("/", 1)[-1]
        same_name = [e.path for e in self.entries(sha) if e.kind == "file" and e.path.rsplit("/", 1)[-1] == name]
        return f" (a file of that name is at {', '.join(same_name[:5])})" if same_name else ""


def fetch_pinned(url: str, sha: str, cache: Path) -> Path:
    """Shallow-fetch one commit of `url` into a bare repository under `cache`; reuse it if present."""
    cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    if not (cache / "HEAD").exists():
        subprocess.run(["git", "init", "-q", "--bare", str(cache)], check=True, env=env)
    have = subprocess.run(["git", "-C", str(cache), "cat-file", "-e", f"{sha}^{{commit}}"], env=env, capture_output=True)
    if have.returncode != 0:
        done = subprocess.run(
            ["git", "-C", str(cache), "fetch", "-q", "--depth", "1", url, sha],
            env=env, capture_output=True, text=True,
        )
        if done.returncode != 0:
            raise RepositoryUnavailable(f"could not fetch {sha[:12]} from {url}: {done.stderr.strip()}")
    return cache


def fetch_revision(url: str, revision: str, cache: Path) -> str:
    """Shallow-fetch a branch, tag or commit of `url` into the bare repository `cache`; its SHA."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    done = subprocess.run(["git", "-C", str(cache), "fetch", "-q", "--depth", "1", url, revision],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RepositoryUnavailable(f"could not fetch {revision} from {url}: {done.stderr.strip()}")
    head = subprocess.run(["git", "-C", str(cache), "rev-parse", "FETCH_HEAD^{commit}"],
                          env=env, capture_output=True, text=True, check=True)
    return head.stdout.strip()
