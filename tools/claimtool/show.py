"""`claims show ID...`: one claim in full, each cite with the lines the lock recorded and its permalink."""

from __future__ import annotations

from citecheck.lock import Lock, cite_key
from enginekb.model import LABEL_TITLES, Catalog, Claim
from enginekb.problems import display_path
from kbsite.render import describe_query


def format_claim(claim: Claim, catalog: Catalog, lock: Lock) -> str:
    lines = [
        f"{claim.id}  [{LABEL_TITLES[claim.label]}]  {catalog.dimensions[claim.dimension].title} ({claim.dimension})",
        f"  {display_path(claim.path)}:{claim.line}",
        f"  {' '.join(claim.text.split())}",
    ]
    for cite in claim.cites:
        entry = lock.cites.get(cite_key(claim.engine, cite))
        where = "not in the lock"
        if entry:
            first, last = entry["lines"]
            where = f"{entry['kind']}, " + (f"line {first}" if first == last else f"lines {first}-{last}")
        target = cite.symbol if cite.symbol is not None else f'"{cite.phrase}"'
        contains = f" contains {cite.contains!r}" if cite.contains else ""
        url = catalog.engines[cite.repo].permalink(cite.file, cite.commit, tuple(entry["lines"]) if entry else None)
        repo = f"{cite.repo}: " if cite.repo != claim.engine else ""  # a context claim names the repository
        lines.append(f"  cite: {repo}{cite.file} {target}{contains} ({where})\n        {url}")
    if claim.count:
        lines.append(f"  count: {claim.count.value}, recomputed as {describe_query(claim.count.how).replace('`', '')}")
    if claim.note:
        lines.append(f"  note: {' '.join(claim.note.split())}")
    if claim.see:
        lines.append(f"  see: {', '.join(claim.see)}")
    return "\n".join(lines)
