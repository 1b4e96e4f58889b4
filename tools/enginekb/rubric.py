"""A row's rubric in claims/dimensions.yaml: what the row grades and what each verdict means on it.

A graded row defines `yes`, `partial` and `no` (and `n/a` where the question may not arise); a
descriptive row, which lists rather than grades, defines only `n/a`. A cell may use `unknown` on any
row and otherwise only the verdicts its row's rubric defines (checked in `cells.check_cells`).
"""

from __future__ import annotations

from pathlib import Path

from .model import Rubric, Rule
from .problems import Problem
from .rules import check_rule_names
from .yamlfile import LocatedYaml

# `unknown` is allowed on every row, so no rubric defines it; it means the same everywhere.
UNKNOWN_MEANING = "The claims at the pin do not settle this row for the engine."

GRADED = ("yes", "partial", "no")
MEANING_FIELDS = (*GRADED, "n/a")
SHAPE = ("rubric: {grades: what the row grades, yes: ..., partial: ..., no: ...} (n/a optional), "
         "or {grades, n/a} for a descriptive row; optionally rules: [rule ids] and note: why one verdict on "
         "every engine is the finding")


def read_rubric(raw, located: LocatedYaml, location: tuple, key: str, problems: list[Problem],
                rules: dict[str, Rule]) -> Rubric | None:
    """The rubric of the row `key` found at `location` (its mapping); problems reported, None if unusable.
    `rules` are the rules of grading the rubric may name."""
    path: Path = located.path

    def problem(message: str, where: tuple = ()) -> None:
        problems.append(Problem(path, located.line_of(location + where), key, message))

    if raw is None:
        problem(f"no rubric: say what the row grades and what each verdict means ({SHAPE})")
        return None
    if not isinstance(raw, dict):
        problem(f"expected {SHAPE}", ("rubric",))
        return None
    before = len(problems)
    unknown = sorted(str(field) for field in raw if field not in ("grades", *MEANING_FIELDS, "rules", "note"))
    if unknown:
        problem(f"rubric: unknown field {', '.join(unknown)} (allowed: grades, {', '.join(MEANING_FIELDS)}, rules, "
                "note)", ("rubric",))
    named = check_rule_names(raw.get("rules", []), rules, lambda message: problem(message, ("rubric", "rules")))
    blank = [field for field in ("grades", *MEANING_FIELDS, "note")
             if field in raw and not (isinstance(raw[field], str) and raw[field].strip())]
    for field in blank:
        problem(f"rubric: {field}: one non-blank line of text", ("rubric", field))
    if "grades" not in raw:
        problem("rubric: grades: say what the row grades", ("rubric",))
    given = [verdict for verdict in GRADED if verdict in raw]
    if given and len(given) < len(GRADED):
        missing = ", ".join(v for v in GRADED if v not in raw)
        problem(f"rubric: missing {missing}: a graded row defines yes, partial and no", ("rubric",))
    elif not given and "n/a" not in raw:
        problem(f"rubric: defines no verdict; expected {SHAPE}", ("rubric",))
    if len(problems) > before:
        return None
    return Rubric(" ".join(raw["grades"].split()),
                  tuple((verdict, " ".join(raw[verdict].split())) for verdict in MEANING_FIELDS if verdict in raw),
                  named, " ".join(raw["note"].split()) if "note" in raw else None)
