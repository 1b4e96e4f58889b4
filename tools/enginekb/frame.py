"""The two files that frame the records: claims/engines.yaml (the engines and their pins) and
claims/dimensions.yaml (the comparison's rows, grouped by layer)."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from .model import Dimension, Engine, Rule
from .problems import Problem
from .rubric import read_rubric
from .rules import read_rules
from .regularfile import read_regular
from .yamlfile import MAX_BYTES, LocatedYaml, YamlError, load_yaml

ENGINE_FIELDS = ("id", "name", "repository", "pin", "pin_date", "licence", "study_commit")
SHA = re.compile(r"^[0-9a-f]{40}\Z")
ENGINE_ID = re.compile(r"^[a-z0-9][a-z0-9.-]*\Z")
# Pages link to the repository: only an https URL without characters that could leave an attribute.
HTTPS_URL = re.compile(r"^https://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/[A-Za-z0-9._~%/-]*)?\Z")
# Keys are names: pages use them in ids, classes and data attributes.
LAYER_KEY = re.compile(r"^[a-z][a-z0-9-]*\Z")
DIMENSION_KEY = re.compile(r"^[a-z]+\.[a-z0-9-]+\Z")  # as claim.schema.json's `dimension`


def read_records(path: Path, problems: list[Problem], store=None) -> LocatedYaml | None:
    try:
        return load_yaml(path, store)
    except FileNotFoundError:
        problems.append(Problem(path, 0, "-", "file missing"))
    except YamlError as error:
        problems.append(Problem(error.path, error.line, record_at(error.path, error.line), error.message))
    return None


# `- id: x`, `  id: x` or `- {id: x, ...}`; an id outside the ids' alphabet is not repeated in a message.
_ID_LINE = re.compile(r"^(\s*)(-\s+)?\{?\s*id:\s*['\"]?([A-Za-z0-9._/-]+)['\"]?\s*(?:[,}#]|$)")
_ITEM = re.compile(r"^(\s*)-(?:\s|$)")


def record_at(path: Path, line: int) -> str:
    """The id of the record (a list item with an `id:`) that holds `line` of a file that did not
    parse, read from its text; "-" when no record holds it or the text cannot be read."""
    if line < 1:
        return "-"
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return "-"
    current: tuple[str, int] | None = None  # (id, indentation of its item's dash)
    for row in text.splitlines()[:line]:
        found = _ID_LINE.match(row)
        if found:
            indent = len(found.group(1)) if found.group(2) else len(found.group(1)) - 2
            current = (found.group(3), indent)
            continue
        item = _ITEM.match(row)
        if current and item and len(item.group(1)) <= current[1]:
            current = None  # the next item of the same list (or of an outer one) begins
    return current[0] if current else "-"


def load_engines(path: Path, problems: list[Problem], store=None) -> dict[str, Engine]:
    located = read_records(path, problems, store)
    entries = located.data.get("engines") if located and isinstance(located.data, dict) else None
    if located and not isinstance(entries, list):
        problems.append(Problem(path, 1, "-", "expected a mapping with a list `engines`"))
    engines: dict[str, Engine] = {}
    for index, entry in enumerate(entries or []):
        line = located.line_of(("engines", index))
        if not isinstance(entry, dict):
            problems.append(Problem(path, line, "-", f"an engine is a mapping of {', '.join(ENGINE_FIELDS)}"))
            continue
        name = str(entry.get("id", "-"))
        missing = [f for f in ENGINE_FIELDS if f not in entry]
        extra = sorted(str(f) for f in entry if f not in ENGINE_FIELDS)
        if missing or extra:
            problems.append(Problem(path, line, name, "; ".join(
                part for part in (missing and f"missing field {', '.join(missing)}",
                                  extra and f"unknown field {', '.join(extra)}") if part)))
            continue
        values = {field: entry[field] for field in ENGINE_FIELDS}
        wrong = [field for field, value in values.items() if not isinstance(value, str)]
        if wrong:
            problems.append(Problem(path, line, name, f"{', '.join(wrong)}: expected a string"))
            continue
        for field, message in _engine_field_problems(values):
            problems.append(Problem(path, located.line_of(("engines", index, field)), name, message))
        if values["id"] in engines:
            problems.append(Problem(path, line, name, "duplicate engine id"))
        engines[values["id"]] = Engine(**values)
    return engines


def _engine_field_problems(values: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    if not ENGINE_ID.match(values["id"]):
        found.append(("id", "id: lower-case letters, digits, dots and hyphens"))
    for field in ("pin", "study_commit"):
        if not SHA.match(values[field]):
            found.append((field, f"{field}: a full 40-hex commit SHA"))
    if not HTTPS_URL.match(values["repository"]):
        found.append(("repository", "repository: an https:// URL (letters, digits and ._~%/- only)"))
    try:
        datetime.date.fromisoformat(values["pin_date"])
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", values["pin_date"]):
            raise ValueError
    except ValueError:
        found.append(("pin_date", f"pin_date: a date YYYY-MM-DD, not {values['pin_date']!r}"))
    for field in ("name", "licence"):
        if not values[field].strip():
            found.append((field, f"{field}: must not be blank"))
    return found


def load_dimensions(path: Path, problems: list[Problem], store=None
                    ) -> tuple[list[tuple[str, str]], dict[str, Dimension], dict[str, Rule]]:
    """The layers, their rows and the rules of grading the rows' rubrics name."""
    located = read_records(path, problems, store)
    layers: list[tuple[str, str]] = []
    dimensions: dict[str, Dimension] = {}
    if located is None:
        return layers, dimensions, {}
    rules = read_rules(located, problems)
    entries = located.data.get("layers") if isinstance(located.data, dict) else None
    if not isinstance(entries, list):
        problems.append(Problem(path, 1, "-", "expected a mapping with a list `layers`"))
        return layers, dimensions, rules
    shape = ("a layer has key, title and dimensions (a list of {key, title, rubric}), all strings, and optionally "
             "related (a list of dimension keys)")
    broken = False
    for index, layer in enumerate(entries):
        line = located.line_of(("layers", index))
        related = layer.get("related", []) if isinstance(layer, dict) else None
        if not (isinstance(layer, dict) and _strings(layer, "key", "title") and isinstance(layer.get("dimensions"), list)
                and all(isinstance(d, dict) and _strings(d, "key", "title") for d in layer["dimensions"])
                and isinstance(related, list) and all(isinstance(r, str) for r in related)):
            problems.append(Problem(path, line, "-", shape))
            broken = True
            continue
        if not LAYER_KEY.match(layer["key"]):
            problems.append(Problem(path, located.line_of(("layers", index, "key")), "-",
                                    f"layer key {layer['key']!r}: lower-case letters, digits and hyphens"))
        layers.append((layer["key"], layer["title"]))
        for position, dimension in enumerate(layer["dimensions"]):
            where = located.line_of(("layers", index, "dimensions", position))
            if not DIMENSION_KEY.match(dimension["key"]):
                problems.append(Problem(path, where, "-", f"dimension key {dimension['key']!r}: "
                                                          "<layer>.<name>, lower-case letters, digits and hyphens"))
            if dimension["key"] in dimensions:
                problems.append(Problem(path, where, "-", f"duplicate dimension {dimension['key']}"))
            rubric = read_rubric(dimension.get("rubric"), located, ("layers", index, "dimensions", position),
                                 dimension["key"], problems, rules)
            dimensions[dimension["key"]] = Dimension(dimension["key"], dimension["title"], layer["key"], layer["title"],
                                                     tuple(related), rubric, where)
    # With a layer unread its rows are unknown: naming them is not a second error.
    for dimension in dimensions.values() if not broken else ():
        for other in dimension.related:
            if other not in dimensions:
                problems.append(Problem(path, 1, "-", f"layer {dimension.layer}: related names unknown dimension {other!r}"))
    if not dimensions:
        problems.append(Problem(path, 1, "-", "no dimensions defined"))
    return layers, dimensions, rules


def _strings(mapping: dict, *keys: str) -> bool:
    return all(isinstance(mapping.get(key), str) and mapping[key].strip() for key in keys)
