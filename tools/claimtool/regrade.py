"""`claims regrade`: a blind second grading of the verdict cells, and its comparison with them.

`claims regrade [ROW]` prints a form a second grader fills in: the rules of grading, then for each graded
row its rubric and, per engine, the claims that bear on it (those on the row and those the cell rests on,
wherever they are filed) with their labels, cited paths, scope and notes, and an empty `verdict`. The
form never shows a cell's verdict or answer, so a grader who fills it in has only the evidence and the
rubric. `claims regrade --compare FILE` reads a filled form back and says how often the grader and the
cells agree, per row, per layer and overall, with Cohen's kappa (agreement beyond chance); a blank
verdict is left out of the counts.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from enginekb.model import LABEL_TITLES, Catalog, Claim, Dimension
from enginekb.problems import Problem
from enginekb.rubric import UNKNOWN_MEANING
from enginekb.yamlfile import YamlError, load_yaml

FORM = "enginekb-regrade"
INSTRUCTIONS = (
    "Grade each engine on each row from the claims in this form and nothing else: those listed under the row "
    "and engine, and the engine's claims under the row's `related_rows`, which bear on it too. Set `verdict` to "
    "one of the verdicts the row's `meanings` define, or `unknown` when the claims do not settle it. Apply the "
    "rules the row names (written out under `rules`). A verdict rests on Verified, repo-reported or measured "
    "claims; an Inferred claim supports a verdict only as Inferred, and a Proposal is a design suggestion, "
    "never evidence. Leave a verdict blank to skip it. Then run `claims regrade --compare THIS-FILE`.")
LABEL_MEANINGS = {
    "verified": "the cited code at the pin shows everything the text says",
    "repo-reported": "the upstream repository states it (documentation, README); not checked in code",
    "measured": "a figure someone measured, with its provenance",
    "inferred": "our reading, following from what is cited, not shown by it in full",
    "proposal": "a design suggestion of ours: not evidence",
    "unknown": "not settled at the pin",
}


class FormError(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def graded_rows(catalog: Catalog, selector: str | None = None) -> list[Dimension]:
    """The graded rows (a rubric with yes/partial/no), all or those of one row or one layer key."""
    rows = [d for d in catalog.dimensions.values() if d.rubric and "yes" in d.rubric.verdicts]
    if selector:
        rows = [d for d in rows if selector in (d.key, d.layer)]
    return rows


def _claim_entry(claim: Claim) -> dict:
    entry = {"id": claim.id, "label": LABEL_TITLES[claim.label], "row": claim.dimension, "text": claim.text,
             "cites": [f"{c.file} : {c.target}" + (f" (contains {c.contains})" if c.contains else "")
                       for c in claim.cites]}
    if claim.count is not None:
        entry["count"] = claim.count.value
    if claim.absence:
        entry["absence"] = True
    for field in ("scope", "note"):
        if getattr(claim, field):
            entry[field] = getattr(claim, field)
    return entry


def evidence_for(catalog: Catalog, engine: str, row: Dimension) -> list[Claim]:
    """The engine's claims on the row, then those its cell rests on from other rows."""
    cell = next((c for c in catalog.cells if c.engine == engine and c.dimension == row.key), None)
    on_row = [c for c in catalog.claims if c.engine == engine and c.dimension == row.key]
    seen = {c.id for c in on_row}
    elsewhere = [catalog.claim(i) for i in (cell.rests_on if cell else ()) if i not in seen and catalog.claim(i)]
    return on_row + elsewhere


def blank_form(catalog: Catalog, selector: str | None = None) -> dict:
    """The form for the rows selected: everything a grader needs, and no verdict."""
    rows = graded_rows(catalog, selector)
    named = {rule for row in rows for rule in row.rubric.rules}
    return {
        "form": FORM,
        "instructions": INSTRUCTIONS,
        "labels": LABEL_MEANINGS,
        "unknown": UNKNOWN_MEANING,
        "rules": [{"id": r.id, "title": r.title, "text": r.text} for r in catalog.rules.values()
                  if r.id in named or selector is None],
        "rows": [{
            "row": row.key, "title": row.title, "layer": row.layer_title, "grades": row.rubric.grades,
            "meanings": dict(row.rubric.meanings), "rules": list(row.rubric.rules),
            "related_rows": [key for key in row.related if key != row.key],
            "engines": [{"engine": engine, "name": catalog.engines[engine].name, "verdict": "",
                         "claims": [_claim_entry(c) for c in evidence_for(catalog, engine, row)]}
                        for engine in catalog.engines if catalog.engine_claims(engine)],
        } for row in rows],
    }


def format_form(form: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(form, indent=1, ensure_ascii=False)
    return yaml.safe_dump(form, sort_keys=False, allow_unicode=True, width=110)


def read_grades(path: Path, catalog: Catalog) -> dict[tuple[str, str], str]:
    """{(row, engine): verdict} from a filled form (YAML or JSON); FormError lists every problem."""
    try:
        located = load_yaml(path)
    except (OSError, YamlError) as error:
        line = getattr(error, "line", 0)
        raise FormError([Problem(path, line, "-", getattr(error, "message", str(error)))]) from None
    problems: list[Problem] = []

    def problem(where: tuple, name: str, message: str) -> None:
        problems.append(Problem(path, located.line_of(where), name, message))

    data = located.data
    if not (isinstance(data, dict) and data.get("form") == FORM and isinstance(data.get("rows"), list)):
        raise FormError([Problem(path, 1, "-", f"not a regrade form: expected form: {FORM} and a list `rows` "
                                               "(print one with `claims regrade`)")])
    grades: dict[tuple[str, str], str] = {}
    for index, row in enumerate(data["rows"]):
        where = ("rows", index)
        key = row.get("row") if isinstance(row, dict) else None
        dimension = catalog.dimensions.get(key) if isinstance(key, str) else None
        if dimension is None or not isinstance(row.get("engines"), list):
            problem(where, str(key or "-"), "unknown row, or a row without its list `engines`")
            continue
        allowed = (*dimension.rubric.verdicts, "unknown")
        for position, entry in enumerate(row["engines"]):
            at = (*where, "engines", position)
            engine = entry.get("engine") if isinstance(entry, dict) else None
            name = f"{key}/{engine}"
            verdict = entry.get("verdict") if isinstance(entry, dict) else None
            if engine not in catalog.engines:
                problem(at, name, f"unknown engine {engine!r}")
            elif verdict in (None, ""):
                continue
            elif verdict not in allowed:
                problem((*at, "verdict"), name, f"verdict {verdict!r}: this row takes {', '.join(allowed)}")
            elif (key, engine) in grades:
                problem(at, name, "graded twice")
            else:
                grades[(key, engine)] = verdict
    if problems:
        raise FormError(problems)
    return grades


def kappa(pairs: list[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two graders over `pairs`; None where chance agreement is 1 (one category only)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[c] * second[c] for c in first) / (n * n)
    return None if expected == 1 else round((observed - expected) / (1 - expected), 4)


@dataclass
class Tally:
    pairs: list[tuple[str, str]]

    def summary(self) -> dict:
        agree = sum(a == b for a, b in self.pairs)
        return {"graded": len(self.pairs), "agree": agree,
                "agreement": round(agree / len(self.pairs), 4) if self.pairs else None, "kappa": kappa(self.pairs)}


def compare(catalog: Catalog, grades: dict[tuple[str, str], str]) -> dict:
    """Agreement and kappa of the grader (second) with the cells (first): per row, per layer, overall,
    and every disagreement."""
    cells = {(c.dimension, c.engine): c.verdict for c in catalog.cells}
    rows: dict[str, Tally] = {}
    layers: dict[str, Tally] = {}
    everything, disagreements, uncelled = Tally([]), [], []
    for (row, engine), verdict in grades.items():
        if (row, engine) not in cells:
            uncelled.append(f"{row}/{engine}")
            continue
        pair = (cells[(row, engine)], verdict)
        for tally in (rows.setdefault(row, Tally([])), layers.setdefault(catalog.dimensions[row].layer, Tally([])),
                      everything):
            tally.pairs.append(pair)
        if pair[0] != pair[1]:
            disagreements.append({"row": row, "engine": engine, "cell": pair[0], "grader": pair[1]})
    order = list(catalog.dimensions)
    return {
        "overall": everything.summary(),
        "layers": {key: layers[key].summary() for key, _ in catalog.layers if key in layers},
        "rows": {key: rows[key].summary() for key in order if key in rows},
        "disagreements": sorted(disagreements, key=lambda d: (order.index(d["row"]), d["engine"])),
        "without_cell": sorted(uncelled),
    }


def _line(name: str, summary: dict) -> str:
    agreement = "-" if summary["agreement"] is None else f"{summary['agreement']:.0%}"
    k = "undefined" if summary["kappa"] is None else f"{summary['kappa']:.2f}"
    return f"{name:<30}{summary['agree']:>4}/{summary['graded']:<4}{agreement:>6}   kappa {k}"


def format_comparison(result: dict) -> str:
    lines = [f"{'':<30}agree/graded", _line("overall", result["overall"]), "", "by layer:"]
    lines += [_line(key, s) for key, s in result["layers"].items()]
    lines += ["", "by row:"] + [_line(key, s) for key, s in result["rows"].items()]
    if result["disagreements"]:
        lines += ["", "disagreements (cell -> grader):"]
        lines += [f"  {d['row']} {d['engine']}: {d['cell']} -> {d['grader']}" for d in result["disagreements"]]
    if result["without_cell"]:
        lines += ["", f"graded but without a cell: {', '.join(result['without_cell'])}"]
    return "\n".join(lines)
