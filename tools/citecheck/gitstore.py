"""A thin read-only wrapper around an upstream git repository, read at given commits.

Blobs are read by tree lookup through gitpython's long-lived `git cat-file --batch` processes: no
checkout, no working tree, and nothing outside the repository can be reached.

Every git process is bounded. Replace objects are off (`--no-replace-objects`, GIT_NO_REPLACE_OBJECTS):
refs/replace in a mirror must not decide which blob a cite resolves to. The long-lived processes'
stderr is drained by a thread (a damaged pack makes git write an error per lookup, and a full pipe
would block it for ever) and kept, so a lookup that fails says what git said; each operation has a
deadline after which the processes are killed. Other commands run with gitpython's timeout.
"""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import CommitMissing, FileMissing, NotRegularFile, RepositoryUnavailable
from .gitdir import (BINARY_PROBE, DAMAGE, FULL_SHA, GIT_ENVIRONMENT, READ_TIMEOUT, REGULAR_MODES, TIMEOUT_VARIABLE, Blob,
                     checked_git_dir, git_timeout, require_sha)

SYMLINK_MODE = 0o120000
# gitpython, imported when the first repository is opened: a warm citecheck opens none in this process.
git = BadName = BadObject = None


def _import_gitpython() -> None:
    global git, BadName, BadObject
    if git is None:
        import git as gitpython
        from gitdb.exc import BadName as bad_name, BadObject as bad_object

        git, BadName, BadObject = gitpython, bad_name, bad_object


@dataclass(frozen=True)
class TreeEntry:
    path: str
    kind: str  # "file", "directory", "symlink" or "submodule"


class GitStore:
    def __init__(self, path: Path):
        _import_gitpython()
        self.path = Path(path)
        try:
            checked_git_dir(self.path)
        except OSError as error:
            raise RepositoryUnavailable(f"{path}: {error.strerror}") from None
        try:
            self.repo = git.Repo(path)
            self.repo.config_reader().read()  # read now: a malformed config is the mirror's fault, said once
        except (git.NoSuchPathError, git.InvalidGitRepositoryError) as error:
            raise RepositoryUnavailable(f"{path} is not a git repository ({type(error).__name__})") from None
        except OSError as error:
            raise RepositoryUnavailable(f"{path} cannot be read ({error.strerror or type(error).__name__})") from None
        except configparser.Error as error:
            first = str(error).splitlines()[0]
            raise RepositoryUnavailable(f"{path}: its git config cannot be read ({first})") from None
        self.repo.git.update_environment(**GIT_ENVIRONMENT)
        self.repo.git.set_persistent_git_options(no_replace_objects=True)
        self.timeout = git_timeout(READ_TIMEOUT)
        self._stderr: deque[str] = deque(maxlen=20)  # the last lines the long-lived processes wrote
        self._stderr_lock = threading.Lock()  # drain threads append while a failing read looks at them
        self._deadline: float | None = None
        self._timed_out = False
        self._closed = threading.Event()
        self._blobs: dict[str, bytes] = {}
        self._nodes: dict[tuple[str, str], object] = {}  # (commit, path) -> tree or blob object
        self._listed: dict[tuple[str, str], str] = {}  # (commit, path) -> blob sha of a regular file, by prefetch
        self._commits: dict[str, git.Commit | CommitMissing] = {}  # a missing commit is remembered too
        try:
            self._processes = [self.repo.git._get_persistent_cmd(attribute, "cat_file", **{option: True})
                               for attribute, option in (("cat_file_header", "batch_check"), ("cat_file_all", "batch"))]
        except (OSError, git.GitCommandError) as error:
            raise RepositoryUnavailable(f"{path}: git cannot start ({type(error).__name__})") from None
        for process in self._processes:
            threading.Thread(target=self._drain, args=(process.proc.stderr,), daemon=True).start()
        threading.Thread(target=self._watch, daemon=True).start()

    def close(self) -> None:
        self._closed.set()
        self.repo.close()

    def _drain(self, stream) -> None:
        for line in iter(stream.readline, b""):
            with self._stderr_lock:
                self._stderr.append(line.decode("utf-8", "replace").strip())

    def _watch(self) -> None:
        """Kill the long-lived processes when an operation passes its deadline: their reads then end."""
        while not self._closed.wait(min(1.0, self.timeout / 4)):
            deadline = self._deadline
            if deadline is not None and time.monotonic() > deadline:
                self._timed_out = True
                for process in self._processes:
                    process.proc.kill()
                return

    def _begin(self) -> None:
        if self._timed_out:
            raise self._unavailable("")
        self._deadline = time.monotonic() + self.timeout

    def _end(self) -> None:
        self._deadline = None

    def damage(self) -> str | None:
        """What git said about a damaged repository while reading, if it said anything. Called after
        a failed lookup: git writes its error before its answer, the thread may still be reading it."""
        for _ in range(5):
            with self._stderr_lock:
                said = [line for line in self._stderr if any(word in line for word in DAMAGE)]
            if said:
                return said[-1]
            time.sleep(0.01)
        return None

    def _unavailable(self, what: str) -> RepositoryUnavailable:
        if self._timed_out:
            return RepositoryUnavailable(f"{self.path}: git gave no answer within {self.timeout:g} s{what} "
                                         f"(${TIMEOUT_VARIABLE} sets the limit); is the repository damaged?")
        damage = self.damage()
        return RepositoryUnavailable(f"{self.path} is damaged{what}: git says {damage!r}" if damage
                                     else f"{self.path} cannot be read{what}")

    def shallow(self) -> bool:
        return (Path(self.repo.git_dir) / "shallow").exists()

    def run(self, command: str, *args: str) -> str:
        """A git command's output, within the time limit; RepositoryUnavailable, naming the
        repository and git's message, when it fails."""
        try:
            return getattr(self.repo.git, command)(*args, kill_after_timeout=self.timeout)
        except git.GitCommandError as error:
            # gitpython keeps stderr as "\n  stderr: '...'"
            said = re.sub(r"^\s*stderr: '|'\s*$", "", error.stderr or "").strip().splitlines()
            raise RepositoryUnavailable(f"{self.path}: git {command} failed: "
                                        f"{said[-1] if said else f'exit status {error.status}'}") from None
        except OSError as error:
            raise RepositoryUnavailable(f"{self.path}: git {command} cannot run ({type(error).__name__})") from None

    def commit(self, sha: str) -> git.Commit:
        """The commit `sha`; CommitMissing when the repository lacks it, decided once per SHA (every
        cite at a missing pin asks, and each first answer waits briefly for git's stderr)."""
        found = self._commits.get(sha)
        if found is None:
            try:
                found = self._commits[sha] = self._lookup_commit(sha)
            except CommitMissing as missing:
                found = self._commits[sha] = missing
        if isinstance(found, CommitMissing):
            raise CommitMissing(found.reason)
        return found

    def _lookup_commit(self, sha: str) -> git.Commit:
        require_sha(sha)
        self._begin()
        try:
            commit = self.repo.commit(sha)
            commit.tree  # noqa: B018 - read now, inside the deadline: a commit without its tree is damage
        except (BadName, BadObject, ValueError):
            if self._timed_out or self.damage():
                raise self._unavailable(f" (reading commit {sha[:12]})") from None
            if self.shallow():
                raise CommitMissing(f"commit {sha} is not in {self.path}, a shallow clone: fetch that commit into it "
                                    f"(git -C {self.path} fetch --depth 1 origin {sha}) or use a full mirror") from None
            raise CommitMissing(f"commit {sha} is not in {self.path}") from None
        except (OSError, git.GitCommandError, AssertionError):
            raise self._unavailable(f" (reading commit {sha[:12]})") from None
        finally:
            self._end()
        if commit.hexsha != sha:
            raise CommitMissing(f"{sha} names {commit.hexsha}, not a full commit SHA")
        return commit

    def resolve_revision(self, revision: str) -> str:
        """The full SHA of a commit, branch or tag of this repository."""
        if revision.startswith("-") or not revision.isprintable():
            raise CommitMissing(f"{revision!r} is not a branch, tag or commit name")
        # By git, within the time limit: gitpython would read a ref's file in Python (a FIFO there hangs).
        try:
            found = self.repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}",
                                            kill_after_timeout=self.timeout).strip()
        except git.GitCommandError as error:
            said = re.sub(r"^\s*stderr: '|'\s*$", "", error.stderr or "").strip().splitlines()
            if error.status == 1 and not said:
                raise CommitMissing(f"{revision} names no commit in {self.path}") from None
            raise RepositoryUnavailable(f"{self.path}: git rev-parse failed resolving {revision}: "
                                        f"{said[-1] if said else f'exit status {error.status}'}") from None
        except OSError as error:
            raise RepositoryUnavailable(f"{self.path}: git rev-parse cannot run ({type(error).__name__})") from None
        if not FULL_SHA.fullmatch(found):
            raise CommitMissing(f"{revision} names no commit in {self.path}")
        return found

    def prefetch(self, sha: str, paths: Iterable[str]) -> None:
        """Read the regular files among `paths` at commit `sha` with two git processes, one listing
        them and one batch of their blobs, instead of a tree walk in Python and a round trip per file;
        `read` then answers them from memory. Only a shortcut: a path that is not a regular file at
        `sha`, or any trouble git reports, leaves `read` to walk the tree and say what it finds."""
        # Not again what was read already; ":" would start pathspec magic.
        wanted = {path for path in paths if path and not path.startswith(":") and (sha, path) not in self._listed}
        if not wanted:
            return
        try:
            self.commit(sha)
            listing = self.run("ls_tree", "-z", "--full-tree", "--end-of-options", sha, "--", *sorted(wanted))
        except (CommitMissing, RepositoryUnavailable):
            return
        listed = {}
        for record in filter(None, listing.split("\0")):
            meta, _, path = record.partition("\t")
            mode, kind, blob = meta.split()
            if mode in REGULAR_MODES and kind == "blob" and path in wanted:
                listed[path] = blob
        unread = sorted(set(listed.values()) - self._blobs.keys())
        blobs = self._batch(unread) if unread else {}
        if blobs is None:
            return
        self._blobs.update(blobs)
        self._listed.update({(sha, path): blob for path, blob in listed.items()})

    def _batch(self, shas: list[str]) -> dict[str, bytes] | None:
        """The data of blobs `shas` from one `git cat-file --batch`; None if git says anything amiss."""
        command = [git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git", f"--git-dir={self.repo.git_dir}", "--no-replace-objects",
                   "cat-file", "--batch"]
        try:
            done = subprocess.run(command, input="".join(f"{sha}\n" for sha in shas).encode(), capture_output=True,
                                  timeout=self.timeout, env={**os.environ, **GIT_ENVIRONMENT})
        except subprocess.TimeoutExpired:
            self._timed_out = True  # as when the watch kills a read: every later operation says so
            return None
        except OSError:
            return None
        if done.returncode or any(word in done.stderr.decode("utf-8", "replace") for word in DAMAGE):
            return None
        out, at, blobs = done.stdout, 0, {}
        for sha in shas:
            end = out.find(b"\n", at)
            header = out[at:end].split() if end >= 0 else []
            if len(header) != 3 or header[0] != sha.encode() or header[1] != b"blob" or not header[2].isdigit():
                return None
            size = int(header[2])
            blobs[sha], at = out[end + 1: end + 1 + size], end + 2 + size
            if len(blobs[sha]) != size:
                return None
        return blobs

    def read(self, sha: str, path: str) -> Blob:
        """The blob at `path` in `sha`: prefetched, or found by walking the tree one component at a time."""
        listed = self._listed.get((sha, path))
        if listed is not None:
            return self._regular(sha, path, listed, self._blobs[listed])
        node = self.commit(sha).tree
        self._begin()
        try:
            node = self._walk(sha, path, node)
            data = self._blobs.get(node.hexsha) if node is not None else b""
            if data is None:
                data = self._blobs[node.hexsha] = node.data_stream.read()
        except (ValueError, OSError, BadObject, AssertionError, git.GitCommandError):
            raise self._unavailable(f" (reading {path} at {sha[:12]})") from None
        finally:
            self._end()
        if node is None:
            if self.damage():
                raise self._unavailable(f" (reading {path} at {sha[:12]})")
            raise FileMissing(f"{path} does not exist at {sha[:12]}" + self._moved_hint(sha, path))
        return self._regular(sha, path, node.hexsha, data)

    @staticmethod
    def _regular(sha: str, path: str, blob: str, data: bytes) -> Blob:
        if b"\0" in data[:BINARY_PROBE]:
            raise NotRegularFile(f"{path} is a binary file at {sha[:12]}")
        return Blob(path, blob, data)

    def _walk(self, sha: str, path: str, node):
        """The blob object at `path` below the tree `node`; None when there is none."""
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
                return None
            if node.type == "submodule":
                raise NotRegularFile(f"{here} is a submodule entry at {sha[:12]}, not a file")
            if node.type == "blob" and node.mode & 0o170000 == SYMLINK_MODE:
                raise NotRegularFile(f"{here} is a symbolic link at {sha[:12]}, not a regular file")
        if node.type == "tree":
            raise NotRegularFile(f"{path} is a directory at {sha[:12]}, not a file")
        return node

    @lru_cache(maxsize=None)
    def entries(self, sha: str) -> tuple[TreeEntry, ...]:
        """Every path in the commit's tree, directories included."""
        self.commit(sha)
        listing = self.run("ls_tree", "-r", "-t", "-z", "--full-tree", "--end-of-options", sha)
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

    def files_mentioning(self, sha: str, word: str, limit: int = 5, together: tuple[str, ...] = ()) -> list[str]:
        """Files at `sha` where `word` occurs as a whole word, and each of `together` too (used to say
        where a symbol went)."""
        patterns = [argument for name in (word, *together) for argument in ("-e", name)]
        try:  # -z: names as they are (a quote or newline in one is not escaped); -I: no binary files
            out = self.run("grep", "-l", "-z", "-I", "-w", "-F", "--all-match", *patterns, require_sha(sha), "--")
        except RepositoryUnavailable:  # no match is exit status 1; a hint is never worth a failure
            return []
        return [name.split(":", 1)[1] for name in out.split("\0")[:limit] if ":" in name]

    def _moved_hint(self, sha: str, path: str) -> str:
        name = path.rsplit("/", 1)[-1]
        same_name = [e.path for e in self.entries(sha) if e.kind == "file" and e.path.rsplit("/", 1)[-1] == name]
        return f" (a file of that name is at {', '.join(same_name[:5])})" if same_name else ""
