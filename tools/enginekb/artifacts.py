"""The earlier study's artifacts: claims/study-artifacts.yaml lists every measurement file of the study.

An artifact is *used* when a measured claim names it as its source (`provenance.source.path`); the
file never says so itself, so the two cannot disagree. Every other artifact gives a `reason`
(retracted, superseded, duplicate, no figure, a later commit, not read) and a retracted one names
its replacement. The check runs both ways: an artifact cited by a record may not carry a reason, and a
record citing a file under the study's baselines/ or benchmarks/ must find it in the list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .layout import ARTIFACTS_FILE, ARTIFACTS_SCHEMA_FILE
from .model import Catalog, Claim
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml

INVENTORIED = ("baselines/", "benchmarks/")  # the study's measurement folders


@dataclass(frozen=True)
class Artifact:
    path: str
    measures: str
    commit: str
    files: tuple[str, ...] = ()  # the files a folder row stands for, relative to it; their count is len(files)
    reason: str | None = None
    replacement: str | None = None
    why: str | None = None
    line: int = 0

    @property
    def is_folder(self) -> bool:
        return self.path.endswith("/")


@dataclass(frozen=True)
class Inventory:
    repository: str
    commit: str
    artifacts: tuple[Artifact, ...]


def load_inventory(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> Inventory | None:
    """The inventory file, or None when its shape is wrong (every error reported)."""
    errors = list(ClaimsSchema.at(schema_path).errors(located.data))
    for location, message in errors:
        # The schema's messages name the field after the list index ("[3].reason: ..."): the path already says which.
        message = re.sub(r"^\[\d+\]\.?(: )?", "", message)
        problems.append(Problem(located.path, located.line_of(location), _name(located.data, location), message))
    if errors:
        return None
    data = located.data
    return Inventory(data["repository"], data["commit"], tuple(
        Artifact(raw["path"], " ".join(raw["measures"].split()), raw.get("commit", data["commit"]), tuple(raw.get("files", ())),
                 raw.get("reason"), raw.get("replacement"), " ".join(raw["why"].split()) if "why" in raw else None,
                 located.line_of(("artifacts", index)))
        for index, raw in enumerate(data["artifacts"])))


def _name(data, location: tuple) -> str:
    if len(location) >= 2 and location[0] == "artifacts" and isinstance(data, dict):
        raw = data["artifacts"][location[1]]
        return raw.get("path", "-") if isinstance(raw, dict) else "-"
    return "-"


def citing(inventory: Inventory, artifact: Artifact, catalog: Catalog,
           sources: list[tuple[Claim, str]] | None = None) -> list[Claim]:
    """The measured claims whose source is this artifact (a folder row: any file inside it);
    `sources` is what `_sources` gives, when the caller asks for many artifacts."""
    return [claim for claim, path in (sources if sources is not None else _sources(inventory, catalog))
            if _path_in(path, artifact)]


def _sources(inventory: Inventory, catalog: Catalog) -> list[tuple[Claim, str]]:
    """Each claim drawing on the inventory's repository, with its source's path, in catalog order."""
    repository = inventory.repository.rstrip("/")
    return [(claim, claim.provenance["source"]["path"]) for claim in catalog.claims
            if claim.provenance and claim.provenance["source"]["repository"].rstrip("/") == repository]


def _path_in(path: str, artifact: Artifact) -> bool:
    if not artifact.is_folder:
        return path == artifact.path
    if artifact.files:  # a listed folder holds exactly its files: a file with a row of its own is not inside it
        return path.startswith(artifact.path) and path[len(artifact.path):] in artifact.files
    return path.startswith(artifact.path)


def check_inventory(inventory: Inventory, catalog: Catalog, path: Path, problems: list[Problem]) -> None:
    seen: dict[str, int] = {}
    rows = {a.path: a.line for a in inventory.artifacts}
    sources = _sources(inventory, catalog)  # once, not once per artifact
    drawn_on: set[int] = set()  # the claims some artifact's row holds the source of
    for artifact in inventory.artifacts:
        def problem(message: str) -> None:
            problems.append(Problem(path, artifact.line, artifact.path, message))

        if artifact.path in seen:
            problem(f"listed twice (first at line {seen[artifact.path]})")
        for name in artifact.files:
            if artifact.path + name in rows:
                problem(f"files: {name} has a row of its own (line {rows[artifact.path + name]}); list it once")
        seen.setdefault(artifact.path, artifact.line)
        cited_by = citing(inventory, artifact, catalog, sources)
        drawn_on.update(map(id, cited_by))
        if cited_by and artifact.reason:
            problem(f"marked {artifact.reason} but {cited_by[0].id} draws a figure from it")
        if not cited_by and not artifact.reason:
            problem("no measured record cites it: give a reason (retracted, superseded, duplicate, no-figure, "
                    "later-commit, not-read)")
    for claim, source in sources:
        if source.startswith(INVENTORIED) and id(claim) not in drawn_on:
            problems.append(Problem(claim.path, claim.line, claim.id,
                                    f"its artifact {source} is missing from claims/{ARTIFACTS_FILE}"))
