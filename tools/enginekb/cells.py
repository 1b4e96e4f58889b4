"""Verdict cells: claims/<engine>/cells.yaml, one answer per comparison row and engine.

A cell says `yes`, `partial`, `no`, `unknown` or `n/a` in one line and rests on claims of its own
engine: the decisive claim, wherever its row is (a claim filed under kernel.extension may decide
deploy.add-op). Its evidence label is derived: the weakest label among those claims, so a verdict
that rests on an Inferred claim is labelled Inferred. A Proposal is a design suggestion of ours, not
evidence: a cell never rests on one. A `no` must rest on a claim that states the absence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .layout import CELLS_FILE, CELL_SCHEMA_FILE
from .model import CONTEXT_OWNER, Catalog
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml

VERDICTS = ("yes", "partial", "no", "unknown", "n/a")
# Strongest first: a cell is only as established as the weakest claim it rests on.
LABEL_STRENGTH = ("verified", "repo-reported", "measured", "inferred", "proposal", "unknown")


@dataclass(frozen=True)
class Cell:
    engine: str
    dimension: str
    verdict: str
    answer: str
    rests_on: tuple[str, ...]
    path: Path
    line: int

    @property
    def id(self) -> str:
        return f"{self.engine}/cell/{self.dimension}"


def evidence_label(cell: Cell, catalog: Catalog) -> str:
    labels = [claim.label for claim in (catalog.claim(i) for i in cell.rests_on) if claim]
    return max(labels, key=LABEL_STRENGTH.index) if labels else "unknown"


def load_cells(located: LocatedYaml, engine: str, schema_path: Path, problems: list[Problem]) -> list[Cell]:
    """The cells of one engine's cells.yaml; shape errors are reported and the cell left out."""
    path = located.path
    if not isinstance(located.data, list):
        problems.append(Problem(path, 1, "-", "a cells file is a YAML list of cells"))
        return []
    invalid = set()
    for location, message in ClaimsSchema.at(schema_path).errors(located.data):
        index = location[0] if location else None
        invalid.add(index)
        problems.append(Problem(path, located.line_of(location), _name(engine, located.data, index), message))
    return [
        Cell(engine, raw["dimension"], raw["verdict"], " ".join(raw["answer"].split()), tuple(raw["rests_on"]), path,
             located.line_of((index,)))
        for index, raw in enumerate(located.data) if index not in invalid and isinstance(raw, dict)
    ]


def _name(engine: str, data: list, index) -> str:
    raw = data[index] if isinstance(index, int) else None
    return f"{engine}/cell/{raw['dimension']}" if isinstance(raw, dict) and isinstance(raw.get("dimension"), str) else "-"


def check_cells(catalog: Catalog, problems: list[Problem], rows_known: bool) -> None:
    """What the schema cannot know: the row exists (unless the dimensions file has errors of its
    own, `rows_known` false), once per engine; its rubric defines the verdict; the claims exist, are
    the engine's and are evidence (no Proposal); a `no` rests on a claim of absence."""
    seen: dict[str, Cell] = {}
    for cell in catalog.cells:
        def problem(message: str) -> None:
            problems.append(Problem(cell.path, cell.line, cell.id, message))

        if cell.engine not in catalog.engines:
            problem(f"unknown engine directory {cell.engine!r}")
            continue
        dimension = catalog.dimensions.get(cell.dimension)
        if dimension is None:
            if rows_known:
                problem(f"unknown dimension {cell.dimension!r}")
            continue
        if cell.id in seen:
            problem(f"a second cell for this row (first at line {seen[cell.id].line})")
        seen.setdefault(cell.id, cell)
        rubric = dimension.rubric
        if rubric and cell.verdict != "unknown" and cell.verdict not in rubric.verdicts:
            problem(f"verdict {cell.verdict!r}: the rubric of {cell.dimension} defines only "
                    f"{', '.join(rubric.verdicts)} (and unknown)")
        claims = []
        for claim_id in cell.rests_on:
            claim = catalog.claim(claim_id)
            row = catalog.dimensions.get(claim.dimension) if claim else None
            if claim is None:
                problem(f"rests_on: unknown claim {claim_id!r}")
            elif claim.engine not in (cell.engine, CONTEXT_OWNER):  # a shared fact bears on every engine
                problem(f"rests_on: {claim_id} is a claim of {claim.engine}, not of {cell.engine}")
            elif row is None:
                continue  # the claim's unknown dimension is its own error, on its line
            elif claim.label == "proposal":
                problem(f"rests_on: {claim_id} is a Proposal, a design suggestion of ours: it never supports or "
                        "labels a verdict (rest the cell on the claims the proposal rests on)")
            else:
                claims.append(claim)
        if cell.verdict == "no" and claims and not any(c.absence for c in claims):
            problem("a `no` rests on at least one claim that states the absence (absence: true)")


def check_shared_verdicts(catalog: Catalog, dimensions_path: Path, problems: list[Problem]) -> None:
    """A graded row on which every engine has a cell and all give the same verdict tells a reader
    nothing unless its rubric's `note` says why that is the finding."""
    engines = set(catalog.engines)
    for dimension in catalog.dimensions.values():
        rubric = dimension.rubric
        if rubric is None or "yes" not in rubric.verdicts or rubric.note or len(engines) < 2:
            continue
        verdicts = {c.engine: c.verdict for c in catalog.cells if c.dimension == dimension.key}
        if set(verdicts) == engines and len(set(verdicts.values())) == 1:
            problems.append(Problem(dimensions_path, dimension.line, dimension.key,
                                    f"every engine's verdict is {next(iter(verdicts.values()))!r}: re-aim the "
                                    "rubric at a distinction, or say in rubric.note why one verdict is the finding"))
