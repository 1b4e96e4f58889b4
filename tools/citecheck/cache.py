"""What citecheck resolved before, so that a run with nothing changed touches no repository.

Everything cached is a function of immutable inputs: a commit's path names one blob forever; a cite's
lines follow from the blob, its path (the language) and the query; a count follows from the commit
and the query. The resolver's own source code and parser versions are part of the key (`RESOLVER`):
change the resolver and every entry is recomputed. Failures are never cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from enginekb.regularfile import NotRegularFileError, read_regular
from enginekb.store import cache_home

from .lock import KINDS, valid_count, valid_lines

CACHE_NAME = "resolved.json"
SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?\Z")  # SHA-1, or SHA-256 in a repository that uses it
# The modules whose code decides what a cite or count resolves to.
_RESOLVER_MODULES = ("resolve.py", "cfamily.py", "pysource.py", "textsearch.py", "parsed.py", "counts.py")
_PARSERS = ("tree-sitter", "tree-sitter-c", "tree-sitter-cpp", "tree-sitter-python")


def resolver_fingerprint() -> str:
    from importlib import metadata  # a tenth of the imports of a warm run that loads no cache

    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in _RESOLVER_MODULES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    for package in _PARSERS:
        try:
            digest.update(f"{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(package.encode())
    return digest.hexdigest()[:16]


def default_cache_dir() -> Path | None:
    """$CITECHECK_CACHE (`off`: no cache), else the citecheck folder of the project's cache."""
    if os.environ.get("CITECHECK_CACHE") == "off":
        return None
    return Path(os.environ["CITECHECK_CACHE"]) if os.environ.get("CITECHECK_CACHE") else cache_home() / "citecheck"


@dataclass
class ResolveCache:
    resolver: str
    blobs: dict[str, str] = field(default_factory=dict)  # "commit:path" -> blob sha
    cites: dict[str, list] = field(default_factory=dict)  # cite key -> [first line, last line, kind]
    counts: dict[str, int] = field(default_factory=dict)  # "commit:query" -> value
    dropped: bool = False  # malformed entries were left out when it was read: the next save rewrites it

    @staticmethod
    def blob_key(commit: str, path: str) -> str:
        return f"{commit}:{path}"

    @staticmethod
    @lru_cache(maxsize=None)  # asked twice per cite in a run: whether all is cached, then for the answer
    def cite_key(blob: str, path: str, target_kind: str, target: str, contains: str | None) -> str:
        return json.dumps([blob, path, target_kind, target, contains or ""], ensure_ascii=False)

    @staticmethod
    def count_key(commit: str, query: str) -> str:
        return f"{commit}:{query}"

    def merge(self, other: ResolveCache) -> None:
        self.blobs.update(other.blobs)
        self.cites.update(other.cites)
        self.counts.update(other.counts)

    def new_entries(self, before: ResolveCache) -> ResolveCache:
        """What this cache holds that `before` did not: what a worker sends back."""
        return ResolveCache(
            self.resolver,
            {k: v for k, v in self.blobs.items() if k not in before.blobs},
            {k: v for k, v in self.cites.items() if k not in before.cites},
            {k: v for k, v in self.counts.items() if k not in before.counts},
        )


def load_cache(directory: Path | None, checked: bool = True) -> ResolveCache:
    """The cache for the current resolver; an absent, unreadable or older cache is an empty one.

    Each entry is checked for shape and range as it is read: one that is not what the resolver could
    have written is dropped with a warning (a miss: resolved again, and the next save rewrites it).
    The confirming process (confirm.py) reads it unchecked (`checked` false): it only compares an
    entry with the lock entry it confirms, which is checked, and answers nothing from the cache alone.
    """
    resolver = resolver_fingerprint()
    if directory is None:
        return ResolveCache(resolver)
    try:
        data = json.loads(read_regular(directory / CACHE_NAME).decode("utf-8"))
    except NotRegularFileError as error:
        print(f"citecheck: warning: {error.strerror}; the cache is not used", file=sys.stderr)
        return ResolveCache(resolver)
    except (OSError, ValueError):
        return ResolveCache(resolver)  # absent or unreadable: a cache is only ever an optimisation
    if not isinstance(data, dict) or data.get("resolver") != resolver:
        return ResolveCache(resolver)
    names = ("blobs", "cites", "counts")
    malformed = [name for name in names if not isinstance(data.get(name), dict)]
    sections = [{} if name in malformed else data[name] for name in names]
    if not checked:
        return ResolveCache(resolver, *sections)
    blobs, cites, counts = ({key: value for key, value in section.items() if check(key, value)}
                            for section, check in zip(sections, (_blob_entry, _cite_entry, _count_entry)))
    dropped = sum(map(len, sections)) - len(blobs) - len(cites) - len(counts)
    if dropped or malformed:
        what = f"{dropped} malformed entries" if dropped else f"malformed {', '.join(malformed)}"
        print(f"citecheck: warning: {directory / CACHE_NAME}: {what} ignored; resolved again and rewritten",
              file=sys.stderr)
    return ResolveCache(resolver, blobs, cites, counts, dropped=bool(dropped or malformed))


def _blob_entry(key: object, value: object) -> bool:
    commit, _, path = key.partition(":") if isinstance(key, str) else ("", "", "")
    return bool(SHA.match(commit) and path and isinstance(value, str) and SHA.match(value))


def _cite_entry(key: object, value: object) -> bool:
    try:
        parts = json.loads(key) if isinstance(key, str) else None
    except ValueError:
        return False
    return (isinstance(parts, list) and len(parts) == 5 and all(isinstance(part, str) for part in parts)
            and bool(SHA.match(parts[0])) and isinstance(value, list) and len(value) == 3
            and valid_lines(value[:2]) and value[2] in KINDS)


def _count_entry(key: object, value: object) -> bool:
    return isinstance(key, str) and bool(SHA.match(key.partition(":")[0])) and valid_count(value)


def save_cache(directory: Path | None, cache: ResolveCache) -> None:
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".resolved-", suffix=".json", dir=directory)
        with os.fdopen(handle, "w", encoding="utf-8") as out:  # dumps, not dump: only dumps encodes in C
            out.write(json.dumps({"resolver": cache.resolver, "blobs": cache.blobs, "cites": cache.cites,
                                  "counts": cache.counts}, ensure_ascii=False, separators=(",", ":")))
        os.replace(temporary, directory / CACHE_NAME)
    except OSError:
        pass  # a read-only home or a full disk only costs speed
