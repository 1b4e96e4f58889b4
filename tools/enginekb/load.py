"""Load claims/ into a Catalog, reporting every problem at once.

The JSON Schema (claims/claim.schema.json) checks the shape of each claim; this module adds what a
schema cannot know: the engines and dimensions that exist, unique ids, and references between claims.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .frame import HTTPS_URL, load_dimensions, load_engines, read_records
from .hardware import NO_HARDWARE
from .layout import (CELLS_FILE, CLAIMS_DIR, COVERAGE_DIR, DIMENSIONS_FILE, ENGINES_FILE, LEDGER_FILE, MODELS_DIR,
                     SCENARIOS_DIR, SCHEMA_FILE)
from .maturity import maturity_problems
from .model import CONTEXT_OWNER, Catalog, Claim, Cite, Count, ModelRow, claim_anchor
from .problems import CatalogError, Problem
from .schema import ClaimsSchema
from .scope import generalisations
from .store import RecordStore, default_directory
from .yamlfile import LocatedYaml, YamlError, read_text

# Directories of claims/ that are not engines.
RESERVED_DIRS = {SCENARIOS_DIR: "the scenarios", COVERAGE_DIR: "the study's coverage", MODELS_DIR: "the model records",
                 CONTEXT_OWNER: "the shared facts (context claims)"}
SAFE_ID = re.compile(r"[A-Za-z0-9._/-]+")
ID_LINE = re.compile(r"^\s*-?\s*id:\s*['\"]?([a-z0-9][a-z0-9.-]*/[a-z0-9][a-z0-9.-]*)", re.MULTILINE)


def find_root(start: Path | None = None) -> Path:
    """The nearest directory at or above `start` that holds claims/engines.yaml."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / CLAIMS_DIR / ENGINES_FILE).is_file():
            return candidate
    raise CatalogError([Problem(here, 0, "-", f"no {CLAIMS_DIR}/{ENGINES_FILE} here or above")])


def load_catalog(root: Path, store: RecordStore | None = None, claims_only: bool = False) -> Catalog:
    """Every record under root/claims. Unchanged files come from the record store (by default the one
    in ~/.cache/enginekb, or $ENGINEKB_CACHE; `off` disables it) without being parsed again; every
    file is validated on every load. `claims_only` (for commands that show claims and nothing else:
    `claims grep`, `claims show`) reads the engines, the rows and the claims files, each checked as
    always, and leaves the other kinds of record and the checks across them to `claims lint`."""
    claims_dir = root / CLAIMS_DIR
    store = store or RecordStore(default_directory())
    problems: list[Problem] = []
    engines = load_engines(claims_dir / ENGINES_FILE, problems, store)
    before = len(problems)
    layers, dimensions, rules = load_dimensions(claims_dir / DIMENSIONS_FILE, problems, store)
    # A dimensions file with errors may leave rows out: a record naming one is not a second error.
    rows_known = len(problems) == before
    catalog = Catalog(root, engines, layers, dimensions, rules=rules, hardware=NO_HARDWARE)
    for reserved, holds in RESERVED_DIRS.items():
        if reserved in engines:
            problems.append(Problem(claims_dir / ENGINES_FILE, 1, reserved,
                                    f"engine id {reserved!r} is taken: claims/{reserved}/ holds {holds}"))
    for path in sorted(claims_dir.rglob("*")):
        link = _link_problem(path, claims_dir) if path.is_symlink() else None
        if link is not None:
            problems.append(link)
            continue
        if path.suffix not in (".yaml", ".yml"):
            continue
        if path.suffix == ".yml":
            problems.append(Problem(path, 0, "-", "records end in .yaml; this file would never be read"))
        elif _is_claims_file(path, claims_dir):
            catalog.claims.extend(_load_claims_file(path, claims_dir, catalog, problems, store, rows_known))
        elif not claims_only:
            from .kinds import read_other  # the other kinds' modules: only a load of every kind pays for them

            read_other(path, claims_dir, catalog, problems, store)
    store.save(partial=claims_only)
    _check_references(catalog, problems)
    if claims_only:
        if problems:
            raise CatalogError(problems)
        return catalog
    from .kinds import check_across

    check_across(catalog, claims_dir, problems, rows_known)
    if problems:
        raise CatalogError(problems)
    return catalog


def _is_claims_file(path: Path, claims_dir: Path) -> bool:
    """Whether `path` is a file of claims: not in claims/ itself, nor among the scenarios, model records or
    coverage, nor an engine's cells or second readings."""
    if path.parent in (claims_dir, claims_dir / COVERAGE_DIR, claims_dir / SCENARIOS_DIR, claims_dir / MODELS_DIR):
        return False
    return not (path.name in (CELLS_FILE, LEDGER_FILE) and path.parent.parent == claims_dir)


def _link_problem(path: Path, claims_dir: Path) -> Problem | None:
    """A symbolic link under claims/ is refused when it leads to a directory (whose records the walk
    would skip without a word) or out of claims/; a link to a file inside the tree is read as that file."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return Problem(path, 0, "-", "a symbolic link that leads nowhere")
    if target.is_dir():
        return Problem(path, 0, "-", "a symbolic link to a directory: the records under it would not be read; "
                                     "move them into claims/")
    if not target.is_relative_to(claims_dir.resolve()):
        return Problem(path, 0, "-", "a symbolic link out of claims/: records live in the tree")
    return None


def _load_claims_file(path: Path, claims_dir: Path, catalog: Catalog, problems: list[Problem],
                      store: RecordStore, rows_known: bool) -> list[Claim]:
    located = read_records(path, problems, store)
    if located is None:
        _salvage_ids(path, catalog)
        return []
    if not isinstance(located.data, list):
        problems.append(Problem(path, 1, "-", "a claims file is a YAML list of claims"))
        return []
    engine_id, *subdirectories = path.relative_to(claims_dir).parts[:-1] or [""]
    report = "/".join(subdirectories)  # claims/<engine>/<report>/*.yaml live on the engine's <report> page
    known = engine_id in catalog.engines or engine_id == CONTEXT_OWNER
    if not known:
        problems.append(Problem(path, 1, "-", f"unknown engine directory {engine_id!r} (engines: {', '.join(catalog.engines)})"))
    invalid = set()
    for location, message in ClaimsSchema.at(claims_dir / SCHEMA_FILE).errors(located.data):
        index = location[0] if location else None
        invalid.add(index)
        problems.append(Problem(path, located.line_of(location), _claim_id(located.data, index), message))
    claims = []
    for index, raw in enumerate(located.data):
        if not isinstance(raw, dict):
            continue
        line = located.line_of((index,))
        problems.extend(_check_names(raw, engine_id, path, line, catalog, rows_known))
        if isinstance(raw.get("id"), str):
            catalog.ids.setdefault(raw["id"], []).append((path, line))
        if index not in invalid and known:
            claim = _build_claim(raw, engine_id, report, path, located, index, catalog, problems)
            if claim is not None:
                problems.extend(_check_claim(claim))
                claims.append(claim)
    return claims


def _salvage_ids(path: Path, catalog: Catalog) -> None:
    """Register the ids of a file that does not parse, so `see:` into it is not a second, false error."""
    try:
        text = read_text(path)
    except (OSError, YamlError):
        return
    for match in ID_LINE.finditer(text):
        catalog.ids.setdefault(match.group(1), []).append((path, text.count("\n", 0, match.start()) + 1))


def _claim_id(data: list, index: Any) -> str:
    """The id a problem is reported under; "-" for an id that is not one (it is repeated in messages)."""
    if isinstance(index, int) and isinstance(data[index], dict) and isinstance(data[index].get("id"), str):
        return data[index]["id"] if SAFE_ID.fullmatch(data[index]["id"]) else "-"
    return "-"


def _build_claim(raw: dict, owner: str, report: str, path: Path, located: LocatedYaml, index: int,
                 catalog: Catalog, problems: list[Problem]) -> Claim | None:
    """The claim of `owner` (an engine id, or `context` for a shared fact); None when a cite names a
    repository that is not an engine's."""
    cites = []
    for position, cite in enumerate(raw.get("cites", [])):
        line = located.line_of((index, "cites", position))
        repo = cite.get("repo", owner)
        if owner != CONTEXT_OWNER and repo != owner:
            problems.append(Problem(path, line, raw["id"], "repo: only a context claim's cite names a repository; "
                                                           "an engine's claims cite the engine's own"))
            return None
        if repo not in catalog.engines:
            problems.append(Problem(path, line, raw["id"], "a context claim's cite names the engine whose pinned "
                                    f"repository holds the file: repo: <{'|'.join(catalog.engines)}>"
                                    if repo == CONTEXT_OWNER else f"repo: unknown engine {repo!r}"))
            return None
        cites.append(Cite(file=cite["file"], commit=cite.get("commit", catalog.engines[repo].pin),
                          symbol=cite.get("symbol"), phrase=cite.get("phrase"), contains=cite.get("contains"),
                          line=line, repo=repo))
    count, model = raw.get("count"), raw.get("model")
    if owner == CONTEXT_OWNER and count:
        problems.append(Problem(path, located.line_of((index, "count")), raw["id"],
                                "count: a context claim counts nothing (a count belongs to one engine's repository)"))
        return None
    return Claim(
        id=raw["id"],
        engine=owner,
        label=raw["label"],
        dimension=raw["dimension"],
        text=raw["text"].strip(),
        path=path,
        line=located.line_of((index,)),
        cites=tuple(cites),
        count=Count(count["value"], count["how"], located.line_of((index, "count")),
                    (count["study"]["value"], count["study"]["counted"]) if "study" in count else None) if count else None,
        provenance=raw.get("provenance"),
        note=raw.get("note"),
        scope=raw.get("scope"),
        see=tuple(raw.get("see", ())),
        report=report,
        measurement=(raw["measurement"]["value"], raw["measurement"]["unit"]) if "measurement" in raw else None,
        absence=raw.get("absence", False),
        rests_on=tuple(raw.get("rests_on", ())),
        maturity=(raw["maturity"]["level"], raw["maturity"]["cite"]) if "maturity" in raw else None,
        model=ModelRow(model["family"], model["task"], tuple(model["stages"]), model["streaming"],
                       tuple(model.get("deploy", ()))) if model else None,
    )


def _check_names(raw: dict, engine_id: str, path: Path, line: int, catalog: Catalog, rows_known: bool) -> list[Problem]:
    """Checks on the id and dimension, run even when the rest of the claim is malformed; the
    dimension only when the dimensions file read without error (else its own error says it, once)."""
    claim_id, dimension = raw.get("id"), raw.get("dimension")
    problems = []
    if isinstance(claim_id, str) and claim_id.split("/", 1)[0] != engine_id:
        problems.append(Problem(path, line, claim_id, f"id must start with '{engine_id}/' (the engine of its directory)"))
    if isinstance(dimension, str) and rows_known and dimension not in catalog.dimensions:
        problems.append(Problem(path, line, str(claim_id or "-"), f"unknown dimension {dimension!r} (see claims/{DIMENSIONS_FILE})"))
    return problems


def _check_claim(claim: Claim) -> list[Problem]:
    problems = []

    def problem(line: int, message: str) -> None:
        problems.append(Problem(claim.path, line, claim.id, message))

    for message in maturity_problems(claim):
        problem(claim.line, message)

    for cite in claim.cites:
        if not is_repository_path(cite.file):
            problem(cite.line, f"cite file {cite.file!r} must be a relative path inside the repository")
        if cite.contains and cite.phrase is not None:
            problem(cite.line, "`contains` needs a symbol to look inside, not a phrase")
    if claim.label == "verified" and not claim.scope:
        found = generalisations(claim.text, counted=claim.count is not None)
        if found:
            problem(claim.line, f"the text generalises ({'; '.join(found)}) but has no `scope`: say which sibling "
                                "paths were read and how, narrow the text, or label it inferred")
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
    source = (claim.provenance or {}).get("source", {})
    if "repository" in source and not HTTPS_URL.match(source["repository"]):
        problem(claim.line, "provenance.source.repository: an https:// URL (letters, digits and ._~%/- only)")
    if "path" in source and not is_repository_path(source["path"]):
        problem(claim.line, "provenance.source.path must be a relative path inside the repository")
    return problems


def is_repository_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\\" not in path and all(p not in ("", ".", "..") for p in parts)


def _check_references(catalog: Catalog, problems: list[Problem]) -> None:
    for claim_id, places in catalog.ids.items():
        first_path, first_line = places[0]
        for path, line in places[1:]:
            problems.append(Problem(path, line, claim_id, f"duplicate id (first at {first_path.name}:{first_line})"))
    anchors: dict[str, str] = {}
    for claim_id in catalog.ids:
        other = anchors.setdefault(claim_anchor(claim_id), claim_id)
        if other != claim_id:
            path, line = catalog.ids[claim_id][0]
            problems.append(Problem(path, line, claim_id, f"id differs from {other!r} only in punctuation: "
                                                          "both would get the same anchor on the page"))
    for claim in catalog.claims:
        for field, others in (("see", claim.see), ("rests_on", claim.rests_on)):
            for other in others:
                if other == claim.id:
                    problems.append(Problem(claim.path, claim.line, claim.id, f"{field}: a claim cannot refer to itself"))
                elif other not in catalog.ids:
                    problems.append(Problem(claim.path, claim.line, claim.id, f"{field}: unknown claim {other!r}"))
