"""Opening a file the tools read or write as a regular file, without blocking.

A FIFO, a device or a socket put where a lock, a cache or a record file belongs would make open() or
read() wait for ever; opened with O_NONBLOCK and checked with fstat, it is an error naming the path.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegularFileError(OSError):
    """The path is a FIFO, device, socket or directory (an OSError, so callers' handlers report it)."""

    def __init__(self, path: Path, mode: int):
        what = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        super().__init__(errno.EINVAL, f"{path} is {what}, not a regular file", str(path))


def open_regular(path: Path, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
    """A descriptor of `path` opened with `flags`, never blocking, refused unless a regular file."""
    descriptor = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    found = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(found):
        os.close(descriptor)
        raise NotRegularFileError(path, found)
    os.set_blocking(descriptor, True)
    return descriptor


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most `limit` + 1 of them, so that a caller can tell it is too long)."""
    with os.fdopen(open_regular(path), "rb") as handle:
        return handle.read(-1 if limit is None else limit + 1)


def require_regular(path: Path) -> None:
    """Refuse `path` if it exists and is not a regular file (for files another library opens)."""
    try:
        found = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(found):
        raise NotRegularFileError(path, found)
