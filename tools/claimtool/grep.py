"""`claims grep`: list claims by label, engine, dimension or text."""

from __future__ import annotations

import json
import re

from enginekb.model import LABEL_TITLES, Catalog, Claim
from enginekb.problems import display_path


def grep_claims(catalog: Catalog, label: str | None, engine: str | None, dimension: str | None,
                pattern: str | None) -> list[Claim]:
    """Claims matching all filters; `pattern` is a case-insensitive regex over id, text and cites."""
    regex = re.compile(pattern, re.IGNORECASE) if pattern else None
    found = []
    for claim in catalog.claims:
        if label and claim.label != label or engine and claim.engine != engine:
            continue
        if dimension and not (claim.dimension == dimension or claim.dimension.startswith(dimension + ".")
                              or catalog.dimensions[claim.dimension].layer == dimension):
            continue
        haystack = " ".join([claim.id, claim.text, *(f"{c.file} {c.target}" for c in claim.cites)])
        if regex and not regex.search(haystack):
            continue
        found.append(claim)
    return found


def format_text(claims: list[Claim]) -> str:
    return "\n".join(
        f"{display_path(c.path)}:{c.line}: [{LABEL_TITLES[c.label]}] {c.id}: {' '.join(c.text.split())}" for c in claims
    )


def format_json(claims: list[Claim]) -> str:
    rows = [
        {
            "id": c.id, "engine": c.engine, "label": c.label, "dimension": c.dimension, "text": c.text,
            "path": display_path(c.path), "line": c.line,
            "cites": [{"file": x.file, x.target_kind: x.target, "commit": x.commit, **({"contains": x.contains} if x.contains else {})} for x in c.cites],
            "count": {"value": c.count.value, "how": c.count.how} if c.count else None,
        }
        for c in claims
    ]
    return json.dumps(rows, indent=1, ensure_ascii=False)
