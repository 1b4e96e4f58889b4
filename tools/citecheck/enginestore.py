"""An engine's repository, opened with the blobs its claims cite read in one batch per commit."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from enginekb.model import Claim, Cite, Engine

from .errors import CheckFailure
from .gitstore import GitStore
from .repos import RepositorySources


def cites_in(claim: Claim, engine_id: str) -> list[Cite]:
    """The claim's cites into `engine_id`'s repository (a context claim cites several)."""
    return [cite for cite in claim.cites if cite.repo == engine_id]


class EngineStore:
    """The engine's repository, opened once (ahead in a thread, or when first needed) with its cited
    blobs read; an engine-wide failure is kept and repeated."""

    def __init__(self, engine: Engine, claims: list[Claim], sources: RepositorySources):
        self.engine, self.claims, self.sources = engine, claims, sources
        self.store: GitStore | None = None
        self.failure: CheckFailure | None = None
        self.opening: Future | None = None

    def start(self, executor: ThreadPoolExecutor) -> None:
        """Open the repository in `executor` now, so that it is ready when first needed."""
        self.opening = executor.submit(self._open)

    def get(self) -> GitStore:
        if self.opening is not None:
            self.opening.result()  # _open keeps its failure; nothing else is raised
            self.opening = None
        if self.store is None and self.failure is None:
            self._open()
        if self.failure is not None:
            raise self.failure
        return self.store

    def _open(self) -> None:
        files: dict[str, set[str]] = {}  # commit -> files cited at it, read in one batch each
        for claim in self.claims:
            for cite in cites_in(claim, self.engine.id):
                files.setdefault(cite.commit, set()).add(cite.file)
        try:
            store = self.sources.open(self.engine, set(files) | {self.engine.pin})
        except CheckFailure as error:
            self.failure = error
            return
        for commit, paths in files.items():
            store.prefetch(commit, paths)
        self.store = store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
