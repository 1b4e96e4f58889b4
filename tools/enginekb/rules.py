"""The rules of grading: `rules:` in claims/dimensions.yaml, written once and named by id from the rubrics.

A rule settles a question every row meets the same way (does vLLM-Omni inherit vLLM's machinery, does
example code count, which build decides), so that no rubric restates it and none answers it differently.
A rubric lists the rules it applies (`rubric.rules: [id, ...]`); a name that is no rule is a lint error.
"""

from __future__ import annotations

import re

from .model import Rule
from .problems import Problem
from .yamlfile import LocatedYaml

RULE_ID = re.compile(r"^[a-z][a-z0-9-]*\Z")  # a rule's id becomes an anchor on the comparison page
SHAPE = "rules: a list of {id, title, text}, all non-blank strings, ids lower-case letters, digits and hyphens"


def read_rules(located: LocatedYaml, problems: list[Problem]) -> dict[str, Rule]:
    """The rules of the dimensions file, in the order written; problems reported, bad entries left out."""
    raw = located.data.get("rules", []) if isinstance(located.data, dict) else []
    if not isinstance(raw, list):
        problems.append(Problem(located.path, located.line_of(("rules",)), "-", SHAPE))
        return {}
    rules: dict[str, Rule] = {}
    for index, entry in enumerate(raw):
        line = located.line_of(("rules", index))
        name = str(entry.get("id", "-")) if isinstance(entry, dict) else "-"
        if not (isinstance(entry, dict) and set(entry) == {"id", "title", "text"}
                and all(isinstance(entry[f], str) and entry[f].strip() for f in entry) and RULE_ID.match(entry["id"])):
            problems.append(Problem(located.path, line, name, SHAPE))
            continue
        if entry["id"] in rules:
            problems.append(Problem(located.path, line, name, "duplicate rule id"))
            continue
        rules[entry["id"]] = Rule(entry["id"], " ".join(entry["title"].split()), " ".join(entry["text"].split()))
    return rules


def check_rule_names(names, known: dict[str, Rule], problem) -> tuple[str, ...]:
    """The rule ids a rubric names, each reported through `problem` unless it is a rule."""
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        problem("rubric: rules: a list of rule ids (see `rules:` at the top of the file)")
        return ()
    for name in names:
        if name not in known:
            problem(f"rubric: rules: {name!r} is no rule (rules: {', '.join(known) or 'none'})")
    return tuple(names)
