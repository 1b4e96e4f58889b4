"""claims/citecheck.lock: what the last full check resolved, so that CI can check offline.

Stable, sorted JSON, replaced atomically: a failed or interrupted run leaves the old lock intact.
Writers take an exclusive file lock on a guard file beside it and re-read the lock under it, so two
runs that check different engines at once both keep their entries.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from enginekb.model import Cite, Count

LOCK_NAME = "citecheck.lock"
FORMAT_VERSION = 1


class LockError(Exception):
    pass


def cite_key(engine: str, cite: Cite) -> tuple:
    return (engine, cite.commit, cite.file, cite.target_kind, cite.target, cite.contains or "")


def count_key(engine: str, commit: str, count: Count) -> tuple:
    return (engine, commit, count.query)


@dataclass
class Lock:
    cites: dict[tuple, dict] = field(default_factory=dict)
    counts: dict[tuple, dict] = field(default_factory=dict)


def cite_entry(engine: str, cite: Cite, blob: str, lines: tuple[int, int], kind: str) -> dict:
    entry = {"engine": engine, "commit": cite.commit, "file": cite.file, cite.target_kind: cite.target}
    if cite.contains:
        entry["contains"] = cite.contains
    entry.update(blob=blob, lines=list(lines), kind=kind)
    return entry


def count_entry(engine: str, commit: str, count: Count, value: int) -> dict:
    return {"engine": engine, "commit": commit, "query": count.how, "value": value}


def _cite_entry_key(entry: dict) -> tuple:
    kind = "symbol" if "symbol" in entry else "phrase"
    return (entry["engine"], entry["commit"], entry["file"], kind, entry[kind], entry.get("contains", ""))


def _count_entry_key(entry: dict) -> tuple:
    return (entry["engine"], entry["commit"], json.dumps(entry["query"], sort_keys=True, separators=(",", ":")))


def read_lock(path: Path) -> Lock:
    if not path.exists():
        return Lock()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != FORMAT_VERSION:
            raise LockError(f"{path}: lock format version {data.get('version')!r}, expected {FORMAT_VERSION}")
        return Lock(
            {_cite_entry_key(e): e for e in data["cites"]},
            {_count_entry_key(e): e for e in data["counts"]},
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise LockError(f"{path}: not a citecheck lock ({type(error).__name__}: {error})") from None


def write_lock(path: Path, lock: Lock) -> None:
    data = {
        "version": FORMAT_VERSION,
        "cites": [lock.cites[key] for key in sorted(lock.cites)],
        "counts": [lock.counts[key] for key in sorted(lock.counts)],
    }
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=".citecheck-", suffix=".lock", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp creates 0600; the lock is an ordinary file
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


@contextmanager
def _guarded(path: Path):
    """Hold an exclusive lock on `.citecheck.lock.guard` beside the lock (the lock itself is replaced)."""
    with open(path.parent / f".{path.name}.guard", "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(guard, fcntl.LOCK_UN)


def update_lock(path: Path, change: Callable[[Lock], Lock]) -> None:
    """Read the lock as it is now, apply `change`, write the result: serialised across processes."""
    with _guarded(path):
        write_lock(path, change(read_lock(path)))
