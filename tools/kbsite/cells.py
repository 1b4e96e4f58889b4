"""Verdict cells on pages: `kb:cells layer=KEY` (a matrix of rows by engines), and each cell's HTML
for the other renderings that show cells (a scenario's breakdown). Each cell opens its evidence on
click or tap: the claims it rests on."""

from __future__ import annotations

from enginekb.cells import Cell, evidence_label
from enginekb.model import Catalog

from .errors import RenderError
from .refs import Linker, render_ref
from .selection import analysed_engines
from .templating import render_template

VERDICT_MARKS = {"yes": "\u2714", "partial": "\u25d0", "no": "\u2718", "unknown": "?", "n/a": "\u2013"}


def cell_of(catalog: Catalog, engine: str, dimension: str) -> Cell | None:
    return next((c for c in catalog.cells if c.engine == engine and c.dimension == dimension), None)


def cell_view(catalog: Catalog, cell: Cell | None, ref) -> dict | None:
    """What a template shows of a cell: verdict, answer, derived label and the evidence (`ref` links a claim)."""
    if cell is None:
        return None
    evidence = [catalog.claim(i) for i in cell.rests_on]
    return {"cell": cell, "mark": VERDICT_MARKS[cell.verdict], "label": evidence_label(cell, catalog),
            "evidence": [{"claim": c, "ref": ref(c)} for c in evidence]}


def _options(options: dict[str, str], allowed: set[str], required: str) -> None:
    unknown = set(options) - allowed
    if unknown or required not in options:
        raise RenderError(f"takes {required}=... and optionally {', '.join(sorted(allowed - {required}))}"
                          + (f"; unknown option {', '.join(sorted(unknown))}" if unknown else ""))


def _cell_html(catalog: Catalog, engine: str, dimension: str, link: Linker) -> str:
    view = cell_view(catalog, cell_of(catalog, engine, dimension), lambda claim: render_ref(claim, link, short=True))
    return render_template("cell.html.j2", view=view)


def render_cells(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """`kb:cells layer=KEY [engine=A,B]`: the layer's rows against the engines, a verdict cell each."""
    _options(options, {"layer", "engine"}, "layer")
    if options["layer"] not in dict(catalog.layers):
        raise RenderError(f"unknown layer {options['layer']!r}")
    engines = analysed_engines(catalog, options.get("engine"))
    rows = [(d, [_cell_html(catalog, e, d.key, link) for e in engines])
            for d in catalog.dimensions.values() if d.layer == options["layer"]]
    return render_template("cells.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows)

