"""A row's rubric on pages: under each `kb:cells` matrix a legend of what its rows grade and what each
verdict means there (`rubric-legend.html.j2`), and in each cell's evidence panel what the cell's own
verdict means on its row (`rubric-note.html.j2`). The text comes from claims/dimensions.yaml and is
escaped by the templates' `prose` filter."""

from __future__ import annotations

from enginekb.model import Dimension

# `unknown` is allowed on every row, so no rubric defines it; it means the same everywhere.
UNKNOWN_MEANING = "The claims at the pin do not settle this row for the engine."


def rubric_note(dimension: Dimension | None, verdict: str) -> dict | None:
    """What a cell's verdict means on its row, and what the row grades; None without a rubric."""
    if dimension is None or dimension.rubric is None:
        return None
    meaning = UNKNOWN_MEANING if verdict == "unknown" else dimension.rubric.meaning(verdict)
    return {"grades": dimension.rubric.grades, "verdict": verdict, "meaning": meaning}
