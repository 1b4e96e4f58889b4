"""Where the earlier study contradicts itself or its artifact: claims/study-disagreements.yaml.

A disagreement is shown, never resolved in silence: the values on each side with their sources, the
value the site uses and why, and the records that carry it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .layout import DISAGREEMENTS_FILE, DISAGREEMENTS_SCHEMA_FILE
from .model import Catalog
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml



@dataclass(frozen=True)
class Disagreement:
    id: str
    quantity: str
    values: tuple[tuple[str, str, str | None], ...]  # (value, source, where)
    uses: str
    why: str
    records: tuple[str, ...]
    line: int


def load_disagreements(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> list[Disagreement]:
    errors = list(ClaimsSchema.at(schema_path).errors(located.data))
    for location, message in errors:
        name = "-"
        if len(location) >= 2 and isinstance(located.data, dict):
            entry = located.data["disagreements"][location[1]]
            name = entry.get("id", "-") if isinstance(entry, dict) else "-"
        problems.append(Problem(located.path, located.line_of(location), str(name), re.sub(r"^\[\d+\]\.?", "", message)))
    if errors:
        return []
    return [Disagreement(d["id"], d["quantity"], tuple((v["value"], v["source"], v.get("where")) for v in d["values"]),
                         d["uses"], " ".join(d["why"].split()), tuple(d.get("records", ())),
                         located.line_of(("disagreements", index)))
            for index, d in enumerate(located.data["disagreements"])]


def check_disagreements(catalog: Catalog, path: Path, problems: list[Problem]) -> None:
    """Ids are unique and every record named exists."""
    seen: set[str] = set()
    for d in catalog.disagreements:
        if d.id in seen:
            problems.append(Problem(path, d.line, d.id, "duplicate id"))
        seen.add(d.id)
        for record in d.records:
            if record not in catalog.ids:
                problems.append(Problem(path, d.line, d.id, f"records: unknown claim {record!r}"))
