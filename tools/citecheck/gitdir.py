"""What every reader of a mirror shares: its git directory, checked before anything reads it; the
bounds put on git (a deadline, replace objects off, the words of a damaged repository); and what a
read gives (a blob, a full SHA, the modes of a regular file). GitStore (gitstore.py) reads through
gitpython; the confirming process (batchread.py) through plain git.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from enginekb.regularfile import read_regular, require_regular

from .errors import CommitMissing

BINARY_PROBE = 8000  # git's own heuristic: a NUL byte in the first 8000 bytes means binary
TIMEOUT_VARIABLE = "CITECHECK_GIT_TIMEOUT"
# How git's stderr tells a damaged repository from an absent object (which it answers on stdout).
DAMAGE = ("error:", "fatal:")
# Read in Python by gitpython, or (shallow) before git's own deadline could say what went wrong.
GITPYTHON_READS = ("HEAD", "config", "packed-refs", "commondir", "objects/info/alternates", "shallow")
GIT_ENVIRONMENT = {"GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0"}
REGULAR_MODES = ("100644", "100755")  # what ls-tree writes for a regular file (not a link, not a submodule)


def git_timeout(default: float) -> float:
    """Seconds one git operation may take: $CITECHECK_GIT_TIMEOUT (a positive number), else `default`."""
    try:
        seconds = float(os.environ[TIMEOUT_VARIABLE])
    except (KeyError, ValueError):
        return default
    return seconds if 0 < seconds < float("inf") else default


READ_TIMEOUT = 120.0  # a local read of one object or listing
FULL_SHA = re.compile(r"[0-9a-f]{40}")


def require_sha(sha: str) -> str:
    """`sha` itself if it is a full commit SHA; a value git could read as an option never reaches it."""
    if not isinstance(sha, str) or not FULL_SHA.fullmatch(sha):
        raise CommitMissing(f"{sha!r} is not a full commit SHA (40 hexadecimal digits)")
    return sha


@dataclass(frozen=True)
class Blob:
    path: str
    sha: str
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def _metadata_dirs(path: Path) -> list[Path]:
    """The directories whose files gitpython reads in Python: the git directory (`.git`, the directory
    a `.git` file names with `gitdir:`, or `path` itself when bare) and the common directory a
    worktree's `commondir` names. `.git` and those pointer files must be regular files too."""
    dotgit = path / ".git"
    try:
        found = os.stat(dotgit).st_mode
    except FileNotFoundError:
        git_dir = path
    except OSError:
        return [path]  # said by gitpython when it opens the repository
    else:
        if stat.S_ISDIR(found):
            git_dir = dotgit
        else:
            pointer = read_regular(dotgit, 4096).decode("utf-8", "replace")  # a FIFO is refused here
            git_dir = path / pointer[len("gitdir:"):].strip() if pointer.startswith("gitdir:") else path
    dirs = [git_dir]
    try:
        common = read_regular(git_dir / "commondir", 4096).decode("utf-8", "replace").strip()
    except (FileNotFoundError, NotADirectoryError):
        common = ""
    if common:
        dirs.append(git_dir / common)
    return dirs


def checked_git_dir(path: Path) -> Path:
    """The git directory of the repository at `path`, once every file read in Python (or by git before
    its deadline) there and in its common directory is shown to be a regular file: a FIFO would hang
    the reader. OSError when one is not."""
    dirs = _metadata_dirs(path)
    for git_dir in dirs:
        for name in GITPYTHON_READS:
            require_regular(git_dir / name)
    return dirs[0]
