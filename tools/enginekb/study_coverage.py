"""How much of each study document the records hold: claims/study-coverage/<slug>.yaml.

The earlier study's documents are read statement by statement: each statement a reader deciding an
edge deployment would act on either names the claims or measured records that hold it, or says why
none does. Coverage is counted from those lists, never typed, so the table on the site and
`claims stats` cannot disagree with the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .layout import COVERAGE_DIR, COVERAGE_SCHEMA_FILE
from .model import Catalog
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml

TARGET = 0.8  # the share of statements a document's records should hold


@dataclass(frozen=True)
class Statement:
    says: str
    where: str | None
    recorded: tuple[str, ...]
    not_recorded: str | None
    line: int


@dataclass(frozen=True)
class DocumentCoverage:
    document: str
    title: str
    statements: tuple[Statement, ...]
    path: Path
    commit: str | None = None  # the study commit it was read at, when not the inventory's

    @property
    def recorded(self) -> int:
        return sum(1 for s in self.statements if s.recorded)

    @property
    def share(self) -> float:
        return self.recorded / len(self.statements)


def load_coverage(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> DocumentCoverage | None:
    errors = list(ClaimsSchema.at(schema_path).errors(located.data))
    name = located.data.get("document", "-") if isinstance(located.data, dict) else "-"
    for location, message in errors:
        problems.append(Problem(located.path, located.line_of(location), str(name),
                                re.sub(r"^\[\d+\]\.?", "", message)))
    if errors:
        return None
    data = located.data
    return DocumentCoverage(data["document"], data["title"], tuple(
        Statement(" ".join(s["says"].split()), s.get("where"), tuple(s.get("recorded", ())), s.get("not_recorded"),
                  located.line_of(("statements", index)))
        for index, s in enumerate(data["statements"])), located.path, data.get("commit"))


def check_coverage(catalog: Catalog, problems: list[Problem]) -> None:
    """One file per document; every record named exists."""
    seen: dict[str, DocumentCoverage] = {}
    for coverage in catalog.study_coverage:
        if coverage.document in seen:
            problems.append(Problem(coverage.path, 1, coverage.document,
                                    f"this document is covered already in {seen[coverage.document].path.name}"))
        seen.setdefault(coverage.document, coverage)
        for statement in coverage.statements:
            for record in statement.recorded:
                if record not in catalog.ids:
                    problems.append(Problem(coverage.path, statement.line, coverage.document,
                                            f"recorded: unknown claim {record!r}"))


def coverage_stats(catalog: Catalog) -> dict[str, dict[str, int]]:
    """{document: {statements, recorded}} for `claims stats`."""
    return {c.document: {"statements": len(c.statements), "recorded": c.recorded}
            for c in sorted(catalog.study_coverage, key=lambda c: c.document)}
