"""The `kb:measurements` directive: every measured figure as one filterable table of values.

One row per `measured` claim: the figure and unit, the machine, the model with its precision and run
settings in one cell (three columns cost the every-figure page 580 elements and its width), and a link to
the artifact; the rest of the provenance (who, when, build, command, field, note) sits in
the row's own fold, so it is one tap away instead of repeated on a card per figure. docs/assets/kb.js
filters the rows (engine, page, free text) as it does the claims explorer.
"""

from __future__ import annotations

import re

from enginekb.model import CONTEXT_OWNER, Catalog, Claim

from .errors import RenderError
from .pages import SHARED_FACTS_TITLE, engine_page
from .refs import Linker, claim_href
from .selection import claim_named
from .templating import https_url, render_template


def first_clause(text: str, at: str = r";|,\s| \(") -> str:
    """The head of a provenance field for a table cell ("Intel Xeon Platinum 8480C, 24 cores ..." ->
    "Intel Xeon Platinum 8480C"); the whole field is in the row's fold."""
    return re.split(at, text, maxsplit=1)[0].strip() or text


def measured_claims(catalog: Catalog, options: dict[str, str], ids: tuple[str, ...] = ()) -> list[Claim]:
    """The measured claims named by id, or those of some reports (`report=experiments,phone-npu`), engines
    or dimensions; with nothing given, every measured claim."""
    chosen = {key: set(options[key].split(",")) for key in ("report", "engine", "dimension") if key in options}
    unknown = sorted(chosen.get("engine", set()) - set(catalog.engines) - {CONTEXT_OWNER})
    if unknown:
        raise RenderError(f"unknown engine {', '.join(unknown)}")
    if ids:
        claims = [claim_named(catalog, claim_id) for claim_id in ids]
        unmeasured = [claim.id for claim in claims if not claim.measurement]
        if unmeasured:
            raise RenderError(f"{', '.join(unmeasured)}: not a measured claim")
        return claims
    claims = [claim for claim in catalog.claims if claim.measurement and claim.provenance
              and all(getattr(claim, key) in values for key, values in chosen.items())]
    if not claims:
        raise RenderError("selects no measured claim")
    return claims


SHARED_FACTS_KEY = "shared-facts"


def _page_key(claim: Claim) -> str:
    """The page filter's key of a row: its report; a shared fact outside any report (a device's own figure, a vendor
    runtime's) is filed under the shared facts, never under an engine."""
    return SHARED_FACTS_KEY if claim.engine == CONTEXT_OWNER and not claim.report else claim.report


def render_measurements(catalog: Catalog, options: dict[str, str], ids: tuple[str, ...], link: Linker) -> str:
    """The table; its rows carry the claims' anchors and their provenance folds unless `anchors=no` (a second
    table of claims shown elsewhere: each row links to the record, where the provenance is, and the page
    does not carry every fold twice)."""
    extra = sorted(set(options) - {"report", "engine", "dimension", "anchors"})
    if extra:
        raise RenderError(f"unknown option {', '.join(extra)} (known: report, engine, dimension, anchors)")
    if options.get("anchors", "yes") not in ("yes", "no"):
        raise RenderError("anchors= takes yes or no")
    claims = measured_claims(catalog, options, ids)
    keys = {claim.id: _page_key(claim) for claim in claims}
    pages = sorted({claim.report for claim in claims if claim.report})
    rows = [{
        "claim": claim, "href": claim_href(claim, link), "p": claim.provenance,
        "machine": first_clause(claim.provenance["machine"]), "model": first_clause(claim.provenance["model"]),
        "quantisation": first_clause(claim.provenance["quantisation"]), "threads": first_clause(claim.provenance["threads"], r";| \("),
        "url": https_url(claim.provenance["source"]["repository"], "blob", claim.provenance["source"]["commit"],
                         claim.provenance["source"]["path"]),
        "page": keys[claim.id], "engine": catalog.owner(claim.engine).name,
    } for claim in claims]
    page_titles = [(report, engine_page("", report).rsplit("/", 1)[-1].removesuffix(".md").replace("_", " "))
                   for report in pages]
    if SHARED_FACTS_KEY in keys.values():
        page_titles.append((SHARED_FACTS_KEY, SHARED_FACTS_TITLE.lower()))
    return render_template("measurements.html.j2", rows=rows, pages=page_titles, anchors=options.get("anchors") != "no",
                           engines=[catalog.owner(owner) for owner in [*catalog.engines, CONTEXT_OWNER]
                                    if any(c.engine == owner for c in claims)])
