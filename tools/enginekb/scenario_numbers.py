"""`claims lint` on the numbers an answer's prose states: each must be stated by a record it rests on.

An obstacle, a path or a reason that says "4.3 GB" or "RTF 2.0" quotes a figure; the claim that gives the
figure has to be among those the sentence rests on, or the page shows the number under a Verified label
that nothing behind it states. An obstacle's numbers come from its own `rests_on` (the claims named
there, and those of any cell named there); a path's `how` and the `reason` may draw on every record of
the answer (`claims_under`) and on the values of the path's model record (its parameters, sizes and
licences, each with its own source on the model's page).

A number written with fewer decimals than the record gives counts as the same figure (37.5 for 37.46),
since prose rounds; a number that only a unit conversion or arithmetic would give is not matched, and
the sentence should quote the record's own figure.
"""

from __future__ import annotations

import re

from .model import Catalog
from .scenarios import Answer, cell_named, claims_under

NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def _written(text: str) -> list[str]:
    return NUMBER.findall(text)


def _value(written: str) -> float:
    return float(written.replace(",", ""))


def _stated_by(claims) -> set[float]:
    stated: set[float] = set()
    for claim in claims:
        stated |= {_value(n) for n in _written(claim.text)}
        if claim.measurement:
            stated.add(float(claim.measurement[0]))
        if claim.count:
            stated.add(float(claim.count.value))
    return stated


def _matches(written: str, stated: set[float]) -> bool:
    decimals = len(written.partition(".")[2])
    value = _value(written)
    return any(round(figure, decimals) == value for figure in stated)


def _obstacle_claims(answer: Answer, catalog: Catalog) -> list:
    found = []
    for record in answer.obstacle_rests_on:
        cell = cell_named(catalog, record)
        found.extend(c for c in map(catalog.claim, cell.rests_on if cell else (record,)) if c is not None)
    return found


def _model_values(answer: Answer, catalog: Catalog) -> set[float]:
    record = next((m for m in catalog.models if m.id == answer.path.model), None)
    if record is None:
        return set()
    facts = [v.parameters for v in record.variants] + [w.size for v in record.variants for w in v.weights]
    facts += [record.licence, *(c.licence for c in record.components)]
    texts = [text for fact in facts if fact is not None for text in (fact.value, fact.unknown, fact.note)]
    return {_value(n) for text in texts if text for n in _written(text)}


def unbacked_numbers(answer: Answer, catalog: Catalog) -> list[str]:
    """One message per field whose numbers no record it rests on states."""
    messages = []
    fields = (("obstacle.what", answer.obstacle_what, _stated_by(_obstacle_claims(answer, catalog))),)
    stated = _stated_by(claims_under(answer, catalog)) | _model_values(answer, catalog)
    fields += (("path.how", answer.path.how, stated), ("reason", answer.reason, stated))
    for field, text, backed in fields:
        missing = [n for n in _written(text) if not _matches(n, backed)]
        if missing:
            where = "its obstacle.rests_on" if field == "obstacle.what" else "the records under the answer"
            messages.append(f"{field}: {', '.join(dict.fromkeys(missing))} stated by no claim among {where} "
                            "(add the claim that gives the figure, or quote its own value)")
    return messages
