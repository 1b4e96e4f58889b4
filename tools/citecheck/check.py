"""Check every cite and count of the selected engines, against repositories or against the lock."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from enginekb.model import Catalog, Claim, Cite, Count, Engine

from .cache import ResolveCache, load_cache, save_cache
from .confirm import Confirmation, shows
from .enginestore import EngineStore, cites_in
from .errors import CheckFailure, CountMismatch, LockMismatch, LockMissing
from .hints import where_else
from .lock import Lock, cite_entry, cite_key, count_entry, count_key, entry_matches, entry_repository
from .repos import RepositorySources


@dataclass(frozen=True)
class Result:
    claim: str  # claim id, or "-" for a stale lock entry
    engine: str
    commit: str
    file: str  # the cited file (for counts: the file or glob counted)
    symbol: str  # the symbol or phrase (for counts: the query)
    status: str  # "ok" or "fail"
    path: Path  # where to point the reader: the claims file, or the lock for stale entries
    line: int  # line in `path`
    lines: tuple[int, int] | None = None  # resolved range in the upstream file
    kind: str | None = None  # definition, declaration, mention, phrase, count
    reason: str = ""
    failure: str = ""  # the failure kind, e.g. "symbol not found"
    value: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _cite_result(claim: Claim, cite: Cite, **fields) -> Result:
    """Reported under the repository checked: a context claim's cite counts with that engine's."""
    return Result(claim.id, cite.repo, cite.commit, cite.file, cite.target, path=claim.path, line=cite.line, **fields)


def _count_result(claim: Claim, commit: str, count: Count, **fields) -> Result:
    target = count.how.get("file") or count.how.get("glob", "")
    return Result(claim.id, claim.engine, commit, target, count.query, path=claim.path, line=count.line, kind="count", **fields)


def _failed(error: CheckFailure) -> dict:
    return {"status": "fail", "reason": f"{error.kind}: {error.reason}", "failure": error.kind}


def check_online(catalog: Catalog, engines: list[str], sources: RepositorySources, cache_dir: Path | None = None,
                 jobs: int | None = None, confirmed: Confirmation | None = None) -> tuple[list[Result], Lock]:
    """Resolve every cite and count in the real repositories; return results and fresh lock entries.

    The cache in `cache_dir` (None: no cache; the command's default is `cache.default_cache_dir()`)
    answers what an earlier run resolved from the same inputs and learns what this run resolves.
    A cite whose lock entry `confirmed` holds confirmed (what this run would have written for it,
    tested against its blob) takes that entry. Engines with other work left run in up to `jobs`
    processes (default: the usable cores).
    """
    jobs = jobs or len(os.sched_getaffinity(0))
    tasks = [(catalog.engines[e], catalog.claims_in_repository(e)) for e in engines]
    if confirmed is not None:
        confirmed.match_ahead(tasks)  # what the answer will be checked against, worked out while the child works
        confirmed.wait()
    confirmed_engines = {engine.id for engine, claims in tasks if confirmed is not None and confirmed.covers(engine, claims)}
    # Every cite and count confirmed: nothing is looked up or learned, so the cache is not even read.
    everything_confirmed = len(confirmed_engines) == len(tasks)
    cache = ResolveCache("") if everything_confirmed else load_cache(cache_dir)
    busy = [task for task in tasks if task[0].id not in confirmed_engines and not _all_cached(cache, *task, confirmed)]
    outcomes: dict[str, tuple[list[Result], Lock, ResolveCache]] = {}
    if jobs > 1 and len(busy) > 1:
        from concurrent.futures import ProcessPoolExecutor  # only a run with engines left to resolve pays for it

        with ProcessPoolExecutor(max_workers=min(jobs, len(busy))) as pool:
            # Largest first, so that the long engine does not start last.
            ordered = sorted(busy, key=lambda task: -sum(len(c.cites) for c in task[1]))
            futures = {task[0].id: pool.submit(_check_engine, *task, sources, cache) for task in ordered}
            outcomes = {engine_id: future.result() for engine_id, future in futures.items()}
    results: list[Result] = []
    fresh = Lock()
    confirmed_all = True  # then no cite was resolved or checked here, and the cache is as it was read
    stores = {engine.id: EngineStore(engine, claims, sources) for engine, claims in tasks if engine.id not in outcomes}
    with ThreadPoolExecutor(max_workers=max(len(stores), 1)) as opening:
        # Each repository with work left is opened and its blobs read in a thread of its own: git
        # works on them all at once, and this thread checks the first engine while others are read.
        for engine, claims in tasks:
            if engine.id in outcomes or engine.id not in confirmed_engines:
                confirmed_all = False
            if engine.id in stores and engine.id not in confirmed_engines:
                stores[engine.id].start(opening)
        for engine, claims in tasks:
            engine_results, engine_lock, learned = (outcomes.get(engine.id) or _check_engine(
                engine, claims, sources, cache, stores[engine.id], confirmed))
            results += engine_results
            fresh.cites.update(engine_lock.cites)
            fresh.counts.update(engine_lock.counts)
            cache.merge(learned)
    if not everything_confirmed and (not confirmed_all or cache.dropped):
        save_cache(cache_dir, cache)
    return results, fresh


def _all_cached(cache: ResolveCache, engine: Engine, claims: list[Claim], confirmed: Confirmation | None) -> bool:
    for claim in claims:
        for cite in cites_in(claim, engine.id):
            if confirmed is not None and confirmed.entry(claim, cite) is not None:
                continue
            blob = cache.blobs.get(cache.blob_key(cite.commit, cite.file))
            if blob is None or _cached_cite(cache, blob, cite) is None:
                return False
        if (claim.count and claim.engine == engine.id and not (confirmed and confirmed.count_holds(engine.pin, claim))
                and cache.count_key(engine.pin, claim.count.query) not in cache.counts):
            return False
    return True


def _cached_cite(cache: ResolveCache, blob: str, cite: Cite) -> list | None:
    return cache.cites.get(cache.cite_key(blob, cite.file, cite.target_kind, cite.target, cite.contains))


def _check_engine(engine: Engine, claims: list[Claim], sources: RepositorySources, cache: ResolveCache,
                  store: EngineStore | None = None, confirmed: Confirmation | None = None,
                  ) -> tuple[list[Result], Lock, ResolveCache]:
    """One engine's results, lock entries and what it added to the cache (picklable: runs in a worker)."""
    before = ResolveCache(cache.resolver, dict(cache.blobs), dict(cache.cites), dict(cache.counts))
    results: list[Result] = []
    fresh = Lock()
    store = store or EngineStore(engine, claims, sources)
    resolver = _LazyResolver()
    try:
        for claim in claims:
            for cite in cites_in(claim, engine.id):
                entry = confirmed and confirmed.entry(claim, cite)
                if entry is None:
                    results.append(_check_cite(store, resolver, cache, claim, cite, fresh))
                else:
                    fresh.cites[cite_key(claim.engine, cite)] = entry
                    results.append(_cite_result(claim, cite, status="ok", lines=tuple(entry["lines"]), kind=entry["kind"]))
            if claim.count and claim.engine == engine.id:
                if confirmed and confirmed.count_holds(engine.pin, claim):
                    fresh.counts[count_key(claim.engine, engine.pin, claim.count)] = count_entry(
                        claim.engine, engine.pin, claim.count, claim.count.value)
                    results.append(_count_result(claim, engine.pin, claim.count, status="ok", value=claim.count.value))
                else:
                    results.append(_check_count(store, cache, engine.pin, claim, fresh))
    finally:
        store.close()
    return results, fresh, cache.new_entries(before)


class _LazyResolver:
    """The resolver, made (tree-sitter and its grammars loaded) only once a cite is not in the cache:
    a warm run confirms cached answers and never pays for it."""

    def __init__(self):
        self.resolver = None

    def get(self):
        if self.resolver is None:
            from .resolve import Resolver

            self.resolver = Resolver()
        return self.resolver


def _check_cite(store: EngineStore, resolver: _LazyResolver, cache: ResolveCache, claim: Claim, cite: Cite,
                fresh: Lock) -> Result:
    try:
        # Even a cached answer needs the repository to hold the commit: a vanished pin must fail.
        store.get().commit(cite.commit)
        blob_sha = cache.blobs.get(cache.blob_key(cite.commit, cite.file))
        hit = _cached_cite(cache, blob_sha, cite) if blob_sha else None
        if blob_sha is None:  # a new commit: the path may still name a blob resolved before
            blob = store.get().read(cite.commit, cite.file)
            cache.blobs[cache.blob_key(cite.commit, cite.file)] = blob_sha = blob.sha
            hit = _cached_cite(cache, blob_sha, cite)
        if hit is not None:
            # A cached answer is a claim about the blob: it enters the lock only once the blob shows it.
            blob = store.get().read(cite.commit, cite.file)
            if blob.sha != blob_sha or not shows(blob, cite, hit):
                cache.blobs[cache.blob_key(cite.commit, cite.file)] = blob_sha = blob.sha
                hit = None
        if hit is None:
            blob = store.get().read(cite.commit, cite.file)
            if cite.symbol is not None:
                found = resolver.get().resolve_symbol(blob, cite.symbol, cite.contains)
            else:
                found = resolver.get().resolve_phrase(blob, cite.phrase)
            hit = [*found.lines, found.kind]
            cache.cites[cache.cite_key(blob.sha, cite.file, cite.target_kind, cite.target, cite.contains)] = hit
    except CheckFailure as error:
        if error.kind in ("file missing", "symbol not found") and cite.symbol:
            error.reason += where_else(store.get(), cite)
        return _cite_result(claim, cite, **_failed(error))
    lines, kind = (hit[0], hit[1]), hit[2]
    fresh.cites[cite_key(claim.engine, cite)] = cite_entry(claim.engine, cite, blob_sha, lines, kind)
    return _cite_result(claim, cite, status="ok", lines=lines, kind=kind)


def _check_count(store: EngineStore, cache: ResolveCache, pin: str, claim: Claim, fresh: Lock) -> Result:
    count = claim.count
    try:
        store.get().commit(pin)
        value = cache.counts.get(cache.count_key(pin, count.query))
        if value is None:
            from .counts import compute_count  # it parses C enums with tree-sitter: only a miss pays for it

            value = cache.counts[cache.count_key(pin, count.query)] = compute_count(store.get(), pin, count.how)
        if value != count.value:
            raise CountMismatch(f"the claim says {count.value}, the pin gives {value}")
    except CheckFailure as error:
        return _count_result(claim, pin, count, **_failed(error))
    fresh.counts[count_key(claim.engine, pin, count)] = count_entry(claim.engine, pin, count, value)
    return _count_result(claim, pin, count, status="ok", value=value)


def check_offline(catalog: Catalog, engines: list[str], lock: Lock, lock_path: Path) -> list[Result]:
    """Check that the lock holds an entry for every cite and count, and nothing else.

    Without a lock file that is one cause, reported once, not once per cite.
    """
    if not lock_path.exists():
        return [Result("-", ",".join(engines), "", "", "", "fail", lock_path, 0, failure="lock missing",
                       reason="lock missing: there is no lock; run citecheck against the repositories to write it")]
    results: list[Result] = []
    used_cites, used_counts = set(), set()
    for engine_id in engines:
        pin = catalog.engines[engine_id].pin
        for claim in catalog.claims_in_repository(engine_id):
            for cite in cites_in(claim, engine_id):
                key = cite_key(claim.engine, cite)
                used_cites.add(key)
                entry = lock.cites.get(key)
                if entry is None:
                    error = LockMissing("no lock entry for this cite: run citecheck against the repository")
                    results.append(_cite_result(claim, cite, **_failed(error)))
                elif not entry_matches(entry, claim, cite):
                    error = LockMismatch("the lock entry does not match this cite (file, symbol or phrase, kind, "
                                         "repository): run citecheck against the repository")
                    results.append(_cite_result(claim, cite, **_failed(error)))
                else:
                    results.append(_cite_result(claim, cite, status="ok", lines=tuple(entry["lines"]), kind=entry["kind"]))
            if claim.count and claim.engine == engine_id:
                key = count_key(engine_id, pin, claim.count)
                used_counts.add(key)
                entry = lock.counts.get(key)
                if entry is None:
                    error: CheckFailure = LockMissing("no lock entry for this count: run citecheck against the repository")
                    results.append(_count_result(claim, pin, claim.count, **_failed(error)))
                elif entry["value"] != claim.count.value:
                    error = CountMismatch(f"the claim says {claim.count.value}, the lock recorded {entry['value']}")
                    results.append(_count_result(claim, pin, claim.count, **_failed(error)))
                else:
                    results.append(_count_result(claim, pin, claim.count, status="ok", value=entry["value"]))
    for key, entry in sorted(lock.cites.items()):
        repo = entry_repository(entry)
        if repo in engines and key not in used_cites:
            results.append(Result("-", repo, entry["commit"], entry["file"], key[4], "fail", lock_path, 0,
                                  reason=f"stale lock entry: no claim cites {repo} {entry['file']} {key[4]!r}; "
                                         "refresh the lock", failure="stale lock entry"))
    for key, entry in sorted(lock.counts.items()):
        if entry["engine"] in engines and key not in used_counts:
            results.append(Result("-", entry["engine"], entry["commit"], "", key[2], "fail", lock_path, 0, kind="count",
                                  reason=f"stale lock entry: no claim counts {entry['engine']} {key[2]}; refresh the lock",
                                  failure="stale lock entry"))
    return results


def merge_lock(current: Lock, fresh: Lock, checked: list[str], seen: Lock | None = None) -> Lock:
    """The fresh entries of the engines just checked, and the current entries of every other engine.

    Another engine's entries are kept as they are: its own run (perhaps a concurrent one, with claims
    this run has not loaded) is the one that prunes them. `seen` is the lock as this run read it
    before loading: an entry of a checked engine written since (by a run that loaded later claims) is
    kept, and a fresh entry that such a run removed since is not put back.
    """
    seen = seen if seen is not None else current
    merged = Lock(
        {k: e for k, e in fresh.cites.items() if k in current.cites or k not in seen.cites},
        {k: e for k, e in fresh.counts.items() if k in current.counts or k not in seen.counts},
    )
    merged.cites.update({k: e for k, e in current.cites.items()
                         if entry_repository(e) not in checked or k not in seen.cites and k not in fresh.cites})
    merged.counts.update({k: e for k, e in current.counts.items()
                          if e["engine"] not in checked or k not in seen.counts and k not in fresh.counts})
    return merged
