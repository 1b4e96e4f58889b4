"""Load claims/ into a Catalog, reporting every problem at once.

The JSON Schema (claims/claim.schema.json) checks the shape of each claim; this module adds what a
schema cannot know: the engines and dimensions that exist, unique ids, and references between claims.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from .model import Catalog, Claim, Cite, Count, Dimension, Engine, ModelRow
from .problems import CatalogError, Problem
from .yamlfile import LocatedYaml, YamlError, load_yaml

CLAIMS_DIR = "claims"
ENGINES_FILE = "engines.yaml"
DIMENSIONS_FILE = "dimensions.yaml"
SCHEMA_FILE = "claim.schema.json"
ENGINE_FIELDS = ("id", "name", "repository", "pin", "pin_date", "licence", "study_commit")
SHA = re.compile(r"^[0-9a-f]{40}$")


def find_root(start: Path | None = None) -> Path:
    """The nearest directory at or above `start` that holds claims/engines.yaml."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / CLAIMS_DIR / ENGINES_FILE).is_file():
            return candidate
    raise CatalogError([Problem(here, 0, "-", f"no {CLAIMS_DIR}/{ENGINES_FILE} here or above")])


def load_catalog(root: Path) -> Catalog:
    claims_dir = root / CLAIMS_DIR
    problems: list[Problem] = []
    engines = _load_engines(claims_dir / ENGINES_FILE, problems)
    layers, dimensions = _load_dimensions(claims_dir / DIMENSIONS_FILE, problems)
    catalog = Catalog(root, engines, layers, dimensions)
    for path in sorted(claims_dir.rglob("*.yaml")):
        if path.parent == claims_dir:
            continue  # engines.yaml, dimensions.yaml
        catalog.claims.extend(_load_claims_file(path, claims_dir, catalog, problems))
    _check_references(catalog, problems)
    if problems:
        raise CatalogError(problems)
    return catalog


def _read(path: Path, problems: list[Problem]) -> LocatedYaml | None:
    try:
        return load_yaml(path)
    except FileNotFoundError:
        problems.append(Problem(path, 0, "-", "file missing"))
    except YamlError as error:
        problems.append(Problem(error.path, error.line, "-", error.message))
    return None


def _load_engines(path: Path, problems: list[Problem]) -> dict[str, Engine]:
    located = _read(path, problems)
    entries = located.data.get("engines") if located and isinstance(located.data, dict) else None
    if located and not isinstance(entries, list):
        problems.append(Problem(path, 1, "-", "expected a mapping with a list `engines`"))
    engines: dict[str, Engine] = {}
    for index, entry in enumerate(entries or []):
        line = located.line_of(("engines", index))
        if not isinstance(entry, dict) or sorted(entry) != sorted(ENGINE_FIELDS):
            problems.append(Problem(path, line, "-", f"an engine has exactly the fields {', '.join(ENGINE_FIELDS)}"))
            continue
        values = {name: str(entry[name]) for name in ENGINE_FIELDS}
        if not SHA.match(values["pin"]) or not SHA.match(values["study_commit"]):
            problems.append(Problem(path, line, values["id"], "pin and study_commit must be full 40-hex SHAs"))
        if values["id"] in engines:
            problems.append(Problem(path, line, values["id"], "duplicate engine id"))
        engines[values["id"]] = Engine(**values)
    return engines


def _load_dimensions(path: Path, problems: list[Problem]) -> tuple[list[tuple[str, str]], dict[str, Dimension]]:
    located = _read(path, problems)
    layers: list[tuple[str, str]] = []
    dimensions: dict[str, Dimension] = {}
    if located is None:
        return layers, dimensions
    for index, layer in enumerate((located.data or {}).get("layers") or []):
        try:
            layers.append((layer["key"], layer["title"]))
            for dimension in layer["dimensions"]:
                if dimension["key"] in dimensions:
                    problems.append(Problem(path, located.line_of(("layers", index)), "-", f"duplicate dimension {dimension['key']}"))
                dimensions[dimension["key"]] = Dimension(dimension["key"], dimension["title"], layer["key"], layer["title"])
        except (KeyError, TypeError):
            problems.append(Problem(path, located.line_of(("layers", index)), "-", "a layer has key, title and dimensions of {key, title}"))
    if not dimensions:
        problems.append(Problem(path, 1, "-", "no dimensions defined"))
    return layers, dimensions


@cache
def _validator(schema_path: Path) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _load_claims_file(path: Path, claims_dir: Path, catalog: Catalog, problems: list[Problem]) -> list[Claim]:
    located = _read(path, problems)
    if located is None:
        return []
    if not isinstance(located.data, list):
        problems.append(Problem(path, 1, "-", "a claims file is a YAML list of claims"))
        return []
    engine_id, *subdirectories = path.relative_to(claims_dir).parts[:-1] or [""]
    report = "/".join(subdirectories)  # claims/<engine>/<report>/*.yaml live on the engine's <report> page
    engine = catalog.engines.get(engine_id)
    if engine is None:
        problems.append(Problem(path, 1, "-", f"unknown engine directory {engine_id!r} (engines: {', '.join(catalog.engines)})"))
    invalid = set()
    validator = _validator(claims_dir / SCHEMA_FILE)
    for error in validator.iter_errors(located.data):
        location = tuple(error.absolute_path)
        index = location[0] if location else None
        invalid.add(index)
        problems.append(Problem(path, located.line_of(location), _claim_id(located.data, index), _schema_message(error, location, validator.schema)))
    claims = []
    for index, raw in enumerate(located.data):
        if not isinstance(raw, dict):
            continue
        line = located.line_of((index,))
        problems.extend(_check_names(raw, engine_id, path, line, catalog))
        if isinstance(raw.get("id"), str):
            catalog.ids.setdefault(raw["id"], []).append((path, line))
        if index not in invalid and engine is not None:
            claim = _build_claim(raw, engine, report, path, located, index)
            problems.extend(_check_claim(claim))
            claims.append(claim)
    return claims


def _claim_id(data: list, index: Any) -> str:
    if isinstance(index, int) and isinstance(data[index], dict) and isinstance(data[index].get("id"), str):
        return data[index]["id"]
    return "-"


def _schema_message(error: jsonschema.ValidationError, location: tuple, schema: dict) -> str:
    """A human sentence: the schema's own `x-message` where it has one, else jsonschema's.

    A failure inside an if/then/else branch takes the branch's message: that branch is the rule.
    """
    message = error.schema.get("x-message") if isinstance(error.schema, dict) else None
    path = list(error.absolute_schema_path)
    branches = [i for i, part in enumerate(path) if part in ("then", "else")]
    if message is None and branches:
        message = _schema_at(schema, path[: branches[-1] + 1]).get("x-message")
    field = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location[1:]).lstrip(".")
    return f"{field}: {message or error.message}" if field else (message or error.message)


def _schema_at(schema: dict, path: list) -> Any:
    """The subschema at a jsonschema error's schema path, following local `$ref`s on the way."""
    node: Any = schema
    for part in path:
        while isinstance(node, dict) and part not in node and "$ref" in node:
            node = _resolve_ref(schema, node["$ref"])
        node = _resolve_ref(schema, node["$ref"]) if part == "$ref" else node[part]
    return node


def _resolve_ref(schema: dict, ref: str) -> Any:
    node: Any = schema
    for name in ref.removeprefix("#/").split("/"):
        node = node[name]
    return node


def _build_claim(raw: dict, engine: Engine, report: str, path: Path, located: LocatedYaml, index: int) -> Claim:
    cites = tuple(
        Cite(
            file=cite["file"],
            commit=cite.get("commit", engine.pin),
            symbol=cite.get("symbol"),
            phrase=cite.get("phrase"),
            contains=cite.get("contains"),
            line=located.line_of((index, "cites", position)),
        )
        for position, cite in enumerate(raw.get("cites", []))
    )
    count, model = raw.get("count"), raw.get("model")
    return Claim(
        id=raw["id"],
        engine=engine.id,
        label=raw["label"],
        dimension=raw["dimension"],
        text=raw["text"].strip(),
        path=path,
        line=located.line_of((index,)),
        cites=cites,
        count=Count(count["value"], count["how"], located.line_of((index, "count"))) if count else None,
        provenance=raw.get("provenance"),
        note=raw.get("note"),
        see=tuple(raw.get("see", ())),
        report=report,
        model=ModelRow(model["family"], model["task"], tuple(model["stages"]), model["streaming"],
                       tuple(model.get("deploy", ()))) if model else None,
    )


def _check_names(raw: dict, engine_id: str, path: Path, line: int, catalog: Catalog) -> list[Problem]:
    """Checks on the id and dimension, run even when the rest of the claim is malformed."""
    claim_id, dimension = raw.get("id"), raw.get("dimension")
    problems = []
    if isinstance(claim_id, str) and claim_id.split("/", 1)[0] != engine_id:
        problems.append(Problem(path, line, claim_id, f"id must start with '{engine_id}/' (the engine of its directory)"))
    if isinstance(dimension, str) and dimension not in catalog.dimensions:
        problems.append(Problem(path, line, str(claim_id or "-"), f"unknown dimension {dimension!r} (see claims/{DIMENSIONS_FILE})"))
    return problems


def _check_claim(claim: Claim) -> list[Problem]:
    problems = []

    def problem(line: int, message: str) -> None:
        problems.append(Problem(claim.path, line, claim.id, message))

    for cite in claim.cites:
        if not is_repository_path(cite.file):
            problem(cite.line, f"cite file {cite.file!r} must be a relative path inside the repository")
        if cite.contains and cite.phrase is not None:
            problem(cite.line, "`contains` needs a symbol to look inside, not a phrase")
    if claim.count:
        for key in ("lines", "exclude"):
            pattern = claim.count.how.get(key)
            if pattern is not None:
                try:
                    re.compile(pattern)
                except re.error as error:
                    problem(claim.count.line, f"count.how.{key}: invalid regular expression ({error})")
        if "file" in claim.count.how and not is_repository_path(claim.count.how["file"]):
            problem(claim.count.line, "count.how.file must be a relative path inside the repository")
    return problems


def is_repository_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\\" not in path and all(p not in ("", ".", "..") for p in parts)


def _check_references(catalog: Catalog, problems: list[Problem]) -> None:
    for claim_id, places in catalog.ids.items():
        first_path, first_line = places[0]
        for path, line in places[1:]:
            problems.append(Problem(path, line, claim_id, f"duplicate id (first at {first_path.name}:{first_line})"))
    for claim in catalog.claims:
        for other in claim.see:
            if other not in catalog.ids:
                problems.append(Problem(claim.path, claim.line, claim.id, f"see: unknown claim {other!r}"))
