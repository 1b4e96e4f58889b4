"""A store of parsed records by content, so that loading unchanged files parses nothing.

Keyed by a hash of each file's text and of the code that reads it (the YAML reader), so an edited
file or a changed reader is read afresh. It keeps only the files of the last load, so it never grows
past the tree. It is an optimisation only: a missing, unreadable or foreign store is an empty one, a
store that cannot be written is skipped, and every entry is checked for shape when read (a malformed
one is a miss, parsed again and rewritten, with a warning). It holds no verdict: whether a file's
records are valid is decided on every load (a verdict read back from a file would be trusted blindly).
An entry of the right shape may still be forged under an unchanged file's digest: where a result is
written from the records (citecheck's lock), `disagreeing` parses the files again and compares.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from .regularfile import NotRegularFileError, read_regular

STORE_NAME = "records.marshal"
# The store's own code is part of the key too: a store written under other rules is not read.
_READER = hashlib.sha256((Path(__file__).parent / "yamlfile.py").read_bytes()
                         + Path(__file__).read_bytes()).hexdigest()[:16]


def digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def cache_home() -> Path:
    """The project's cache folder, $XDG_CACHE_HOME/enginekb: the record store, citecheck's cache and
    fetched repositories all live below it."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "enginekb"


def default_directory() -> Path | None:
    if os.environ.get("ENGINEKB_CACHE") == "off":
        return None
    return Path(os.environ["ENGINEKB_CACHE"]) if os.environ.get("ENGINEKB_CACHE") else cache_home()


class RecordStore:
    def __init__(self, directory: Path | None):
        self.directory = directory
        # text digest -> the marshal of (data, lines), decoded and checked for shape when a load first
        # asks for it: a command that reads some of the files pays for decoding and checking only those.
        self.parsed: dict = {}
        self.used_parsed: dict[str, tuple] = {}
        self.hits: dict[str, tuple[Path, str]] = {}  # digest -> (path, text) of each file answered from the store
        self.malformed = 0
        self.partial = False  # set by `save`: a load of some of the files keeps the other files' entries
        if directory is not None:
            try:
                stored = marshal.loads(read_regular(directory / STORE_NAME))
            except NotRegularFileError as error:
                print(f"enginekb: warning: {error.strerror}; the record store is not used", file=sys.stderr)
                return
            except (OSError, ValueError, EOFError, TypeError):
                return
            if isinstance(stored, dict) and stored.get("reader") == _READER and isinstance(stored.get("parsed"), dict):
                self.parsed = stored["parsed"]

    def get(self, key: str, path: Path, text: str) -> tuple | None:
        """The stored parse of `text` (of the file `path`), whose digest is `key`; None for a miss or a
        malformed entry (dropped: the file is parsed again)."""
        stored = self.parsed.get(key)
        if stored is None:
            return None
        try:
            hit = marshal.loads(stored)
        except (ValueError, EOFError, TypeError):
            hit = None
        if not _entry(key, hit):
            del self.parsed[key]
            self.malformed += 1
            return None
        self.used_parsed[key] = hit
        self.hits[key] = (path, text)
        return hit

    def disagreeing(self, parse: Callable[[str, Path], object]) -> list[Path]:
        """The files whose stored entry, used by this load, is not what `parse` makes of their text now
        (an entry forged or stale under the digest of unchanged text); their entries are dropped from
        the store. Dear (every used file is parsed again): asked only where a result is written."""
        wrong = []
        for key, (path, text) in self.hits.items():
            located = parse(text, path)
            if repr((located.data, located.lines)) != repr(self.used_parsed[key]):  # repr: 1 is not True
                wrong.append(path)
                del self.used_parsed[key]
                self.parsed.pop(key, None)
        if wrong:
            self._write()
        return wrong

    def put(self, key: str, data, lines: dict) -> None:
        self.used_parsed[key] = (data, lines)

    def save(self, partial: bool = False) -> None:
        """Written when it changed: after a load of every file it holds just their entries (so it never
        grows past the tree); after a `partial` load (some kinds of file) it keeps the others' too."""
        self.partial = partial
        if self.malformed:
            print(f"enginekb: warning: {self.directory / STORE_NAME}: {self.malformed} malformed entries ignored; "
                  "their files are parsed again", file=sys.stderr)
        kept = self.parsed.keys() | self.used_parsed.keys() if partial else self.used_parsed.keys()
        if self.malformed or kept != self.parsed.keys():
            self._write()

    def _kept(self) -> dict:
        used = {key: marshal.dumps(entry) for key, entry in self.used_parsed.items()}
        return {**self.parsed, **used} if self.partial else used

    def _write(self) -> None:
        if self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".records-", dir=self.directory)
            with os.fdopen(handle, "wb") as out:
                marshal.dump({"reader": _READER, "parsed": self._kept()}, out)
            os.replace(temporary, self.directory / STORE_NAME)
        except (OSError, ValueError):
            pass


def _entry(key: object, entry: object) -> bool:
    """(data, lines) as the YAML reader makes them: plain data, and a positive line for each location."""
    if not (isinstance(key, str) and len(key) == 40 and isinstance(entry, tuple) and len(entry) == 2
            and isinstance(entry[1], dict) and _plain(entry[0])):
        return False
    lines = entry[1]  # by type sets and min: a store holds a line for every value, checked at C speed
    return not lines or (set(map(type, lines)) == {tuple} and set(map(type, lines.values())) == {int}
                         and min(lines.values()) > 0)


_SCALARS = frozenset((str, int, float, bool, type(None)))
_KEYS = frozenset((str, int))
_MAX_DEPTH = 64


def _plain(value: object) -> bool:
    """Plain data as the YAML reader makes it: lists, mappings with string or integer keys, and scalars,
    by exact type (marshal makes no subclasses), walked a level at a time. Each list or mapping appears
    once: a parse never shares one, while a marshal stream can (a list inside itself, or one list named
    a million times), and nothing deeper than the reader allows plus a margin."""
    level: list = [value]
    containers: set[int] = set()
    for _ in range(_MAX_DEPTH + 1):
        below: list = []
        for item in level:
            kind = type(item)
            if kind is dict:
                if not _KEYS.issuperset(map(type, item)):
                    return False
                below.extend(item.values())
            elif kind is list:
                below.extend(item)
            elif kind in _SCALARS:
                continue
            else:
                return False
            if id(item) in containers:
                return False
            containers.add(id(item))
        if not below:
            return True
        level = below
    return False
