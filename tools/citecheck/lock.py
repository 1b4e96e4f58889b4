"""claims/citecheck.lock: what the last full check resolved, so that CI can check offline.

Stable, sorted JSON, replaced atomically: a failed or interrupted run leaves the old lock intact.
Writers take an exclusive file lock on a guard file beside it and re-read the lock under it, so two
runs that check different engines at once both keep their entries.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import tempfile
import unicodedata
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from enginekb.model import Claim, Cite, Count
from enginekb.regularfile import open_regular, read_regular
from enginekb.yamlfile import VALUE_CONTROL

from .gitdir import FULL_SHA

LOCK_NAME = "citecheck.lock"
FORMAT_VERSION = 1
TEMP_PREFIX = ".citecheck-"


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
    raw: bytes | None = field(default=None, compare=False, repr=False)  # the text it was parsed from


def cite_entry(engine: str, cite: Cite, blob: str, lines: tuple[int, int], kind: str) -> dict:
    """`engine` owns the claim; a cite in another engine's repository (a context claim's) says which."""
    entry = {"engine": engine, "commit": cite.commit, "file": cite.file, cite.target_kind: cite.target}
    if cite.repo and cite.repo != engine:
        entry["repo"] = cite.repo
    if cite.contains:
        entry["contains"] = cite.contains
    entry.update(blob=blob, lines=list(lines), kind=kind)
    return entry


def entry_matches(entry: dict, claim: Claim, cite: Cite) -> bool:
    """Whether a lock entry is the one citecheck would write for this cite: the same fields, nothing
    added, a blob SHA, and a kind of the cite's sort (a phrase is found as a phrase, a symbol never)."""
    expected = cite_entry(claim.engine, cite, entry["blob"], tuple(entry["lines"]), entry["kind"])
    return (entry == expected and FULL_SHA.fullmatch(entry["blob"]) is not None
            and (entry["kind"] == "phrase") == (cite.phrase is not None))


def entry_repository(entry: dict) -> str:
    """The engine whose repository a lock entry was resolved in."""
    return entry.get("repo", entry["engine"])


def count_entry(engine: str, commit: str, count: Count, value: int) -> dict:
    return {"engine": engine, "commit": commit, "query": count.how, "value": value}


def _cite_entry_key(entry: dict) -> tuple:
    kind = "symbol" if "symbol" in entry else "phrase"
    return (entry["engine"], entry["commit"], entry["file"], kind, entry[kind], entry.get("contains", ""))


def _count_entry_key(entry: dict) -> tuple:
    return (entry["engine"], entry["commit"], json.dumps(entry["query"], sort_keys=True, separators=(",", ":")))


def read_lock(path: Path, known: Lock | None = None, checked: bool = True) -> Lock:
    """The lock in `path`; `known` itself when it was parsed from the very bytes the file holds now.
    `checked`: see parse_lock."""
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        return Lock()
    except OSError as error:
        raise LockError(f"{path}: cannot be read ({error.strerror})") from None
    if known is not None and known.raw == raw:
        return known
    return parse_lock(raw, path, checked)


def parse_lock(raw: bytes, path: Path | str, checked: bool = True) -> Lock:
    """The lock whose text is `raw` (from a file or a git revision, named `path` in errors). Unless
    `checked` is false, every entry is checked: the confirming process (confirm.py) skips that, since
    its answer counts only for a lock this process parsed, checked, from the same bytes (a malformed
    entry may then raise anything, and the child confirms nothing)."""
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except ValueError as error:
        raise LockError(f"{path}: not a citecheck lock: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        version = data.get("version") if isinstance(data, dict) else None
        raise LockError(f"{path}: lock format version {version!r}, expected {FORMAT_VERSION}")
    cites, counts = data.get("cites"), data.get("counts")
    if not isinstance(cites, list) or not isinstance(counts, list):
        raise LockError(f"{path}: a lock holds lists `cites` and `counts`")
    # Only an escape (\\u001b, \\b, \\r), DEL or a character past ASCII can spell a control or format
    # character (json.loads refuses the others raw): a lock with no escape and no unsafe character in
    # its whole text skips the search of every value (the set of characters past ASCII is small).
    if checked:
        plain = not _escapes(text) and not _unsafe_text("".join(set(BEYOND_ASCII.findall(text))))
        for index, entry in enumerate(cites):
            _check_entry(path, "cites", index, entry, CITE_FIELDS, plain)
        for index, entry in enumerate(counts):
            _check_entry(path, "counts", index, entry, COUNT_FIELDS, plain)
    return Lock({_cite_entry_key(e): e for e in cites}, {_count_entry_key(e): e for e in counts}, raw)


CITE_FIELDS = {"engine": str, "commit": str, "file": str, "blob": str, "lines": list, "kind": str}
COUNT_FIELDS = {"engine": str, "commit": str, "query": dict, "value": int}
BACKSLASHES_BEFORE_ESCAPE_LETTER = re.compile(r'\\+[bfru]')  # always a whole run of backslashes (see _escapes)
BEYOND_ASCII = re.compile(r'[^\x00-\x7e]')  # DEL (7f) too: JSON lets it stand raw
KINDS = ("definition", "declaration", "mention", "phrase")  # what the resolver finds a cite to be


def valid_lines(lines: object) -> bool:
    """Two line numbers, first to last: what a cite resolves to."""
    return (isinstance(lines, (list, tuple)) and len(lines) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in lines) and lines[0] <= lines[1])


def valid_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_entry(path: Path | str, section: str, index: int, entry: object, fields: dict[str, type],
                 plain: bool = False) -> None:
    """An entry the site and `claims show` can use as it is, or a LockError naming it."""
    where = f"{path}: {section}[{index}]"
    if not isinstance(entry, dict):
        raise LockError(f"{where}: not an object")
    wrong = [name for name, kind in fields.items() if not isinstance(entry.get(name), kind)]
    if section == "cites" and not (isinstance(entry.get("symbol"), str) or isinstance(entry.get("phrase"), str)):
        wrong.append("symbol or phrase")
    if section == "cites" and "lines" not in wrong and not valid_lines(entry["lines"]):
        wrong.append("lines (two line numbers, first to last)")
    if section == "cites" and "kind" not in wrong and entry["kind"] not in KINDS:
        wrong.append(f"kind (one of {', '.join(KINDS)})")
    if section == "counts" and "value" not in wrong and not valid_count(entry["value"]):
        wrong.append("value (a count, 0 or more)")
    if not wrong and not plain and _unsafe_text(entry):
        wrong.append("text (a control, invisible or bidirectional character in a value)")
    if wrong:
        raise LockError(f"{where}: missing or malformed {', '.join(wrong)}; rewrite the lock: run citecheck against every engine's repository")


def _escapes(text: str) -> bool:
    """Whether JSON text spells an escape \\b, \\f, \\r or \\uXXXX: a run of backslashes before the letter
    whose last one is not itself escaped (an odd run; `\\\\b` is a backslash and a b). A match starts at
    a run's first backslash, since a run that fails there fails from every later start."""
    return any(len(match.group()) % 2 == 0 for match in BACKSLASHES_BEFORE_ESCAPE_LETTER.finditer(text))


def _unsafe_text(value: object) -> bool:
    """A string in the entry the records could never hold (YAML refuses them there): a control character
    (an escape such as \\u001b would reach the terminal in a message) or a format character."""
    if isinstance(value, str):
        return bool(VALUE_CONTROL.search(value)) or (not value.isascii() and any(
            unicodedata.category(character) == "Cf" for character in value))
    if isinstance(value, dict):
        return any(_unsafe_text(key) or _unsafe_text(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_unsafe_text(item) for item in value)
    return False


def write_lock(path: Path, lock: Lock) -> None:
    """The lock, atomically; LockError, before anything is written, for an entry `read_lock` would refuse."""
    for section, entries, fields in (("cites", lock.cites, CITE_FIELDS), ("counts", lock.counts, COUNT_FIELDS)):
        for index, key in enumerate(sorted(entries)):
            _check_entry(path, section, index, entries[key], fields)
    data = {
        "version": FORMAT_VERSION,
        "cites": [lock.cites[key] for key in sorted(lock.cites)],
        "counts": [lock.counts[key] for key in sorted(lock.counts)],
    }
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".lock", dir=path.parent)
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
    guard_path = path.parent / f".{path.name}.guard"
    try:
        descriptor = open_regular(guard_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    except OSError as error:
        raise LockError(f"{guard_path}: the lock's guard cannot be opened ({error.strerror})") from None
    with os.fdopen(descriptor, "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(guard, fcntl.LOCK_UN)


def update_lock(path: Path, change: Callable[[Lock], Lock], replace_malformed: bool = False,
                known: Lock | None = None, before_write: Callable[[], None] | None = None) -> bool:
    """Read the lock as it is now, apply `change`, write the result: serialised across processes.
    With `replace_malformed` (a run that rewrites every engine's entries), a lock that does not read
    is taken as empty; otherwise its LockError stands. True when the lock was written: a result
    equal, entry for entry, to the lock just read (and validated) leaves the file as it is. A lock
    `known` from an earlier read is not parsed again if the file still holds the same bytes.
    `before_write` is called (under the guard) only when the lock is about to be written; an
    exception from it leaves the lock as it is.

    A writer killed outright leaves its temporary file; holding the guard, no other writer is live,
    so leftovers are removed here. SIGTERM during the write is turned into an exception, which
    removes the temporary file of this run.
    """
    with _guarded(path), _terminate_as_exception():
        for leftover in path.parent.glob(f"{TEMP_PREFIX}*.lock"):
            leftover.unlink(missing_ok=True)
        try:
            current = read_lock(path, known)
        except LockError:
            if not replace_malformed:
                raise
            current = None
        result = change(current or Lock())
        # `current` passed read_lock's checks, so an equal result is already on disk as valid JSON.
        if current is not None and os.path.lexists(path) and (result.cites, result.counts) == (current.cites, current.counts):
            return False
        if before_write is not None:
            before_write()
        write_lock(path, result)
        return True


@contextmanager
def _terminate_as_exception():
    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
