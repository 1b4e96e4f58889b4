"""Scenarios: claims/scenarios/<id>.yaml, one question of the decision guide per file.

A scenario names who asks, the concrete path needed (platform, model class, runtime, constraints) and
the rows whose cells break the answer down. Per engine it gives a verdict, the one path that engine
would take, what stands in the way, a rank (equal ranks form a tier) and the claims and cells it rests
on. Its evidence label is derived as for cells: the weakest label among what it rests on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .cells import LABEL_STRENGTH, evidence_label
from .model import CONTEXT_OWNER, Catalog, Claim
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml, read_text

SCENARIOS_DIR = "scenarios"
SCENARIO_SCHEMA_FILE = "scenario.schema.json"
CELL_PART = "/cell/"
# How good an answer is, for "better than the row": n/a cells grade nothing and are left out.
VERDICT_STRENGTH = {"no": 0, "unknown": 1, "partial": 2, "yes": 3}
ARCHITECTURAL_ROW = "constraints.architectural"
# A figure answers "how small, how fast, how much": only a number the records establish, not an inference.
FIGURE_LABELS = ("verified", "repo-reported", "measured")


@dataclass(frozen=True)
class Answer:
    engine: str
    verdict: str
    path: str
    obstacle: str  # none | missing-implementation | architectural
    obstacle_what: str
    rank: int
    reason: str
    would_change: str
    better_than_rows: str
    rests_on: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Figure:
    claim: str
    tells: str
    line: int


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    who: str
    needs: dict
    draws_on: tuple[str, ...]
    answers: tuple[Answer, ...]  # best first: by rank, then in file order
    figures: tuple[Figure, ...]
    study: str
    note: str
    path: Path
    line: int


def load_scenario(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> Scenario | None:
    """One scenario file; shape errors are reported and the scenario left out."""
    path, data = located.path, located.data
    name = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else path.stem
    found = list(file_schema(schema_path).errors([data]))
    for location, message in found:
        problems.append(Problem(path, located.line_of(location[1:]), name, message))
    if found:
        return None
    if data["id"] != path.stem:
        problems.append(Problem(path, located.line_of(("id",)), name, f"id must be the file name ({path.stem!r})"))
    answers = sorted(
        (Answer(engine, raw["verdict"], " ".join(raw["path"].split()), raw["obstacle"]["kind"],
                " ".join(raw["obstacle"].get("what", "").split()), raw["rank"], " ".join(raw["reason"].split()),
                " ".join(raw["would_change"].split()), " ".join(raw.get("better_than_rows", "").split()),
                tuple(raw["rests_on"]), located.line_of(("engines", engine)))
         for engine, raw in data["engines"].items()),
        key=lambda answer: answer.rank)
    figures = tuple(Figure(raw["claim"], " ".join(raw["tells"].split()), located.line_of(("figures", index)))
                    for index, raw in enumerate(data.get("figures", ())))
    return Scenario(data["id"], " ".join(data["title"].split()), " ".join(data["who"].split()), data["needs"],
                    tuple(data["draws_on"]), tuple(answers), figures, " ".join(data.get("study", "").split()),
                    " ".join(data.get("note", "").split()), path, located.line_of(()))


@cache
def _wrapped(text: str) -> ClaimsSchema:
    schema = json.loads(text)
    # Validated as the one item of a list, so every error names its field from the top (engines.ncnn.rank).
    return ClaimsSchema({"type": "array", "items": {k: v for k, v in schema.items() if k not in ("$defs", "$id", "$schema")},
                         "$defs": schema.get("$defs", {})})


def file_schema(path: Path) -> ClaimsSchema:
    ClaimsSchema.at(path)  # a missing or broken schema is a CatalogError, said as for the claims schema
    return _wrapped(read_text(path))


def answer_label(answer: Answer, catalog: Catalog) -> str:
    """The weakest label among the claims and cells an answer rests on. A Proposal it names is the
    design that would change the answer, shown beside it, never evidence: it does not label it."""
    labels = []
    for record in answer.rests_on:
        cell = cell_named(catalog, record)
        if cell is not None:
            labels.append(evidence_label(cell, catalog))
        elif (claim := catalog.claim(record)) is not None and claim.label != "proposal":
            labels.append(claim.label)
    return max(labels, key=LABEL_STRENGTH.index) if labels else "unknown"


def cell_named(catalog: Catalog, record: str):
    engine, part, dimension = record.partition(CELL_PART)
    if not part:
        return None
    return next((c for c in catalog.cells if c.engine == engine and c.dimension == dimension), None)


def claims_under(answer: Answer, catalog: Catalog) -> list[Claim]:
    """The claims an answer rests on, directly or through a cell."""
    found = []
    for record in answer.rests_on:
        cell = cell_named(catalog, record)
        ids = cell.rests_on if cell is not None else (record,)
        found.extend(claim for claim in map(catalog.claim, ids) if claim is not None and claim not in found)
    return found


def check_scenarios(catalog: Catalog, problems: list[Problem]) -> None:
    """What the schema cannot know: rows, engines, claims and cells exist and fit the answer."""
    engines_with_claims = [e for e in catalog.engines if catalog.engine_claims(e)]
    for scenario in catalog.scenarios:
        def problem(line: int, message: str) -> None:
            problems.append(Problem(scenario.path, line, scenario.id, message))

        for row in scenario.draws_on:
            if catalog.dimensions and row not in catalog.dimensions:
                problem(scenario.line, f"draws_on: unknown row {row!r}")
        named = {answer.engine for answer in scenario.answers}
        for engine in engines_with_claims:
            if engine not in named:
                problem(scenario.line, f"engines: no verdict for {engine}")
        for answer in scenario.answers:
            _check_answer(scenario, answer, catalog, lambda message: problem(answer.line, f"{answer.engine}: {message}"))
        for figure in scenario.figures:
            claim = catalog.claim(figure.claim)
            if claim is None:
                problem(figure.line, f"figures: unknown claim {figure.claim!r}")
            elif claim.label not in FIGURE_LABELS:
                problem(figure.line, f"figures: {figure.claim} is {claim.label}; a figure is a Verified, "
                                     "repo-reported or measured claim")


def _check_answer(scenario: Scenario, answer: Answer, catalog: Catalog, problem) -> None:
    if answer.engine not in catalog.engines:
        problem("unknown engine")
        return
    for record in answer.rests_on:
        owner = record.split("/", 1)[0]
        exists = cell_named(catalog, record) is not None if CELL_PART in record else catalog.claim(record) is not None
        if not exists:
            problem(f"rests_on: unknown {'cell' if CELL_PART in record else 'claim'} {record!r}")
        elif owner not in (answer.engine, CONTEXT_OWNER):  # a shared fact bears on every engine
            problem(f"rests_on: {record} belongs to {owner}, not to {answer.engine}")
    if answer.obstacle != "none" and not answer.obstacle_what:
        problem("obstacle: say which (obstacle.what)")
    claims = claims_under(answer, catalog)
    if answer.obstacle == "architectural" and not any(c.dimension == ARCHITECTURAL_ROW for c in claims):
        problem(f"obstacle: an architectural obstacle rests on a claim of {ARCHITECTURAL_ROW}")
    if answer.verdict == "no" and not any(c.absence or c.dimension == ARCHITECTURAL_ROW for c in claims):
        problem(f"a `no` rests on a claim of absence (absence: true) or an architectural constraint ({ARCHITECTURAL_ROW})")
    if not answer.better_than_rows:
        worse = [row for row in scenario.draws_on if _worse_row(catalog, answer, row)]
        if worse:
            problem(f"verdict {answer.verdict} is better than the cell on {', '.join(worse)}: say why (better_than_rows)")


def _worse_row(catalog: Catalog, answer: Answer, row: str) -> bool:
    cell = cell_named(catalog, f"{answer.engine}{CELL_PART}{row}")
    return cell is not None and cell.verdict in VERDICT_STRENGTH and \
        VERDICT_STRENGTH[answer.verdict] > VERDICT_STRENGTH[cell.verdict]
