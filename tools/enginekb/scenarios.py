"""Scenarios: claims/scenarios/<id>.yaml, one question of the decision guide per file.

A scenario names who asks, the hardware class it is about, its needs (the numeric ones as fields on
that class) and the rows whose cells break the answer down. Per engine it gives a verdict, the one
path that engine would take (a model record, the API and backend as claims), the figures bearing on
each numeric need, what stands in the way (resting on claims) and the claims and cells it rests on;
the tiers order the engines best first. Ranks and the evidence label are derived, never written: the
rules are in `scenario_checks` and `tiers`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .cells import LABEL_STRENGTH, evidence_label
from .layout import SCENARIOS_DIR, SCENARIO_SCHEMA_FILE
from .model import Catalog, Claim
from .needs import NO_FIGURE, FigureCite
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml, read_text

CELL_PART = "/cell/"
# A figure answers "how small, how fast, how much": only a number the records establish, not an inference.
FIGURE_LABELS = ("verified", "repo-reported", "measured")


@dataclass(frozen=True)
class AnswerPath:
    model: str
    variant: str
    api: str
    backend: str
    how: str

    @property
    def links(self) -> tuple[str, ...]:
        return tuple(claim for claim in (self.api, self.backend) if claim)


@dataclass(frozen=True)
class Answer:
    engine: str
    verdict: str
    path: AnswerPath
    hardware: str  # the class its path runs on: the scenario's, a unit of it, or a server class
    figures: dict  # measure -> tuple[FigureCite, ...], or NO_FIGURE
    obstacle: str  # none | missing-implementation | architectural
    obstacle_what: str
    obstacle_rests_on: tuple[str, ...]
    reason: str
    would_change: str
    better_than_rows: str
    above_partial: str
    rests_on: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Figure:
    claim: str
    tells: str
    line: int


@dataclass(frozen=True)
class Reading:
    by: str
    date: str
    read: str  # the scenario's content hash as read
    result: str  # held | changed
    checked: tuple[str, ...]
    changed: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    who: str
    hardware: str
    needs: dict
    numeric: dict  # measure -> need value, on `hardware`
    allows_maturity: tuple[str, ...]
    no_model: str
    draws_on: tuple[str, ...]
    tiers: tuple[tuple[str, ...], ...]
    answers: tuple[Answer, ...]  # in tier order, then in file order
    figures: tuple[Figure, ...]
    study: str
    note: str
    readings: tuple[Reading, ...]
    content_hash: str  # of everything but the readings: a reading of another version is out of date
    path: Path
    line: int

    @property
    def read_current(self) -> bool:
        return any(reading.read == self.content_hash for reading in self.readings)


def _prose(text: str) -> str:
    return " ".join(text.split())


def content_hash(data: dict) -> str:
    """What a reading records of the scenario it read: the decoded values, not the YAML layout."""
    content = {key: value for key, value in data.items() if key != "readings"}
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


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
    tiers = tuple(tuple(tier) for tier in data["tiers"])
    order = {engine: position for position, engine in enumerate(e for tier in tiers for e in tier)}
    answers = sorted((_answer(engine, raw, data["hardware"], located) for engine, raw in data["engines"].items()),
                     key=lambda answer: order.get(answer.engine, len(order)))
    figures = tuple(Figure(raw["claim"], _prose(raw["tells"]), located.line_of(("figures", index)))
                    for index, raw in enumerate(data.get("figures", ())))
    numeric = {measure: need["value"] for measure, need in data["needs"].get("numeric", {}).items()}
    readings = tuple(Reading(raw["by"], raw["date"], raw["read"], raw["result"], tuple(raw["checked"]),
                             tuple(raw.get("changed", ())), located.line_of(("readings", index)))
                     for index, raw in enumerate(data.get("readings", ())))
    return Scenario(data["id"], _prose(data["title"]), _prose(data["who"]), data["hardware"], data["needs"], numeric,
                    tuple(data.get("allows_maturity", ())), _prose(data.get("no_model", "")), tuple(data["draws_on"]),
                    tiers, tuple(answers), figures, _prose(data.get("study", "")), _prose(data.get("note", "")),
                    readings, content_hash(data), path, located.line_of(()))


def _answer(engine: str, raw: dict, hardware: str, located: LocatedYaml) -> Answer:
    where = ("engines", engine)
    figures = {}
    for measure, cited in raw.get("figures", {}).items():
        figures[measure] = NO_FIGURE if cited == NO_FIGURE else tuple(
            FigureCite(measure, float(item["value"]), item.get("unit", ""), item.get("on", ""), item.get("claim", ""), item.get("model", ""),
                       item.get("variant", ""), _prose(item.get("not_binding", "")),
                       located.line_of((*where, "figures", measure, index)))
            for index, item in enumerate(cited))
    path, obstacle = raw["path"], raw["obstacle"]
    return Answer(engine, raw["verdict"],
                  AnswerPath(path.get("model", ""), path.get("variant", ""), path.get("api", ""), path.get("backend", ""),
                        _prose(path["how"])),
                  raw.get("hardware", hardware), figures, obstacle["kind"], _prose(obstacle.get("what", "")),
                  tuple(obstacle.get("rests_on", ())), _prose(raw["reason"]), _prose(raw["would_change"]),
                  _prose(raw.get("better_than_rows", "")), _prose(raw.get("above_partial", "")), tuple(raw["rests_on"]),
                  located.line_of(where))


@cache
def _wrapped(text: str) -> ClaimsSchema:
    schema = json.loads(text)
    # Validated as the one item of a list, so every error names its field from the top (engines.ncnn.verdict).
    return ClaimsSchema({"type": "array", "items": {k: v for k, v in schema.items() if k not in ("$defs", "$id", "$schema")},
                         "$defs": schema.get("$defs", {})})


def file_schema(path: Path) -> ClaimsSchema:
    ClaimsSchema.at(path)  # a missing or broken schema is a CatalogError, said as for the claims schema
    return _wrapped(read_text(path))


def answer_records(answer: Answer) -> tuple[str, ...]:
    """Every record an answer rests on: its rests_on, its obstacle's, its path's links and figures."""
    figure_claims = [f.claim for cited in answer.figures.values() if cited != NO_FIGURE for f in cited if f.claim]
    found: list[str] = []
    for record in (*answer.rests_on, *answer.obstacle_rests_on, *answer.path.links, *figure_claims):
        if record not in found:
            found.append(record)
    return tuple(found)


def answer_label(answer: Answer, catalog: Catalog) -> str:
    """The weakest label among the claims and cells an answer rests on. A Proposal it names is the
    design that would change the answer, shown beside it, never evidence: it does not label it."""
    labels = []
    for record in answer_records(answer):
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
    found, seen = [], set()  # one object per claim id: identity says what equality would, cheaper
    for record in answer_records(answer):
        cell = cell_named(catalog, record)
        ids = cell.rests_on if cell is not None else (record,)
        for claim in map(catalog.claim, ids):
            if claim is not None and id(claim) not in seen:
                seen.add(id(claim))
                found.append(claim)
    return found


def path_claims(answer: Answer, catalog: Catalog) -> list[Claim]:
    return [claim for claim in map(catalog.claim, answer.path.links) if claim is not None]
