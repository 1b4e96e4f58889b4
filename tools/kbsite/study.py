"""How the records cover the earlier study, and where the study disagrees with itself.

    <!-- kb:statements -->      every study document: its statements and how many the records hold, linked to
                                the document's own page
    <!-- kb:statements document=PATH -->  that document's statements, each with its records or the reason none
                                holds it
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


COVERAGE_PAGES = "analysis/study_coverage"  # one page per study document: docs/analysis/study_coverage/<slug>.md


def coverage_page(coverage) -> str:
    """The docs path of a document's coverage page (its coverage file's name)."""
    return f"{COVERAGE_PAGES}/{coverage.path.stem}.md"


def render_statements(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """`kb:statements`: the table of every document; `kb:statements document=PATH`: that document's statements,
    each with its records or why none holds it (a page per document keeps each page light)."""
    if set(options) - {"document"}:
        raise RenderError(f"takes only document=PATH (got {', '.join(sorted(options))})")
    inventory = _inventory(catalog)
    documents = []
    for coverage in sorted(catalog.study_coverage, key=lambda c: c.document):
        if "document" in options and coverage.document != options["document"]:
            continue
        statements = [{"statement": s, "refs": [render_ref(claim_named(catalog, r), link, short=True) for r in s.recorded]}
                      for s in coverage.statements] if "document" in options else []
        documents.append({"coverage": coverage, "statements": statements, "percent": round(100 * coverage.share),
                          "below": coverage.share < TARGET, "page": link(coverage_page(coverage)),
                          "commit": coverage.commit or inventory.commit,
                          "url": https_url(inventory.repository, "blob", coverage.commit or inventory.commit,
                                           coverage.document)})
    if "document" in options:
        if not documents:
            raise RenderError(f"no coverage file covers {options['document']!r}")
        return render_template("statements-document.html.j2", doc=documents[0], target=round(100 * TARGET))
    total = sum(len(c.statements) for c in catalog.study_coverage)
    recorded = sum(c.recorded for c in catalog.study_coverage)
    return render_template("statements.html.j2", documents=documents, total=total, recorded=recorded,
                           target=round(100 * TARGET), commit=inventory.commit)


def render_disagreements(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    if options:
        raise RenderError(f"takes no option (got {', '.join(sorted(options))})")
    inventory = _inventory(catalog)
    # A source page read at another commit (its coverage file says which) is linked there.
    read_at = {c.document: c.commit for c in catalog.study_coverage if c.commit}
    rows = [{"d": d, "refs": [render_ref(claim_named(catalog, r), link) for r in d.records],
             "sides": [{"value": value, "source": source, "where": where,
                         "url": https_url(inventory.repository, "blob", read_at.get(source, inventory.commit), source)}
                        for value, source, where in d.values]}
            for d in catalog.disagreements]
    return render_template("disagreements.html.j2", rows=rows)


def _inventory(catalog: Catalog):
    if catalog.inventory is None:
        raise RenderError("claims/study-artifacts.yaml is missing: it names the study's repository and commit")
    return catalog.inventory
