"""`claims review`: where a reader should look first. Advice, never a failure.

First the Verified claims that have no second reading in the ledger, or whose text changed since it
(with `--engine`, that engine's sibling checklist is printed first, for the reader to use). Then what
lint cannot judge: a generalising claim whose `scope` says the siblings were read while it cites
one path only (does the scope really cover them?); other absolute words ("each", "whole", "cannot")
on a single cite, which the generalisation detector leaves to a reader; and absence claims ("has no",
"does not", "none") whose `note` does not say how the absence was searched for.
"""

from __future__ import annotations

import re

from enginekb.ledger import LEDGER_FILE, unread
from enginekb.model import Catalog, Claim
from enginekb.problems import display_path
from enginekb.scope import CODE_SPAN, generalisations

ABSOLUTE = re.compile(
    r"\b(only|every|all|never|always|any|none|rejects|entire(?:ly)?|whole|sole(?:ly)?|no other|nothing|cannot|"
    r"is how|the way)\b", re.IGNORECASE)
ABSENCE = re.compile(r"\b(has no|have no|there is no|no \w+ (?:exists?|is)|does not|do not|doesn't|none|nowhere|"
                     r"lacks?|without any|absent)\b", re.IGNORECASE)
SEARCHED = re.compile(r"\b(grep|searched|search|looked|ls-tree|no match|no hits?|zero matches|across the tree)\b",
                      re.IGNORECASE)


def review(catalog: Catalog, engine: str | None = None) -> list[tuple[Claim, str]]:
    """(claim, advice) for every Verified claim worth a second look: unread or stale in the ledger first,
    then the wording checks, each in file order."""
    found = [(claim, f"no second reading in claims/{claim.engine}/{LEDGER_FILE}" if status == "unread" else
                     "its text changed since its second reading: read it again and record the new hash")
             for claim, status in unread(catalog, engine)]
    for claim in catalog.claims:
        if claim.label != "verified" or engine and claim.engine != engine:
            continue
        prose = CODE_SPAN.sub(" ", claim.text)  # `NONE` in a code span is a name, not a claim of absence
        general = generalisations(claim.text, counted=claim.count is not None)
        words = sorted({m.group(1).lower() for m in ABSOLUTE.finditer(prose)})
        if general and len(claim.cites) == 1:
            found.append((claim, f"generalises ({'; '.join(general)}) on one cite: check that its scope covers "
                                 "the sibling paths it names"))
        elif words and not general and len(claim.cites) == 1:
            found.append((claim, f"absolute word{'s' if len(words) > 1 else ''} {', '.join(map(repr, words))} "
                                 "with one cite: check the other paths (backends, build flags, callers)"))
        absence = ABSENCE.search(prose)
        if absence and not SEARCHED.search(claim.note or ""):
            found.append((claim, f"states an absence ({absence.group(1)!r}) but its note does not say how the "
                                 "tree was searched"))
    return found


def checklist(catalog: Catalog, engine: str | None) -> list[str]:
    """The engine's sibling checklist as lines, for the reader (nothing without `--engine`)."""
    ledger = catalog.ledgers.get(engine) if engine else None
    if ledger is None:
        return []
    lines = [f"{engine}: where this engine hides its second paths (claims/{engine}/{LEDGER_FILE}):"]
    lines += [f"  [{item.id}] {item.where}: {item.ask} ({', '.join(item.paths)})" for item in ledger.checklist]
    return lines + [""]


def format_text(found: list[tuple[Claim, str]], verified: int, preamble: list[str] = ()) -> str:
    lines = [*preamble] + [f"{display_path(claim.path)}:{claim.line}: {claim.id}: {advice}" for claim, advice in found]
    claims = len({claim.id for claim, _ in found})
    lines.append(f"claims review: {claims} of {verified} Verified claims to look at again ({len(found)} notes); advice, not a failure")
    return "\n".join(lines)
