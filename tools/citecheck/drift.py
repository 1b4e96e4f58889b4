"""`citecheck drift`: what moving an engine's pin to a candidate commit would change, cite by cite.

Each cite at the pin is classified against the candidate:
- unchanged: the same blob at the same path; nothing to re-read;
- moved: the cited definition is byte-identical, at other lines, in a renamed file (git's rename
  detection), or in a file that changed elsewhere; the lock can follow without a re-read;
- changed: the symbol still resolves but its definition's text differs; the claim must be re-read;
- broken: the file or the symbol is gone (with where the symbol occurs now).
Counts whose value differs are listed with both values, and so are the claims resting on changed or
broken cites, with the claims that `see:` them. It never writes the lock.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field

from enginekb.model import Catalog, Claim, Cite

from .counts import compute_count
from .errors import CheckFailure, FileMissing
from .gitdir import require_sha
from .gitstore import GitStore
from .hints import where_else
from .report import terminal_safe
from .resolve import Resolver

CLASSES = ("unchanged", "moved", "changed", "broken")


@dataclass
class CiteDrift:
    claim: str
    file: str
    target: str
    status: str  # one of CLASSES
    old_lines: tuple[int, int] | None = None
    new_file: str | None = None
    new_lines: tuple[int, int] | None = None
    reason: str = ""
    diff: str = ""


@dataclass
class CountDrift:
    claim: str
    query: str
    old: int | None
    new: int | None
    reason: str = ""


@dataclass
class DriftReport:
    engine: str
    old: str
    new: str
    cites: list[CiteDrift] = field(default_factory=list)
    counts: list[CountDrift] = field(default_factory=list)
    to_reread: dict[str, list[str]] = field(default_factory=dict)  # claim id -> claims that see it

    def tally(self) -> dict[str, int]:
        return {status: sum(1 for c in self.cites if c.status == status) for status in CLASSES} | {
            "counts changed": len(self.counts)}


def drift(catalog: Catalog, engine_id: str, store: GitStore, new: str) -> DriftReport:
    """Compare every cite and count of `engine_id` at its pin with commit `new` of `store`."""
    old = catalog.engines[engine_id].pin
    store.commit(old)
    store.commit(new)
    report = DriftReport(engine_id, old, new)
    renames = _renames(store, old, new)
    resolver = Resolver()
    for claim in catalog.claims_in_repository(engine_id):
        for cite in claim.cites:
            # A cite pinned to its own commit does not follow the pin; a context claim's may lie elsewhere.
            if cite.repo == engine_id and cite.commit == old:
                report.cites.append(_cite_drift(store, resolver, renames, claim, cite, new))
        if claim.count and claim.engine == engine_id:
            report.counts.extend(_count_drift(store, claim, old, new))
    hit = {c.claim for c in report.cites if c.status in ("changed", "broken")} | {c.claim for c in report.counts}
    for claim_id in sorted(hit):
        report.to_reread[claim_id] = sorted(c.id for c in catalog.claims if claim_id in c.see)
    return report


def _renames(store: GitStore, old: str, new: str) -> dict[str, str]:
    """Old path -> new path for the files git sees as renamed between the two commits."""
    out = store.run("diff", "--find-renames", "--name-status", "-z", "--diff-filter=R", "--end-of-options",
                    require_sha(old), require_sha(new))
    fields = out.split("\0")
    renames = {}
    for index in range(0, len(fields) - 2, 3):
        if fields[index].startswith("R"):
            renames[fields[index + 1]] = fields[index + 2]
    return renames


def _cite_drift(store: GitStore, resolver: Resolver, renames: dict[str, str], claim: Claim, cite: Cite,
                new: str) -> CiteDrift:
    entry = CiteDrift(claim.id, cite.file, cite.target, "broken")
    try:
        old_blob = store.read(cite.commit, cite.file)
        old_found = _resolve(resolver, old_blob, cite)
    except CheckFailure as error:
        entry.reason = f"does not resolve at the pin: {error.kind}: {error.reason}"
        return entry
    entry.old_lines = old_found.lines
    path = cite.file
    try:
        try:
            new_blob = store.read(new, path)
        except FileMissing:
            if path not in renames:
                raise
            path = renames[path]
            new_blob = store.read(new, path)
    except CheckFailure as error:  # gone, or now a symbolic link, a directory, a binary: this cite only
        entry.reason = f"{error.kind}: {error.reason}" + where_else(store, cite, new)
        return entry
    entry.new_file = path
    if new_blob.sha == old_blob.sha and path == cite.file:
        entry.status, entry.new_lines = "unchanged", old_found.lines
        return entry
    try:
        new_found = _resolve(resolver, new_blob, cite)
    except CheckFailure as error:
        entry.reason = f"{error.kind}: {error.reason}" + where_else(store, cite, new)
        return entry
    entry.new_lines = new_found.lines
    before, after = _text(old_blob, old_found.lines), _text(new_blob, new_found.lines)
    if before == after:
        entry.status = "moved"
        return entry
    entry.status = "changed"
    entry.diff = "".join(difflib.unified_diff(
        before, after, f"{cite.file}:{old_found.lines[0]}", f"{path}:{new_found.lines[0]}"))
    return entry


def _resolve(resolver: Resolver, blob, cite: Cite):
    if cite.symbol is not None:
        return resolver.resolve_symbol(blob, cite.symbol, cite.contains)
    return resolver.resolve_phrase(blob, cite.phrase)


def _text(blob, lines: tuple[int, int]) -> list[str]:
    every = blob.text.splitlines(keepends=True)
    chosen = every[lines[0] - 1 : lines[1]]
    if chosen and not chosen[-1].endswith("\n"):
        chosen[-1] += "\n"
    return chosen


def _count_drift(store: GitStore, claim: Claim, old: str, new: str) -> list[CountDrift]:
    values = []
    for commit in (old, new):
        try:
            values.append((compute_count(store, commit, claim.count.how), ""))
        except CheckFailure as error:
            values.append((None, f"{error.kind}: {error.reason}"))
    (before, _), (after, why) = values
    if before == after:
        return []
    return [CountDrift(claim.id, claim.count.query, before, after, why)]


def format_text(report: DriftReport) -> str:
    tally = ", ".join(f"{n} {status}" for status, n in report.tally().items())
    lines = [f"{report.engine}: {report.old[:12]} -> {report.new[:12]}: {tally}"]
    for cite in report.cites:
        if cite.status == "broken":
            lines.append(f"broken  {cite.claim}: {cite.file} {cite.target!r}: {cite.reason}")
        elif cite.status == "changed":
            lines.append(f"changed {cite.claim}: {cite.file} {cite.target!r} "
                         f"L{cite.old_lines[0]}-L{cite.old_lines[1]} -> {cite.new_file} L{cite.new_lines[0]}-L{cite.new_lines[1]}")
            lines.extend("    " + line for line in cite.diff.rstrip("\n").splitlines())
        elif cite.status == "moved":
            lines.append(f"moved   {cite.claim}: {cite.file} {cite.target!r} "
                         f"L{cite.old_lines[0]} -> {cite.new_file} L{cite.new_lines[0]}")
    for count in report.counts:
        lines.append(f"count   {count.claim}: {count.old} -> {count.new}" + (f" ({count.reason})" if count.reason else ""))
    if report.to_reread:
        lines.append("claims to re-read (and the claims that see them):")
        lines.extend(f"  {claim}" + (f"  <- {', '.join(seen)}" if seen else "") for claim, seen in report.to_reread.items())
    return "\n".join(map(terminal_safe, lines))  # upstream names and code, never raw escapes


def format_json(reports: list[DriftReport]) -> str:
    return json.dumps([asdict(r) | {"tally": r.tally()} for r in reports], indent=1)
