"""Problems found in the records, reported as `path:line: claim-id: what is wrong`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    path: Path
    line: int
    claim: str  # the claim id, or "-" where the problem is not inside one claim
    message: str

    def __str__(self) -> str:
        return f"{display_path(self.path)}:{self.line}: {self.claim}: {self.message}"


class CatalogError(Exception):
    """Raised with every problem found, so that one run reports them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))  # a rule broken twice in one place is said once
        super().__init__("\n".join(map(str, self.problems)))


def display_path(path: Path) -> str:
    """The path relative to the working directory when it lies below it, else as given."""
    path = Path(path)
    try:  # the folder resolved, not the name: a symbolic link is named as itself, not as its target
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


