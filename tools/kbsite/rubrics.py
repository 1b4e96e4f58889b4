"""A row's rubric on pages: under each `kb:cells` matrix a legend of what its rows grade and what each
verdict means there (`rubric-legend.html.j2` names the rows), and in a cell's evidence panel what its
own verdict means on its row. kb.js draws both from the rubrics in claims.json (`exports.py`), as
text nodes, when the reader opens them."""

from __future__ import annotations

# `unknown` is allowed on every row, so no rubric defines it; it means the same everywhere.
UNKNOWN_MEANING = "The claims at the pin do not settle this row for the engine."
