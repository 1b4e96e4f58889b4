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
import tempfile
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from enginekb.store import cache_home

CACHE_NAME = "resolved.json"
# The modules whose code decides what a cite or count resolves to.
_RESOLVER_MODULES = ("resolve.py", "cfamily.py", "pysource.py", "textsearch.py", "parsed.py", "counts.py")
_PARSERS = ("tree-sitter", "tree-sitter-c", "tree-sitter-cpp", "tree-sitter-python")


def resolver_fingerprint() -> str:
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


def default_cache_dir() -> Path:
    """$CITECHECK_CACHE, else the citecheck folder of the project's cache."""
    return Path(os.environ["CITECHECK_CACHE"]) if os.environ.get("CITECHECK_CACHE") else cache_home() / "citecheck"


@dataclass
class ResolveCache:
    resolver: str
    blobs: dict[str, str] = field(default_factory=dict)  # "commit:path" -> blob sha
    cites: dict[str, list] = field(default_factory=dict)  # cite key -> [first line, last line, kind]
    counts: dict[str, int] = field(default_factory=dict)  # "commit:query" -> value

    @staticmethod
    def blob_key(commit: str, path: str) -> str:
        return f"{commit}:{path}"

    @staticmethod
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


def load_cache(directory: Path | None) -> ResolveCache:
    """The cache for the current resolver; an absent, unreadable or older cache is an empty one."""
    resolver = resolver_fingerprint()
    if directory is None:
        return ResolveCache(resolver)
    try:
        data = json.loads((directory / CACHE_NAME).read_text(encoding="utf-8"))
        if data.get("resolver") == resolver:
            return ResolveCache(resolver, dict(data["blobs"]), dict(data["cites"]), dict(data["counts"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # a cache is only ever an optimisation
    return ResolveCache(resolver)


def save_cache(directory: Path | None, cache: ResolveCache) -> None:
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".resolved-", suffix=".json", dir=directory)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"resolver": cache.resolver, "blobs": cache.blobs, "cites": cache.cites,
                       "counts": cache.counts}, out, ensure_ascii=False, separators=(",", ":"))
        os.replace(temporary, directory / CACHE_NAME)
    except OSError:
        pass  # a read-only home or a full disk only costs speed
