"""`claims review`: where a reader should look first. Advice, never a failure.

Verified claims whose text uses an absolute word ("only", "every", "never", "has no", ...) and rest
on a single cite: one cited definition rarely shows that no other backend, build flag or caller
behaves differently. And absence claims ("has no", "does not", "none") whose `note` does not say how
the absence was searched for.
"""

from __future__ import annotations

import re

from enginekb.model import Catalog, Claim
from enginekb.problems import display_path

ABSOLUTE = re.compile(
    r"\b(only|every|all|never|always|any|none|rejects|entire(?:ly)?|whole|sole(?:ly)?|no other|nothing|cannot|"
    r"is how|the way)\b", re.IGNORECASE)
ABSENCE = re.compile(r"\b(has no|have no|there is no|no \w+ (?:exists?|is)|does not|do not|doesn't|none|nowhere|"
                     r"lacks?|without any|absent)\b", re.IGNORECASE)
CODE = re.compile(r"`[^`]*`")
SEARCHED = re.compile(r"\b(grep|searched|search|looked|ls-tree|no match|no hits?|zero matches|across the tree)\b",
                      re.IGNORECASE)


def review(catalog: Catalog, engine: str | None = None) -> list[tuple[Claim, str]]:
    """(claim, advice) for every Verified claim worth a second look, in file order."""
    found = []
    for claim in catalog.claims:
        if claim.label != "verified" or engine and claim.engine != engine:
            continue
        prose = CODE.sub(" ", claim.text)  # `NONE` in a code span is a name, not a claim of absence
        words = sorted({m.group(1).lower() for m in ABSOLUTE.finditer(prose)})
        if words and len(claim.cites) == 1:
            found.append((claim, f"absolute word{'s' if len(words) > 1 else ''} {', '.join(map(repr, words))} "
                                 "with one cite: check the other paths (backends, build flags, callers)"))
        absence = ABSENCE.search(prose)
        if absence and not SEARCHED.search(claim.note or ""):
            found.append((claim, f"states an absence ({absence.group(1)!r}) but its note does not say how the "
                                 "tree was searched"))
    return found


def format_text(found: list[tuple[Claim, str]], verified: int) -> str:
    lines = [f"{display_path(claim.path)}:{claim.line}: {claim.id}: {advice}" for claim, advice in found]
    claims = len({claim.id for claim, _ in found})
    lines.append(f"claims review: {claims} of {verified} Verified claims to look at again ({len(found)} notes); advice, not a failure")
    return "\n".join(lines)
