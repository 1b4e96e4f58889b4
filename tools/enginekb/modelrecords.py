"""Model records: claims/models/<id>.yaml, one model family per file.

An engineer picks a model before an engine. A record says what the family needs and costs: its size
per precision, the licence of its weights and of what a run needs beside them (a phonemiser, voice
data), whether its checkpoint can be downloaded, the inputs a call needs, and per engine the variants
that engine's port runs. Every value names its source: a claim (an engine's or a shared context
claim; its label shows), a model card (an https URL, shown as unchecked: no tool reads it), or it
says why it is Unknown. (`model.py` is the claims' data model; this is a record kind of its own.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .frame import HTTPS_URL
from .layout import MODELS_DIR, MODEL_SCHEMA_FILE
from .model import CONTEXT_OWNER, Catalog
from .problems import Problem
from .scenarios import FIGURE_LABELS, file_schema
from .yamlfile import LocatedYaml

ACCESS = ("open", "gated", "none")
# How a value's source is shown: a claim shows its own label; these two have none of their own.
CARD = "card"  # stated by a model card that no tool checks
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Fact:
    """A value and where it comes from: exactly one of `claim`, `card`, or `unknown` (the reason)."""

    value: str
    claim: str
    card: str
    unknown: str
    note: str
    line: int  # of its source (claim, card or unknown): where an error about the source points
    kind: str = ""  # for an input: what it is (reference-audio, speaker-id, ...)
    value_line: int = 0  # of its value

    def source_label(self, catalog: Catalog) -> str:
        """The claim's label, `card` or `unknown`: never Verified unless a Verified claim backs it."""
        if self.claim:
            claim = catalog.claim(self.claim)
            return claim.label if claim else UNKNOWN
        return CARD if self.card else UNKNOWN


@dataclass(frozen=True)
class Weights:
    precision: str
    size: Fact


@dataclass(frozen=True)
class Variant:
    name: str
    checkpoint: str
    parameters: Fact
    weights: tuple[Weights, ...]
    line: int


@dataclass(frozen=True)
class Component:
    name: str
    role: str
    licence: Fact


@dataclass(frozen=True)
class Port:
    engine: str
    variants: tuple[str, ...]
    how: str
    rests_on: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class ModelRecord:
    id: str
    name: str
    task: str
    summary: str
    uses: tuple[str, ...]
    variants: tuple[Variant, ...]
    licence: Fact
    components: tuple[Component, ...]
    access: Fact
    inputs: tuple[Fact, ...]
    ports: tuple[Port, ...]
    no_port: tuple[Port, ...]  # engines shown to have no port: variants empty, `how` empty
    note: str
    path: Path
    line: int

    def facts(self):
        """(field name, fact) for every sourced value of the record, in file order."""
        for variant in self.variants:
            yield f"variants.{variant.name}.parameters", variant.parameters
            for weights in variant.weights:
                yield f"variants.{variant.name}.weights.{weights.precision}", weights.size
        yield "licence.weights", self.licence
        for component in self.components:
            yield f"licence.components.{component.name}", component.licence
        yield "access", self.access
        for fact in self.inputs:
            yield f"inputs.{fact.kind}", fact


def load_model_record(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> ModelRecord | None:
    """One model file; shape errors are reported and the record left out."""
    path, data = located.path, located.data
    name = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else path.stem
    found = list(file_schema(schema_path).errors([data]))
    for location, message in found:
        problems.append(Problem(path, located.line_of(location[1:]), name, message))
    if found:
        return None
    if data["id"] != path.stem:
        problems.append(Problem(path, located.line_of(("id",)), name, f"id must be the file name ({path.stem!r})"))

    def fact(raw: dict, *where) -> Fact:
        source = next((key for key in ("claim", "card", "unknown") if key in raw), "")
        return Fact(" ".join(raw.get("value", "").split()), raw.get("claim", ""), raw.get("card", ""),
                    " ".join(raw.get("unknown", "").split()), " ".join(raw.get("note", "").split()),
                    located.line_of((*where, source)), raw.get("kind", ""), located.line_of((*where, "value")))

    variants = tuple(
        Variant(raw["name"], raw.get("checkpoint", ""), fact(raw["parameters"], "variants", i, "parameters"),
                tuple(Weights(w["precision"], fact(w["size"], "variants", i, "weights", j, "size"))
                      for j, w in enumerate(raw["weights"])),
                located.line_of(("variants", i)))
        for i, raw in enumerate(data["variants"]))
    licence = data["licence"]
    components = tuple(Component(raw["name"], raw["role"], fact(raw["licence"], "licence", "components", i, "licence"))
                       for i, raw in enumerate(licence["components"]))
    ports = tuple(Port(engine, tuple(raw["variants"]), " ".join(raw["how"].split()), tuple(raw["rests_on"]),
                       located.line_of(("ports", engine)))
                  for engine, raw in data["ports"].items())
    no_port = tuple(Port(engine, (), "", tuple(rests_on), located.line_of(("no_port", engine)))
                    for engine, rests_on in data.get("no_port", {}).items())
    return ModelRecord(
        data["id"], " ".join(data["name"].split()), data["task"], " ".join(data["summary"].split()),
        tuple(data.get("uses", ())), variants, fact(licence["weights"], "licence", "weights"), components,
        fact(data["access"], "access"), tuple(fact(raw, "inputs", i) for i, raw in enumerate(data["inputs"])),
        ports, no_port, " ".join(data.get("note", "").split()), path, located.line_of(()))


def check_model_records(catalog: Catalog, problems: list[Problem]) -> None:
    """What the schema cannot know: the claims, engines, variants and other records named exist and fit."""
    names = {record.id for record in catalog.models}
    for record in catalog.models:
        def problem(line: int, message: str) -> None:
            problems.append(Problem(record.path, line, record.id, message))

        seen: dict[str, int] = {}
        for variant in record.variants:
            if variant.name in seen:
                problem(variant.line, f"variants: a second variant named {variant.name!r} (first at line {seen[variant.name]})")
            seen.setdefault(variant.name, variant.line)
            precisions = [w.precision for w in variant.weights]
            for precision in sorted({p for p in precisions if precisions.count(p) > 1}):
                problem(variant.line, f"variants.{variant.name}.weights: precision {precision!r} given twice")
        for other in record.uses:
            if other == record.id:
                problem(record.line, "uses: a record cannot use itself")
            elif other not in names:
                problem(record.line, f"uses: unknown model record {other!r} (claims/{MODELS_DIR}/{other}.yaml)")
        for field, fact in record.facts():
            _check_fact(catalog, field, fact, problem)
        if not record.access.unknown and record.access.value not in ACCESS:
            problem(record.access.value_line, f"access: {record.access.value!r} is not one of {', '.join(ACCESS)}")
        for port in record.ports:
            _check_port(catalog, record, port, lambda message: problem(port.line, f"ports.{port.engine}: {message}"))
        for port in record.no_port:
            def said(message: str) -> None:
                problem(port.line, f"no_port.{port.engine}: {message}")

            if port.engine in {p.engine for p in record.ports}:
                said("the engine is listed under ports too")
            _check_port(catalog, record, port, said)
            claims = [catalog.claim(i) for i in port.rests_on]
            if all(claims) and not any(c.absence for c in claims):
                said("rests on at least one claim that states the absence (absence: true)")


def _check_fact(catalog: Catalog, field: str, fact: Fact, problem) -> None:
    if fact.claim:
        claim = catalog.claim(fact.claim)
        if claim is None:
            problem(fact.line, f"{field}: unknown claim {fact.claim!r}")
        elif claim.label not in FIGURE_LABELS:
            problem(fact.line, f"{field}: {fact.claim} is {claim.label}; a value rests on a Verified, repo-reported or "
                               "measured claim (else name the model card, or say unknown)")
    if fact.card and not HTTPS_URL.match(fact.card):
        problem(fact.line, f"{field}: card: an https:// URL (letters, digits and ._~%/- only)")


def _check_port(catalog: Catalog, record: ModelRecord, port: Port, problem) -> None:
    if port.engine not in catalog.engines:
        problem(f"unknown engine (engines: {', '.join(catalog.engines)})")
        return
    known = {variant.name for variant in record.variants}
    for name in port.variants:
        if name not in known:
            problem(f"variants: unknown variant {name!r} (the record's: {', '.join(sorted(known))})")
    for claim_id in port.rests_on:
        claim = catalog.claim(claim_id)
        if claim is None:
            problem(f"rests_on: unknown claim {claim_id!r}")
        elif claim.engine not in (port.engine, CONTEXT_OWNER):
            problem(f"rests_on: {claim_id} is a claim of {claim.engine}; a port rests on claims of "
                    f"{port.engine} or shared context claims")


def model_named(catalog: Catalog, model_id: str) -> ModelRecord | None:
    return next((record for record in catalog.models if record.id == model_id), None)
