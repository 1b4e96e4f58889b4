"""Verdict cells on pages: `kb:cells layer=KEY` (a matrix of rows by engines), and each cell's HTML
for the other renderings that show cells (a scenario's breakdown, kbsite.scenarios). Matrices are
`kb-matrix` tables: engines are columns (`data-engine` on each column
cell), which kb.js lets the reader pick. A cell shows its verdict and answer; its evidence, the claims
it rests on (`data-evidence`, ids), is drawn by kb.js from claims.json on click or tap, so that a
matrix page carries no claim text until it is asked for."""

from __future__ import annotations

import re

from enginekb.cells import Cell, evidence_label
from enginekb.model import Catalog

from .errors import RenderError
from .selection import analysed_engines
from .templating import render_template
from .topics import unique

def cell_of(catalog: Catalog, engine: str, dimension: str) -> Cell | None:
    return next((c for c in catalog.cells if c.engine == engine and c.dimension == dimension), None)


def cell_view(catalog: Catalog, cell: Cell | None) -> dict | None:
    """What a template shows of a cell: verdict, answer, derived label and the ids of its evidence."""
    if cell is None:
        return None
    return {"cell": cell, "label": evidence_label(cell, catalog), "evidence": list(cell.rests_on)}


def _options(options: dict[str, str], allowed: set[str], required: str) -> None:
    unknown = set(options) - allowed
    if unknown or required not in options:
        raise RenderError(f"takes {required}=... and optionally {', '.join(sorted(allowed - {required}))}"
                          + (f"; unknown option {', '.join(sorted(unknown))}" if unknown else ""))


def cell_html(catalog: Catalog, engine: str, dimension: str) -> str:
    return render_template("cell.html.j2", view=cell_view(catalog, cell_of(catalog, engine, dimension)))


def row_anchor(dimension: str) -> str:
    """`row-device-memory`: a matrix row's id, for linking to one comparison row."""
    return "row-" + re.sub(r"[^a-z0-9]+", "-", dimension.lower()).strip("-")


def render_cells(catalog: Catalog, options: dict[str, str], used_ids: set[str]) -> str:
    """`kb:cells layer=KEY [engine=A,B]`: the layer's rows against the engines, a verdict cell each;
    every row has an anchor, unique on the page (`used_ids`)."""
    _options(options, {"layer", "engine"}, "layer")
    if options["layer"] not in dict(catalog.layers):
        raise RenderError(f"unknown layer {options['layer']!r}")
    engines = analysed_engines(catalog, options.get("engine"))
    rows = [(d, unique(row_anchor(d.key), used_ids), [cell_html(catalog, e, d.key) for e in engines])
            for d in catalog.dimensions.values() if d.layer == options["layer"]]
    return render_template("cells.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows,
                           layer=dict(catalog.layers)[options["layer"]])


def render_grid(options: dict[str, str], positional: tuple[str, ...]) -> str:
    """`kb:grid`: the place of the grid at a glance, which docs/assets/grid.js draws from the page's
    `kb:cells` matrices (each names its layer): a verdict mark per row and engine, and no byte more
    for the page to carry. Without script it says where the verdicts are."""
    if options or positional:
        raise RenderError("kb:grid takes no arguments")
    return render_template("grid.html.j2")

