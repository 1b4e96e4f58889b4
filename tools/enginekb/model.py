"""The records of the knowledge base as typed, immutable values."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

# The owner of shared facts (claims/context/): claims any engine's records may rest on, no engine's result.
CONTEXT_OWNER = "context"
# How pages name that owner where an engine's name would stand (a figure's row, a scenario's figures).
CONTEXT_NAME = "Shared facts, no engine"
LABELS = ("verified", "inferred", "proposal", "unknown", "repo-reported", "measured")
# How each label is written for readers, and a mark that tells labels apart without colour.
LABEL_TITLES = {
    "verified": "Verified",
    "inferred": "Inferred",
    "proposal": "Proposal",
    "unknown": "Unknown",
    "repo-reported": "repo-reported",
    "measured": "measured",
}
LABEL_MARKS = {"verified": "\u2714", "inferred": "\u2248", "proposal": "\u25c7", "unknown": "?",
               "repo-reported": "\u201d", "measured": "#"}


def claim_anchor(claim_id: str) -> str:
    """The HTML id of a claim on its page; lint rejects two ids with the same anchor."""
    return "claim-" + re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


@dataclass(frozen=True)
class Engine:
    id: str
    name: str
    repository: str
    pin: str
    pin_date: str
    licence: str
    study_commit: str

    def permalink(self, file: str, commit: str, lines: tuple[int, int] | None = None) -> str:
        """A link to `file` at `commit` on the upstream host, with a line anchor when known."""
        url = f"{self.repository}/blob/{commit}/{quote(file, safe='/')}"  # a path, never markup
        if lines:
            start, end = lines
            url += f"#L{start}" if start == end else f"#L{start}-L{end}"
        return url


@dataclass(frozen=True)
class Owner:
    """The owner of claims that are no engine's (claims/context/): what a page shows in an engine's place."""

    id: str
    name: str


@dataclass(frozen=True)
class Rubric:
    """What a row grades and what each verdict means on it, so equal evidence gets an equal verdict."""

    grades: str
    meanings: tuple[tuple[str, str], ...]  # (verdict, what it means on this row), in the order written
    rules: tuple[str, ...] = ()  # ids of the rules of grading this row applies (Catalog.rules)
    note: str | None = None  # why one verdict on every engine is the finding, where it is

    @property
    def verdicts(self) -> tuple[str, ...]:
        return tuple(verdict for verdict, _ in self.meanings)

    def meaning(self, verdict: str) -> str | None:
        return dict(self.meanings).get(verdict)


@dataclass(frozen=True)
class Rule:
    """A rule of grading: how every row settles one recurring question (inheritance, example code ...)."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Dimension:
    key: str
    title: str
    layer: str
    layer_title: str
    related: tuple[str, ...] = ()  # other rows whose claims bear on this one (`claims regrade` points the grader there)
    rubric: Rubric | None = None  # None only when dimensions.yaml gives none (a lint error)
    line: int = 0  # where the row stands in dimensions.yaml


@dataclass(frozen=True)
class Cite:
    """One citation: a symbol (or a phrase of prose) in a file of an engine's repository."""

    file: str
    commit: str
    symbol: str | None = None
    phrase: str | None = None
    contains: str | None = None
    line: int = 0  # where the cite stands in its claims file
    repo: str = ""  # the engine whose repository holds the file: the claim's own, or a context cite's `repo`

    @property
    def target(self) -> str:
        return self.symbol if self.symbol is not None else self.phrase  # type: ignore[return-value]

    @property
    def target_kind(self) -> str:
        return "symbol" if self.symbol is not None else "phrase"


@dataclass(frozen=True)
class Count:
    """A number the claim quotes and the query (`how`) that recomputes it at the pin."""

    value: int
    how: dict[str, Any]
    line: int = 0
    study: tuple[int | str, str] | None = None  # (the earlier study's figure, what it counted)

    @property
    def query(self) -> str:
        """The query in a stable text form: the lock's key for this count."""
        return json.dumps(self.how, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class ModelRow:
    """A model family as a row of a models report: what a claim about that family describes."""

    family: str
    task: str
    stages: tuple[str, ...]
    streaming: str
    deploy: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    id: str
    engine: str
    label: str
    dimension: str
    text: str
    path: Path
    line: int
    cites: tuple[Cite, ...] = ()
    count: Count | None = None
    provenance: dict[str, str] | None = None
    note: str | None = None
    scope: str | None = None  # which sibling paths a generalising claim was checked against, and how
    see: tuple[str, ...] = ()
    report: str = ""  # sub-directory of the engine's claims: the report page the claim lives on
    model: ModelRow | None = None
    measurement: tuple[float, str] | None = None  # (value, unit) of a measured claim
    absence: bool = False  # the claim states that something is absent
    rests_on: tuple[str, ...] = ()  # the claims a proposal or an inference rests on
    maturity: tuple[str, int] | None = None  # (level, index of the cite that states it): enginekb.maturity


@dataclass
class Catalog:
    """Everything under claims/: engines, the comparison's dimensions and the claims."""

    root: Path
    engines: dict[str, Engine]
    layers: list[tuple[str, str]]  # (key, title) in the comparison's order
    dimensions: dict[str, Dimension]
    claims: list[Claim] = field(default_factory=list)
    ids: dict[str, list[tuple[Path, int]]] = field(default_factory=dict)  # where each id stands
    cells: list = field(default_factory=list)  # enginekb.cells.Cell, one per engine and row
    inventory: object = None  # enginekb.artifacts.Inventory: the study's artifacts, when claims/ lists them
    scenarios: list = field(default_factory=list)  # enginekb.scenarios.Scenario, one per question
    ledgers: dict = field(default_factory=dict)  # engine id -> enginekb.ledger.Ledger, the second readings
    study_coverage: list = field(default_factory=list)  # enginekb.study_coverage.DocumentCoverage, one per document
    disagreements: list = field(default_factory=list)  # enginekb.disagreements.Disagreement
    rules: dict[str, Rule] = field(default_factory=dict)  # the rules of grading, by id, in the order written
    models: list = field(default_factory=list)  # enginekb.modelrecords.ModelRecord, one per family
    hardware: object = None  # enginekb.hardware.Hardware: the classes needs and figures are on
    _index: tuple | None = field(default=None, init=False, repr=False, compare=False)  # of claim(): ids to positions

    def claim(self, claim_id: str) -> Claim | None:
        """The first claim with this id. Looked up in an index of `claims` that is rebuilt whenever the
        list is another list or has another length, and a hit is confirmed by its id."""
        index = self._index
        if index is None or index[0] is not self.claims or index[1] != len(self.claims):
            positions: dict[str, int] = {}
            for position, claim in enumerate(self.claims):
                positions.setdefault(claim.id, position)
            index = self._index = (self.claims, len(self.claims), positions)
        position = index[2].get(claim_id)
        if position is None:
            return None
        claim = self.claims[position]
        if claim.id != claim_id:  # an element replaced in place: read the list itself
            return next((claim for claim in self.claims if claim.id == claim_id), None)
        return claim

    def owner(self, owner_id: str) -> Engine | Owner:
        """Who a claim belongs to, for display: its engine, or the shared-facts owner, which is no engine."""
        return self.engines.get(owner_id) or Owner(CONTEXT_OWNER, CONTEXT_NAME)

    def engine_claims(self, engine_id: str) -> list[Claim]:
        return [claim for claim in self.claims if claim.engine == engine_id]

    def claims_in_repository(self, engine_id: str) -> list[Claim]:
        """The claims that cite the engine's repository or count in it: its own, and the shared
        context claims with a cite naming `repo: <engine_id>`."""
        return [claim for claim in self.claims
                if claim.engine == engine_id or any(cite.repo == engine_id for cite in claim.cites)]

    def with_pin(self, engine_id: str, commit: str) -> Catalog:
        """The same records with one engine pinned elsewhere: cites of its repository that followed the
        pin follow it (a context claim's too)."""
        old = self.engines[engine_id].pin
        engines = dict(self.engines) | {engine_id: replace(self.engines[engine_id], pin=commit)}
        claims = [
            replace(claim, cites=tuple(replace(c, commit=commit) if c.repo == engine_id and c.commit == old else c
                                       for c in claim.cites))
            for claim in self.claims
        ]
        return replace(self, engines=engines, claims=claims)
