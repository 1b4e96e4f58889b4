"""How the records cover the earlier study, and where the study disagrees with itself.

    <!-- kb:statements -->      every study document: its statements, how many the records hold, each
                                statement with its records or the reason none holds it
    <!-- kb:disagreements -->   each contradiction inside the study: both values, their sources, the value
                                the site uses and why
"""

from __future__ import annotations

from enginekb.model import Catalog
from enginekb.study_coverage import TARGET

from .errors import RenderError
from .refs import Linker, render_ref
from .selection import claim_named
from .templating import https_url, render_template


def render_statements(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    if options:
        raise RenderError(f"takes no option (got {', '.join(sorted(options))})")
    inventory = _inventory(catalog)
    documents = []
    for coverage in sorted(catalog.study_coverage, key=lambda c: c.document):
        statements = [{"statement": s, "refs": [render_ref(claim_named(catalog, r), link, short=True) for r in s.recorded]}
                      for s in coverage.statements]
        read_at = coverage.commit or inventory.commit
        documents.append({"coverage": coverage, "statements": statements, "percent": round(100 * coverage.share),
                          "below": coverage.share < TARGET, "read_at": read_at if read_at != inventory.commit else None,
                          "url": https_url(inventory.repository, "blob", read_at, coverage.document)})
    total = sum(len(c.statements) for c in catalog.study_coverage)
    recorded = sum(c.recorded for c in catalog.study_coverage)
    return render_template("statements.html.j2", documents=documents, total=total, recorded=recorded,
                           target=round(100 * TARGET), commit=inventory.commit)


def render_disagreements(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    if options:
        raise RenderError(f"takes no option (got {', '.join(sorted(options))})")
    inventory = _inventory(catalog)
    rows = [{"d": d, "refs": [render_ref(claim_named(catalog, r), link) for r in d.records],
             "sides": [{"value": value, "source": source, "where": where,
                         "url": https_url(inventory.repository, "blob", inventory.commit, source)}
                        for value, source, where in d.values]}
            for d in catalog.disagreements]
    return render_template("disagreements.html.j2", rows=rows)


def _inventory(catalog: Catalog):
    if catalog.inventory is None:
        raise RenderError("claims/study-artifacts.yaml is missing: it names the study's repository and commit")
    return catalog.inventory
