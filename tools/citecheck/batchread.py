"""The regular files a lock names, read by plain git: what the confirming process (confirm.py) tests.

Three git processes a repository (one `cat-file --batch-check` of the commits, an `ls-tree` per
commit, one `cat-file --batch` of the blobs) instead of a `GitStore`, which loads gitpython and
keeps two git processes per repository: the confirmation is a shortcut, so it needs no more than
this. It is as strict as `GitStore.read` about what it gives: a commit only if git says the name is
a commit, a path only if the commit's tree lists it as a regular file (not a link, a submodule or a
directory), a blob only if it is not binary; replace objects off, every process within the time
limit. Anything else amiss (not a repository, a complaint from git, a time limit) gives None: then
nothing of that repository is confirmed, and the checks resolve its cites as usual and say what
they find.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from .gitdir import (BINARY_PROBE, DAMAGE, FULL_SHA, GIT_ENVIRONMENT, READ_TIMEOUT, REGULAR_MODES, Blob,
                     checked_git_dir, git_timeout)


class _Amiss(Exception):
    """Git did not answer as a sound repository does."""


def read_regular_files(path: Path, files: dict[str, set[str]], commits: set[str] = frozenset()
                       ) -> tuple[set[str], dict[tuple[str, str], Blob]] | None:
    """The commits among `commits` and `files` (commit -> paths) that the repository at `path` holds,
    and the regular text files of `files` there, by (commit, path); None when git is not sound."""
    try:
        git_dir = checked_git_dir(path)  # the files git reads first: a FIFO there would hang it until the time limit
        wanted = sorted(commit for commit in set(files) | set(commits) if FULL_SHA.fullmatch(commit))
        held = _commits(git_dir, wanted)
        listed: dict[tuple[str, str], str] = {}
        for commit in sorted(held & files.keys()):
            paths = sorted(p for p in files[commit] if p and not p.startswith(":"))  # ":" starts pathspec magic
            if paths:
                listed.update(_regular_paths(git_dir, commit, paths))
        data = _blobs(git_dir, sorted(set(listed.values())))
    except (_Amiss, OSError, subprocess.SubprocessError):
        return None
    return held, {(commit, name): Blob(name, sha, data[sha]) for (commit, name), sha in listed.items()
                  if b"\0" not in data[sha][:BINARY_PROBE]}


def _git(git_dir: Path, *arguments: str, given: bytes = b"") -> bytes:
    executable = os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or "git"  # the git GitStore runs
    # Its output (tens of megabytes of blobs) goes to an unnamed temporary file, not a pipe: read at
    # once, it costs both processes a fifth less time than 64 KB at a time through a pipe.
    with tempfile.TemporaryFile() as output:
        done = subprocess.run([executable, f"--git-dir={git_dir}", "--no-replace-objects", *arguments], input=given,
                              stdout=output, stderr=subprocess.PIPE, timeout=git_timeout(READ_TIMEOUT),
                              env={**os.environ, **GIT_ENVIRONMENT})
        if done.returncode or any(word in done.stderr.decode("utf-8", "replace") for word in DAMAGE):
            raise _Amiss()
        output.seek(0)
        return output.read()


def _commits(git_dir: Path, shas: list[str]) -> set[str]:
    """Those of `shas` that name commits (a tag or a tree is not one; a missing object is not held)."""
    if not shas:
        return set()
    lines = _git(git_dir, "cat-file", "--batch-check", given="".join(f"{sha}\n" for sha in shas).encode()).splitlines()
    if len(lines) != len(shas):
        raise _Amiss()
    return {sha for sha, line in zip(shas, lines) if line.split()[:2] == [sha.encode(), b"commit"]}


def _regular_paths(git_dir: Path, commit: str, paths: list[str]) -> dict[tuple[str, str], str]:
    listing = _git(git_dir, "ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--", *paths)
    found, wanted = {}, set(paths)
    for record in filter(None, listing.decode("utf-8", "surrogateescape").split("\0")):
        meta, _, name = record.partition("\t")
        mode, kind, blob = meta.split()
        if mode in REGULAR_MODES and kind == "blob" and name in wanted:
            found[(commit, name)] = blob
    return found


def _blobs(git_dir: Path, shas: list[str]) -> dict[str, bytes]:
    if not shas:
        return {}
    out, at, blobs = _git(git_dir, "cat-file", "--batch", given="".join(f"{sha}\n" for sha in shas).encode()), 0, {}
    for sha in shas:
        end = out.find(b"\n", at)
        header = out[at:end].split() if end >= 0 else []
        if len(header) != 3 or header[0] != sha.encode() or header[1] != b"blob" or not header[2].isdigit():
            raise _Amiss()
        size = int(header[2])
        blobs[sha], at = out[end + 1: end + 1 + size], end + 2 + size
        if len(blobs[sha]) != size:
            raise _Amiss()
    return blobs
