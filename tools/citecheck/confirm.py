"""Confirming stored answers against the blobs, and confirming the lock's entries ahead of the checks.

A cached resolution (lines and kind of a cite in a blob) is a claim about the blob: `shows` tests it
by reading those lines. A warm run's work is that test for every cite, and reading the blobs for it;
Python loading the records is the other half. They need not wait for each other: `Confirmation`
forks, before the lock is parsed and the records are loaded, a process that reads the lock, takes
each entry, reads its blob from the local repository (batchread.py: plain git, two repositories at a
time while one is confirmed) and confirms it exactly as the cache path would (the blob read now is
the one the entry and the cache name, the cache holds the entry's lines and kind for it, and the
lines show the symbol or phrase; a count's value is the cached value at a commit the repository
holds). What comes back is the set of entries so confirmed and the digest of the lock it read; the
checks take an entry as a cite's answer when the lock they read has that digest and the entry is the
one they would write for that cite, and resolve every other cite as usual.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import lru_cache
from pathlib import Path

from enginekb.model import Claim, Cite, Count, Engine

from .batchread import read_regular_files
from .cache import CACHE_NAME, ResolveCache, load_cache
from .enginestore import cites_in
from .gitdir import Blob
from .lock import KINDS, Lock, cite_key, count_entry, count_key, entry_matches, entry_repository, read_lock, valid_lines
from .repos import RepositorySources
from .textsearch import find_identifier, find_phrase

WAIT = 30.0  # seconds the checks wait for the confirming process before doing all the work themselves


def shows(blob: Blob, cite: Cite, hit: list) -> bool:
    """Whether lines `hit` of `blob` hold what the cite names: the symbol's last name, or the phrase,
    and its `contains`. A cheap test of a cached resolution, not a second resolver."""
    lines, kind = hit[:2], hit[2]
    if not valid_lines(lines) or kind not in KINDS or (kind == "phrase") != (cite.phrase is not None):
        return False
    pieces = _lines(blob.data)
    if len(pieces) < lines[1]:
        return False
    span = b"\n".join(pieces[lines[0] - 1: lines[1]]).decode("latin-1")  # the resolver's decoding

    def latin1(word: str) -> str:
        return word.encode("utf-8").decode("latin-1")
    if cite.phrase is not None:
        return find_phrase(span, latin1(cite.phrase)) is not None
    name = latin1(cite.symbol.replace(".", "::").split("::")[-1])
    return find_identifier(span, name) is not None and (not cite.contains or find_phrase(span, latin1(cite.contains)) is not None)


def _digest(raw: bytes | None) -> str | None:
    return None if raw is None else hashlib.sha256(raw).hexdigest()


@lru_cache(maxsize=64)
def _lines(data: bytes) -> list[bytes]:
    """A blob's lines, split once for the cites into it (bytes keep their hash: a repeat is cheap)."""
    return data.split(b"\n")


class Confirmation:
    """The lock entries a forked process confirmed (`cites`, `counts`: their lock keys). The child reads
    the lock file itself, so that it starts before this process has parsed it; its answer is taken only
    if it read the very bytes this process read (`expect`)."""

    def __init__(self, lock_path: Path, sources: RepositorySources, cache_dir):
        self.lock = Lock()  # the lock as this process read it: given by `expect`
        self.cites: set[tuple] = set()
        self.counts: set[tuple] = set()
        self.matched: dict[int, tuple] = {}  # id(cite) -> (cite, its lock key, the lock entry if it matches the cite)
        self._ahead: dict[str, tuple] = {}  # engine id -> (its claims, their cites' (key, entry), counts' (key, entry))
        self._child: tuple[int, int] | None = None
        if cache_dir is None or not (cache_dir / CACHE_NAME).is_file():
            return  # a first or cold run: nothing could be confirmed
        readable, writable = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: its answer or nothing, never an exception past this frame
            try:
                os.close(readable)
                quiet = os.open(os.devnull, os.O_WRONLY)
                os.dup2(quiet, 2)  # the cache's warnings are the parent's to give
                lock = read_lock(lock_path, checked=False)  # the parent's checked parse of these bytes decides
                found = confirm_entries(lock, sources, lambda: load_cache(cache_dir, checked=False))
                with os.fdopen(writable, "wb") as out:
                    out.write(pickle.dumps((_digest(lock.raw), *found)))
            finally:
                os._exit(0)
        os.close(writable)
        self._child = (pid, readable)

    def expect(self, lock: Lock) -> None:
        self.lock = lock

    def wait(self) -> None:
        """Take the child's answer (within WAIT seconds; otherwise it is stopped and nothing is taken)."""
        if self._child is None:
            return
        pid, readable = self._child
        self._child = None
        chunks, deadline = [], time.monotonic() + WAIT
        try:
            while (left := deadline - time.monotonic()) > 0 and select.select([readable], [], [], left)[0]:
                chunk = os.read(readable, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            else:
                os.kill(pid, signal.SIGKILL)
                chunks = []
        finally:
            os.close(readable)
            os.waitpid(pid, 0)
        try:
            digest, cites, counts = pickle.loads(b"".join(chunks))  # from our own child process
        except Exception:  # noqa: BLE001 - a child that died has confirmed nothing
            return
        if digest == _digest(self.lock.raw):  # not a lock written in between, nor one this process refused
            self.cites, self.counts = cites, counts

    def match_ahead(self, tasks: list[tuple[Engine, list[Claim]]]) -> None:
        """Each cite's lock key and whether the lock's entry is the one this run would write for it,
        worked out while the child confirms (only the child's answer is left to look up after)."""
        for engine, claims in tasks:
            cites = [self._match(claim, cite)[1:] for claim in claims for cite in cites_in(claim, engine.id)]
            counts = [(key, count_entry(claim.engine, engine.pin, claim.count, claim.count.value))
                      for claim in claims if claim.count and claim.engine == engine.id
                      for key in [count_key(claim.engine, engine.pin, claim.count)]]
            self._ahead[engine.id] = (claims, cites, counts)

    def _match(self, claim: Claim, cite: Cite) -> tuple:
        # Kept by the cite object's identity (its key costs more to build than the answer), with the
        # cite itself, so that an id reused by another object is not taken for it.
        known = self.matched.get(id(cite))
        if known is None or known[0] is not cite:
            key = cite_key(claim.engine, cite)
            entry = self.lock.cites.get(key)
            known = self.matched[id(cite)] = (cite, key, entry if entry is not None and entry_matches(entry, claim, cite)
                                              else None)
        return known

    def entry(self, claim: Claim, cite: Cite) -> dict | None:
        """The cite's lock entry if the child confirmed it and it is the entry this run would write."""
        _, key, entry = self._match(claim, cite)
        return entry if entry is not None and key in self.cites else None

    def count_holds(self, pin: str, claim: Claim) -> bool:
        """Whether the child confirmed the lock's entry for the claim's count, as this run would write it."""
        key = count_key(claim.engine, pin, claim.count)
        return key in self.counts and self.lock.counts[key] == count_entry(claim.engine, pin, claim.count, claim.count.value)

    def covers(self, engine: Engine, claims: list[Claim]) -> bool:
        """Whether every cite into the engine's repository and every count of its claims was confirmed:
        a lookup of the child's keys in what `match_ahead` kept (matched now if it was not)."""
        if self._ahead.get(engine.id, (None,))[0] is not claims:
            self.match_ahead([(engine, claims)])
        _, cites, counts = self._ahead[engine.id]
        return (all(entry is not None and key in self.cites for key, entry in cites)
                and all(key in self.counts and self.lock.counts[key] == expected for key, expected in counts))


def confirm_entries(lock: Lock, sources: RepositorySources, cache: ResolveCache | Callable[[], ResolveCache]
                    ) -> tuple[set, set]:
    """The keys of the lock entries whose blob, lines and kind (or value) the repositories and the
    cache agree on now, each cite's lines shown by its blob. The repositories are read two at a time
    in threads (git does the work) while this one confirms what was read; `cache` may be a
    function that loads it, called meanwhile."""
    cites, counts = set(), set()
    files: dict[str, dict[str, set[str]]] = {}  # repository -> commit -> paths
    entries: dict[str, list[tuple[tuple, dict]]] = {}  # repository -> its cites' (key, entry)
    for key, entry in lock.cites.items():
        files.setdefault(entry_repository(entry), {}).setdefault(entry["commit"], set()).add(entry["file"])
        entries.setdefault(entry_repository(entry), []).append((key, entry))
    commits: dict[str, set[str]] = {}  # repository -> the commits its counts were computed at
    for entry in lock.counts.values():
        commits.setdefault(entry["engine"], set()).add(entry["commit"])
    readable = {repo: path for repo in sorted(files.keys() | commits.keys())
                if (path := sources.local_path(repo)) is not None}
    if not readable:
        return cites, counts
    with ThreadPoolExecutor(max_workers=2) as pool:  # the reads are the longest wait: two gits at once
        reading = {pool.submit(read_regular_files, path, files.get(repo, {}), commits.get(repo, set())): repo
                   for repo, path in readable.items()}
        cache = cache if isinstance(cache, ResolveCache) else cache()
        for done in as_completed(reading):
            repo, found = reading[done], done.result()
            if found is None:
                continue
            held, blobs = found
            cites |= {key for key, entry in entries.get(repo, ()) if _confirmed(blobs, cache, entry)}
            counts |= {key for key, entry in lock.counts.items()
                       if entry["engine"] == repo and entry["commit"] in held and _count_confirmed(cache, entry)}
    return cites, counts


def _confirmed(blobs: dict[tuple[str, str], Blob], cache: ResolveCache, entry: dict) -> bool:
    blob = blobs.get((entry["commit"], entry["file"]))
    if blob is None:
        return False
    kind = "symbol" if "symbol" in entry else "phrase"
    cite = Cite(entry["file"], entry["commit"], contains=entry.get("contains"), **{kind: entry[kind]})
    hit = cache.cites.get(cache.cite_key(blob.sha, cite.file, kind, cite.target, cite.contains))
    return (blob.sha == entry["blob"] == cache.blobs.get(cache.blob_key(cite.commit, cite.file))
            and hit == [*entry["lines"], entry["kind"]] and shows(blob, cite, hit))


def _count_confirmed(cache: ResolveCache, entry: dict) -> bool:
    query = Count(entry["value"], entry["query"]).query
    return cache.counts.get(cache.count_key(entry["commit"], query)) == entry["value"]
