"""A store of parsed records by content, so that loading unchanged files parses and validates nothing.

Keyed by a hash of each file's text and of the code that reads it (the YAML reader and the schema
text), so an edited file, an edited schema or a changed reader is read afresh. It keeps only the
files of the last load, so it never grows past the tree. It is an optimisation only: a missing,
unreadable or foreign store is an empty one, and a store that cannot be written is skipped.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from pathlib import Path

STORE_NAME = "records.marshal"
_READER = hashlib.sha256((Path(__file__).parent / "yamlfile.py").read_bytes()).hexdigest()[:16]


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
        self.parsed: dict[str, tuple] = {}  # text digest -> (data, lines)
        self.valid: set[str] = set()  # "text digest:schema digest" of files the schema accepted
        self.used_parsed: dict[str, tuple] = {}
        self.used_valid: set[str] = set()
        if directory is not None:
            try:
                stored = marshal.loads((directory / STORE_NAME).read_bytes())
                if stored.get("reader") == _READER:
                    self.parsed, self.valid = stored["parsed"], set(stored["valid"])
            except (OSError, ValueError, EOFError, TypeError, KeyError, AttributeError):
                pass

    def get(self, key: str) -> tuple | None:
        hit = self.parsed.get(key)
        if hit is not None:
            self.used_parsed[key] = hit
        return hit

    def put(self, key: str, data, lines: dict) -> None:
        self.used_parsed[key] = (data, lines)

    def is_valid(self, key: str, schema: str) -> bool:
        found = f"{key}:{schema}" in self.valid
        if found:
            self.used_valid.add(f"{key}:{schema}")
        return found

    def mark_valid(self, key: str, schema: str) -> None:
        self.used_valid.add(f"{key}:{schema}")

    def save(self) -> None:
        if self.directory is None or (self.used_parsed.keys() == self.parsed.keys() and self.used_valid == self.valid):
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".records-", dir=self.directory)
            with os.fdopen(handle, "wb") as out:
                marshal.dump({"reader": _READER, "parsed": self.used_parsed, "valid": sorted(self.used_valid)}, out)
            os.replace(temporary, self.directory / STORE_NAME)
        except (OSError, ValueError):
            pass
