"""A row's rubric on pages: under each `kb:cells` matrix a legend of what its rows grade and what each
verdict means there (`rubric-legend.html.j2`); a cell's evidence panel says what its own verdict
means on its row, drawn by kb.js from the rubrics in claims.json (`exports.py`). The text comes from
claims/dimensions.yaml and is escaped by the templates' `prose` filter."""

from __future__ import annotations

# `unknown` is allowed on every row, so no rubric defines it; it means the same everywhere.
UNKNOWN_MEANING = "The claims at the pin do not settle this row for the engine."
