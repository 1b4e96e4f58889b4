"""The `kb:explorer` directive: every claim in one table that the reader filters in the browser.

The rows are rendered here, so the page works as a plain table without script; docs/assets/kb.js
adds the filters (engine, label, layer, dimension, free text), keeps them in the URL and counts the
labels of what is shown. The downloads are linked from its head.
"""

from __future__ import annotations

from enginekb.model import LABEL_TITLES, LABELS, Catalog

from .pages import DOWNLOADS


def explorer_context(catalog: Catalog, link, href_of) -> dict:
    """What the template needs: the filter choices and one row per claim (`href_of` gives its link)."""
    rows = [{"claim": claim, "href": href_of(claim), "layer": catalog.dimensions[claim.dimension].layer,
             "dimension": catalog.dimensions[claim.dimension]} for claim in catalog.claims]
    return {
        "rows": rows,
        "engines": [e for e in catalog.engines.values() if catalog.engine_claims(e.id)],
        "labels": [(label, LABEL_TITLES[label]) for label in LABELS],
        "layers": catalog.layers,
        "dimensions": list(catalog.dimensions.values()),
        "downloads": [(path.rsplit("/", 1)[-1], link(path)) for path in DOWNLOADS],
    }
