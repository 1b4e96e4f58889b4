"""Where each engine's upstream repository is found: --repo, --mirrors, $CITECHECK_MIRRORS, --fetch."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from pathlib import Path

from enginekb.model import Engine
from enginekb.store import cache_home

from .errors import RepositoryUnavailable
from .fetch import fetch_pinned
from .gitstore import GitStore

MIRRORS_VARIABLE = "CITECHECK_MIRRORS"
# "ENGINE=URL ..." fetches from another host than engines.yaml's repository (a local mirror server,
# a file:// URL in the tests); engines.yaml itself only admits https URLs, since pages link to them.
FETCH_URLS_VARIABLE = "CITECHECK_FETCH_URLS"


def default_cache() -> Path:
    return cache_home() / "repos"


@dataclass
class RepositorySources:
    repos: dict[str, Path] = field(default_factory=dict)  # engine id -> path, from --repo
    mirrors: Path | None = None
    fetch: bool = False
    cache: Path = field(default_factory=default_cache)
    blobs: bool = True  # False: --fetch makes a partial clone, each blob fetched when first read

    def __post_init__(self) -> None:
        if self.mirrors is None and os.environ.get(MIRRORS_VARIABLE):
            self.mirrors = Path(os.environ[MIRRORS_VARIABLE])

    def fetch_url(self, engine: Engine) -> str:
        urls = dict(pair.split("=", 1) for pair in os.environ.get(FETCH_URLS_VARIABLE, "").split() if "=" in pair)
        return urls.get(engine.id, engine.repository)

    def local_path(self, engine_id: str) -> Path | None:
        """The repository --repo or --mirrors names for the engine, if there is one (nothing fetched)."""
        if engine_id in self.repos:
            return self.repos[engine_id]
        if self.mirrors is not None and (self.mirrors / engine_id).exists():
            return self.mirrors / engine_id
        return None

    def open(self, engine: Engine, commits: set[str]) -> GitStore:
        """The engine's repository; with --fetch, the pinned commits are fetched into the cache."""
        local = self.local_path(engine.id)
        if local is not None:
            return GitStore(local)
        if self.fetch:
            path = self.cache / engine.id
            for commit in sorted(commits):
                fetch_pinned(self.fetch_url(engine), commit, path, blobs=self.blobs)
            return GitStore(path)
        looked = f"{self.mirrors / engine.id} does not exist" if self.mirrors else "no mirrors directory given"
        raise RepositoryUnavailable(
            f"no repository for {engine.id} ({looked}): give --repo {engine.id}=PATH, --mirrors DIR, "
            f"${MIRRORS_VARIABLE}, or --fetch"
        )


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """--repo, --mirrors, --fetch and --cache: where the commands find the engines' repositories."""
    parser.add_argument("--repo", action="append", default=[], metavar="ENGINE=PATH", help="repository of one engine")
    parser.add_argument("--mirrors", type=Path, help="directory holding one git repository per engine id")
    parser.add_argument("--fetch", action="store_true", help="fetch the commits needed into a cache")
    parser.add_argument("--cache", type=Path, help="cache directory for --fetch")


class SourceUsageError(ValueError):
    """A --repo argument that is not ENGINE=PATH."""


def sources_from(args: argparse.Namespace) -> RepositorySources:
    """The sources the arguments of `add_source_arguments` name; SourceUsageError for a malformed --repo."""
    bad = [spec for spec in args.repo if "=" not in spec]
    if bad:
        raise SourceUsageError(f"--repo takes ENGINE=PATH, not {bad[0]!r}")
    sources = RepositorySources(repos={name: Path(path) for name, path in (spec.split("=", 1) for spec in args.repo)},
                                mirrors=args.mirrors, fetch=args.fetch)
    if args.cache:
        sources.cache = args.cache
    return sources
