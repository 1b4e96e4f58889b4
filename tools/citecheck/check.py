"""Check every cite and count of the selected engines, against repositories or against the lock."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from enginekb.model import Catalog, Claim, Cite, Count

from .counts import compute_count
from .errors import CheckFailure, CountMismatch, LockMissing
from .gitstore import GitStore
from .lock import Lock, cite_entry, cite_key, count_entry, count_key
from .repos import RepositorySources
from .resolve import Resolver


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
    return Result(claim.id, claim.engine, cite.commit, cite.file, cite.target, path=claim.path, line=cite.line, **fields)


def _count_result(claim: Claim, commit: str, count: Count, **fields) -> Result:
    target = count.how.get("file") or count.how.get("glob", "")
    return Result(claim.id, claim.engine, commit, target, count.query, path=claim.path, line=count.line, kind="count", **fields)


def _failed(error: CheckFailure) -> dict:
    return {"status": "fail", "reason": f"{error.kind}: {error.reason}", "failure": error.kind}


def check_online(catalog: Catalog, engines: list[str], sources: RepositorySources) -> tuple[list[Result], Lock]:
    """Resolve every cite and count in the real repositories; return results and fresh lock entries."""
    results: list[Result] = []
    fresh = Lock()
    resolver = Resolver()
    for engine_id in engines:
        engine = catalog.engines[engine_id]
        claims = catalog.engine_claims(engine_id)
        commits = {cite.commit for claim in claims for cite in claim.cites} | {engine.pin}
        try:
            store = sources.open(engine, commits) if claims else None
        except CheckFailure as error:
            results += [_cite_result(c, cite, **_failed(error)) for c in claims for cite in c.cites]
            results += [_count_result(c, engine.pin, c.count, **_failed(error)) for c in claims if c.count]
            continue
        for claim in claims:
            results += [_check_cite(store, resolver, claim, cite, fresh) for cite in claim.cites]
            if claim.count:
                results.append(_check_count(store, engine.pin, claim, fresh))
        if store is not None:
            store.close()
    return results, fresh


def _check_cite(store: GitStore, resolver: Resolver, claim: Claim, cite: Cite, fresh: Lock) -> Result:
    try:
        blob = store.read(cite.commit, cite.file)
        if cite.symbol is not None:
            found = resolver.resolve_symbol(blob, cite.symbol, cite.contains)
        else:
            found = resolver.resolve_phrase(blob, cite.phrase)
    except CheckFailure as error:
        if error.kind in ("file missing", "symbol not found") and cite.symbol:
            error.reason += _where_else(store, cite)
        return _cite_result(claim, cite, **_failed(error))
    fresh.cites[cite_key(claim.engine, cite)] = cite_entry(claim.engine, cite, blob.sha, found.lines, found.kind)
    return _cite_result(claim, cite, status="ok", lines=found.lines, kind=found.kind)


def _check_count(store: GitStore, pin: str, claim: Claim, fresh: Lock) -> Result:
    count = claim.count
    try:
        value = compute_count(store, pin, count.how)
        if value != count.value:
            raise CountMismatch(f"the claim says {count.value}, the pin gives {value}")
    except CheckFailure as error:
        return _count_result(claim, pin, count, **_failed(error))
    fresh.counts[count_key(claim.engine, pin, count)] = count_entry(claim.engine, pin, count, value)
    return _count_result(claim, pin, count, status="ok", value=value)


def _where_else(store: GitStore, cite: Cite) -> str:
    """Where the symbol's last name occurs at the commit: what a maintainer moving a pin needs."""
    word = cite.symbol.replace(".", "::").split("::")[-1]
    files = [f for f in store.files_mentioning(cite.commit, word, limit=6) if f != cite.file][:5]
    return f"; {word} occurs in {', '.join(files)}" if files else f"; {word} occurs in no other file at this commit"


def check_offline(catalog: Catalog, engines: list[str], lock: Lock, lock_path: Path) -> list[Result]:
    """Check that the lock holds an entry for every cite and count, and nothing else."""
    results: list[Result] = []
    used_cites, used_counts = set(), set()
    for engine_id in engines:
        pin = catalog.engines[engine_id].pin
        for claim in catalog.engine_claims(engine_id):
            for cite in claim.cites:
                key = cite_key(engine_id, cite)
                used_cites.add(key)
                entry = lock.cites.get(key)
                if entry is None:
                    error = LockMissing("no lock entry for this cite: run citecheck against the repository")
                    results.append(_cite_result(claim, cite, **_failed(error)))
                else:
                    results.append(_cite_result(claim, cite, status="ok", lines=tuple(entry["lines"]), kind=entry["kind"]))
            if claim.count:
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
        if entry["engine"] in engines and key not in used_cites:
            results.append(Result("-", entry["engine"], entry["commit"], entry["file"], key[4], "fail", lock_path, 0,
                                  reason="stale lock entry: no claim cites it; refresh the lock", failure="stale lock entry"))
    for key, entry in sorted(lock.counts.items()):
        if entry["engine"] in engines and key not in used_counts:
            results.append(Result("-", entry["engine"], entry["commit"], "", key[2], "fail", lock_path, 0, kind="count",
                                  reason="stale lock entry: no claim counts it; refresh the lock", failure="stale lock entry"))
    return results


def merge_lock(current: Lock, fresh: Lock, checked: list[str]) -> Lock:
    """The fresh entries of the engines just checked, and the current entries of every other engine.

    Another engine's entries are kept as they are: its own run (perhaps a concurrent one, with claims
    this run has not loaded) is the one that prunes them.
    """
    merged = Lock(dict(fresh.cites), dict(fresh.counts))
    merged.cites.update({k: e for k, e in current.cites.items() if e["engine"] not in checked})
    merged.counts.update({k: e for k, e in current.counts.items() if e["engine"] not in checked})
    return merged
