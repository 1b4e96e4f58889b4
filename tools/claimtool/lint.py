"""`claims lint`: load every record and report every problem, as text, GitHub annotations or JUnit XML."""

from __future__ import annotations

from pathlib import Path

from citecheck.report import annotation_path, github_problems, junit_document
from enginekb.load import CLAIMS_DIR
from enginekb.problems import Problem

FORMATS = ("text", "github", "junit")
TITLE = "claims lint"


def format_text(problems: list[Problem]) -> str:
    return "\n".join(map(str, problems))


def format_github(problems: list[Problem], root: Path) -> str:
    """One `::error file=…,line=…,title=claims lint::claim-id: reason` per problem."""
    return github_problems(problems, root, TITLE)


def format_junit(problems: list[Problem], root: Path) -> str:
    """One testsuite per engine directory (and `claims` for the files directly in claims/), one
    testcase per records file; a file with problems fails, its failure listing every problem."""
    claims_dir = root / CLAIMS_DIR
    files = {path.resolve(): [] for path in sorted(claims_dir.rglob("*")) if path.suffix in (".yaml", ".yml")}
    for problem in problems:
        files.setdefault(Path(problem.path).resolve(), []).append(problem)
    suites: dict[str, list[dict]] = {}
    for path, found in sorted(files.items(), key=lambda item: annotation_path(item[0], root)):
        shown = annotation_path(path, root)
        try:
            parts = path.relative_to(claims_dir.resolve()).parts
            suite = parts[0] if len(parts) > 1 else CLAIMS_DIR
        except ValueError:
            suite = CLAIMS_DIR
        case = {"classname": suite, "name": shown, "file": shown}
        if found:
            first = found[0]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            case |= {"line": first.line, "failure_type": "invalid record",
                     "failure_message": f"line {first.line}: {first.claim}: {first.message}{more}",
                     "failure_text": "\n".join(f"{shown}:{p.line}: {p.claim}: {p.message}" for p in found)}
        suites.setdefault(suite, []).append(case)
    ordered = sorted(suites.items(), key=lambda item: (item[0] != CLAIMS_DIR, item[0]))
    return junit_document(TITLE, [(name, {}, cases) for name, cases in ordered], None)
