"""The second-reading ledger: claims/<engine>/second-reads.yaml.

Every Verified claim is read a second time by someone who did not write it. The ledger keeps, per
engine, the checklist of places where the engine hides its second paths, and per claim what the
reading did and which sibling searches it made. A reading names the hash of the text it read, so an
edit to the text afterwards makes the reading stale instead of silently carrying it over.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .layout import LEDGER_FILE, LEDGER_SCHEMA_FILE
from .model import CONTEXT_OWNER, Catalog, Claim
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml



def text_hash(text: str) -> str:
    """What a reading records of the text it read: line breaks and indentation do not count."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class CheckItem:
    id: str
    where: str
    paths: tuple[str, ...]
    ask: str


@dataclass(frozen=True)
class Reading:
    claim: str
    text: str
    result: str
    checks: tuple[str, ...]
    searched: tuple[str, ...]
    note: str | None
    line: int


@dataclass(frozen=True)
class Ledger:
    engine: str
    path: Path
    checklist: tuple[CheckItem, ...]
    readings: tuple[Reading, ...]

    def reading(self, claim_id: str) -> Reading | None:
        return next((r for r in self.readings if r.claim == claim_id), None)


def load_ledger(located: LocatedYaml, engine: str, schema_path: Path, problems: list[Problem]) -> Ledger | None:
    """One engine's ledger; a file the schema rejects is reported and left out whole."""
    errors = list(ClaimsSchema.at(schema_path).errors(located.data))
    for location, message in errors:
        if location[:1] == ("reads",):  # the reading is named by its claim: its index in the list adds nothing
            message = re.sub(r"^\[\d+\]\.?", "", message)
        problems.append(Problem(located.path, located.line_of(location), _name(located.data, location), message))
    if errors:
        return None
    data = located.data
    checklist = tuple(CheckItem(i["id"], i["where"], tuple(i["paths"]), i["ask"]) for i in data["checklist"])
    readings = tuple(
        Reading(r["claim"], r["text"], r["result"], tuple(r.get("checks", ())), tuple(r["searched"]), r.get("note"),
                located.line_of(("reads", index)))
        for index, r in enumerate(data["reads"]))
    return Ledger(engine, located.path, checklist, readings)


def _name(data, location: tuple) -> str:
    if len(location) >= 2 and location[0] == "reads" and isinstance(data, dict):
        entry = data["reads"][location[1]]
        if isinstance(entry, dict) and isinstance(entry.get("claim"), str):
            return entry["claim"]
    return "-"


def check_ledgers(catalog: Catalog, problems: list[Problem]) -> None:
    """What the schema cannot know: the claim exists and is this engine's, one reading per claim,
    checklist ids are unique and every check a reading names is on the checklist."""
    for ledger in catalog.ledgers.values():
        def problem(line: int, claim: str, message: str) -> None:
            problems.append(Problem(ledger.path, line, claim, message))

        if ledger.engine not in catalog.engines and ledger.engine != CONTEXT_OWNER:  # shared facts are read too
            problem(1, "-", f"unknown engine directory {ledger.engine!r}")
            continue
        items = {}
        for item in ledger.checklist:
            if item.id in items:
                problem(1, "-", f"checklist id {item.id!r} twice")
            items[item.id] = item
        seen: dict[str, Reading] = {}
        for reading in ledger.readings:
            claim = catalog.claim(reading.claim)
            if claim is None:
                problem(reading.line, reading.claim, "a reading of a claim that does not exist")
            elif claim.engine != ledger.engine:
                problem(reading.line, reading.claim, f"a claim of {claim.engine}: its reading goes in that engine's ledger")
            if reading.claim in seen:
                problem(reading.line, reading.claim, f"a second reading of this claim (first at line {seen[reading.claim].line})")
            seen.setdefault(reading.claim, reading)
            for check in reading.checks:
                if check not in items:
                    problem(reading.line, reading.claim, f"checks: {check!r} is not on this engine's checklist")


def reading_of(catalog: Catalog, claim: Claim) -> tuple[str, Reading | None]:
    """('read', reading) when the reading matches the claim's text, ('stale', reading) when the text
    changed since, ('unread', None) when there is none."""
    ledger = catalog.ledgers.get(claim.engine)
    reading = ledger.reading(claim.id) if ledger else None
    if reading is None:
        return "unread", None
    return ("read" if reading.text == text_hash(claim.text) else "stale"), reading


def unread(catalog: Catalog, engine: str | None = None) -> list[tuple[Claim, str]]:
    """Verified claims with no reading or a stale one, in file order: (claim, 'unread' | 'stale')."""
    found = []
    for claim in catalog.claims:
        if claim.label == "verified" and (engine is None or claim.engine == engine):
            status, _ = reading_of(catalog, claim)
            if status != "read":
                found.append((claim, status))
    return found


def second_reads(catalog: Catalog) -> dict[str, dict[str, int]]:
    """{engine: {verified, read, stale}} for `claims stats`."""
    result = {}
    for engine in catalog.engines:
        statuses = [reading_of(catalog, c)[0] for c in catalog.engine_claims(engine) if c.label == "verified"]
        result[engine] = {"verified": len(statuses), "read": statuses.count("read"), "stale": statuses.count("stale")}
    return result
