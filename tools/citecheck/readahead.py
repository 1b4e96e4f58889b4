"""Opening the engines' repositories and reading the cited blobs before the checks need them.

A warm run spends most of its time waiting for git to inflate the cited blobs (it confirms each
cached answer against its blob) and for Python to load and validate the records. The two need not
wait for each other: the lock, read before the records are loaded, names the files the last run
read, so threads open each local repository and read those blobs while the records load. The lock
only chooses what is read early; nothing read is taken from it. A cite the lock did not name is read
when the checks reach it, and any trouble on the way leaves the repository to be opened as usual.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from enginekb.model import Claim, Cite, Engine

from .errors import CheckFailure
from .gitstore import GitStore
from .lock import Lock, entry_repository
from .repos import RepositorySources


def cites_in(claim: Claim, engine_id: str) -> list[Cite]:
    """The claim's cites into `engine_id`'s repository (a context claim cites several)."""
    return [cite for cite in claim.cites if cite.repo == engine_id]


def _open_and_read(path, files: dict[str, set[str]]) -> GitStore | None:
    try:
        store = GitStore(path)
    except CheckFailure:
        return None  # opened again when needed, and then the failure is reported
    for commit, paths in files.items():
        store.prefetch(commit, paths)
    return store


class ReadAhead:
    """Each local repository that `lock` has entries for, opened in a thread with those blobs read."""

    def __init__(self, sources: RepositorySources, lock: Lock):
        wanted: dict[str, dict[str, set[str]]] = {}  # repository -> commit -> files
        for entry in lock.cites.values():
            wanted.setdefault(entry_repository(entry), {}).setdefault(entry["commit"], set()).add(entry["file"])
        paths = {repo: sources.local_path(repo) for repo in wanted}
        self.threads = ThreadPoolExecutor(max_workers=max(len(wanted), 1))
        self.opening: dict[str, Future] = {repo: self.threads.submit(_open_and_read, paths[repo], files)
                                           for repo, files in wanted.items() if paths[repo] is not None}

    def take(self, engine_id: str) -> GitStore | None:
        """The repository opened ahead, if it was; the caller closes it."""
        opening = self.opening.pop(engine_id, None)
        return opening.result() if opening is not None else None

    def close(self) -> None:
        """Close what no check took (an engine not checked, or checked in a worker process)."""
        for engine_id in list(self.opening):
            store = self.take(engine_id)
            if store is not None:
                store.close()
        self.threads.shutdown()


class EngineStore:
    """The engine's repository, opened once (taken from a ReadAhead, ahead in a thread, or when first
    needed) with its cited blobs read; an engine-wide failure is kept and repeated."""

    def __init__(self, engine: Engine, claims: list[Claim], sources: RepositorySources,
                 ahead: ReadAhead | None = None):
        self.engine, self.claims, self.sources, self.ahead = engine, claims, sources, ahead
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
        store = self.ahead.take(self.engine.id) if self.ahead else None
        if store is None:
            try:
                store = self.sources.open(self.engine, set(files) | {self.engine.pin})
            except CheckFailure as error:
                self.failure = error
                return
        for commit, paths in files.items():
            store.prefetch(commit, paths)  # what was read ahead is not read again
        self.store = store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
