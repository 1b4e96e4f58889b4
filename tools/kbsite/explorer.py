"""The `kb:explorer` directive: every claim, filtered in the browser.

The page holds the filters and an empty table: docs/assets/kb.js reads claims.json (the download, the
one home of every record as data), filters it (engine, label, layer, dimension, free text), keeps the
filters in the URL, counts the labels of what matches and renders the matching claims a window at a
time, so the page stays light at any number of claims. The downloads are linked from its head.
"""

from __future__ import annotations

from collections import Counter

from enginekb.model import CONTEXT_OWNER, LABEL_TITLES, LABELS, Catalog

from .pages import DOWNLOADS, SHARED_FACTS_TITLE


def explorer_context(catalog: Catalog, link) -> dict:
    """What the template needs: the filter choices, the label counts of all claims and the downloads."""
    labels = Counter(claim.label for claim in catalog.claims)
    return {
        "total": len(catalog.claims),
        # Who the claims belong to: the engines with claims, then the shared facts when there are any.
        "owners": [(e.id, e.name) for e in catalog.engines.values() if catalog.engine_claims(e.id)]
                  + ([(CONTEXT_OWNER, SHARED_FACTS_TITLE)] if catalog.engine_claims(CONTEXT_OWNER) else []),
        "labels": [(label, LABEL_TITLES[label], labels[label]) for label in LABELS],
        "layers": catalog.layers,
        "dimensions": list(catalog.dimensions.values()),
        "downloads": [(path.rsplit("/", 1)[-1], link(path)) for path in DOWNLOADS],
        "claims_json": link(DOWNLOADS[0]),
    }
