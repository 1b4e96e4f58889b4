"""`claims lint`: load every record and report every problem, as text, GitHub annotations or JUnit XML."""

from __future__ import annotations

from pathlib import Path

from citecheck.report import annotation_path, github_problems, junit_document
from enginekb.ledger import LEDGER_FILE, unread
from enginekb.load import CLAIMS_DIR
from enginekb.model import Catalog
from enginekb.problems import Problem

TITLE = "claims lint"
SHOWN_WARNINGS = 20  # the rest are one `claims review` away; a wall of warnings hides the errors


def ledger_warnings(catalog: Catalog) -> list[Problem]:
    """A Verified claim with no second reading, or whose text changed since it: a warning, not an error,
    so a new claim can land before its reader has read it."""
    return [Problem(claim.path, claim.line, claim.id,
                    f"no second reading in claims/{claim.engine}/{LEDGER_FILE}" if status == "unread"
                    else f"its text changed since its second reading in claims/{claim.engine}/{LEDGER_FILE}")
            for claim, status in unread(catalog)]


def scenario_reading_warnings(catalog: Catalog) -> list[Problem]:
    """A scenario no second reader has read as it stands: never read, or edited since its last
    reading (the hash it recorded is not the scenario's now). A warning, as for claims."""
    found = []
    for scenario in catalog.scenarios:
        if scenario.read_current:
            continue
        if scenario.readings:
            latest = max(scenario.readings, key=lambda reading: reading.date)
            message = (f"reading out of date: the scenario was edited after its reading of {latest.date} "
                       f"(read {latest.read}, now {scenario.content_hash}); read it again and record the new hash")
        else:
            message = f"no second reading (readings:); the current hash is {scenario.content_hash}"
        found.append(Problem(scenario.path, scenario.line, scenario.id, message))
    return found


def format_scenario_warnings(warnings: list[Problem]) -> str:
    lines = [f"{problem} (warning)" for problem in warnings]
    stale = sum(1 for w in warnings if w.message.startswith("reading out of date"))
    lines.append(f"claims lint: warning: {len(warnings) - stale} scenarios without a second reading, {stale} "
                 f"whose reading is out of date")
    return "\n".join(lines)


def format_warnings(warnings: list[Problem]) -> str:
    lines = [f"{problem} (warning)" for problem in warnings[:SHOWN_WARNINGS]]
    stale = sum(1 for w in warnings if "changed" in w.message)
    more = f"; {len(warnings) - SHOWN_WARNINGS} more not shown" if len(warnings) > SHOWN_WARNINGS else ""
    lines.append(f"claims lint: warning: {len(warnings) - stale} Verified claims without a second reading, {stale} "
                 f"whose reading is stale{more} (`claims review` lists them all)")
    return "\n".join(lines)


def format_github_warnings(warnings: list[Problem], root: Path) -> str:
    return github_problems(warnings[:SHOWN_WARNINGS], root, TITLE, "warning")


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
