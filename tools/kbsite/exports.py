"""What the site offers beside its pages, built from the records: the downloads and the search entries.

Pure functions of the catalog, the lock and the build stamp; the MkDocs glue writes their results.
"""

from __future__ import annotations

import csv
import html
import io
import unicodedata
from dataclasses import dataclass

from citecheck.lock import Lock, cite_key
from enginekb.ledger import reading_of
from enginekb.model import LABEL_MARKS, LABEL_TITLES, LABELS, Catalog, Claim, claim_anchor
from enginekb.rubric import UNKNOWN_MEANING

from .pages import SHARED_FACTS_TITLE, engine_page
from .templating import plain


@dataclass(frozen=True)
class Stamp:
    commit: str  # the project's commit the site was built from
    built: str  # the build date, YYYY-MM-DD

    def sentence(self) -> str:
        return f"Built {self.built} from enginekb commit {self.commit}"


def claim_record(claim: Claim, catalog: Catalog, lock: Lock, page_url: str) -> dict:
    """One claim as plain data, with the lines the lock recorded and a permalink for each cite (in the
    repository it names: a context claim's cites may lie in several engines')."""
    cites = []
    for cite in claim.cites:
        entry = lock.cites.get(cite_key(claim.engine, cite))
        lines = tuple(entry["lines"]) if entry else None
        record = {
            "file": cite.file, cite.target_kind: cite.target, "contains": cite.contains, "commit": cite.commit,
            "lines": list(lines) if lines else None, "kind": entry["kind"] if entry else None,
            "url": catalog.engines[cite.repo].permalink(cite.file, cite.commit, lines),
        }
        if cite.repo != claim.engine:  # a context claim's cite: which engine's repository holds the file
            record["repo"] = catalog.engines[cite.repo].name
        cites.append(record)
    dimension = catalog.dimensions[claim.dimension]
    return {
        "id": claim.id, "engine": claim.engine, "label": claim.label, "layer": dimension.layer,
        "dimension": claim.dimension, "text": claim.text, "note": claim.note, "scope": claim.scope, "see": list(claim.see),
        "count": {"value": claim.count.value, "how": claim.count.how} if claim.count else None,
        "model": _model(claim), "cites": cites, "page": f"{page_url}#{claim_anchor(claim.id)}",
        "second_read": _second_read(catalog, claim),
    }


def _second_read(catalog: Catalog, claim: Claim) -> dict | None:
    """The ledger's reading when it matches the claim's text; a stale one is not shown as a reading."""
    status, reading = reading_of(catalog, claim)
    if status != "read":
        return None
    return {"result": reading.result, "checks": list(reading.checks), "searched": list(reading.searched),
            "note": reading.note}


def _model(claim: Claim) -> dict | None:
    if claim.model is None:
        return None
    m = claim.model
    return {"family": m.family, "task": m.task, "stages": list(m.stages), "streaming": m.streaming, "deploy": list(m.deploy)}


def claims_json(catalog: Catalog, lock: Lock, stamp: Stamp, url_of) -> dict:
    """Every record: the labels (title and mark), engines with their pins, the rows' rubrics, and every claim (`url_of`
    maps a docs page to its URL)."""
    return {
        "stamp": {"commit": stamp.commit, "built": stamp.built},
        "labels": [{"id": label, "title": LABEL_TITLES[label], "mark": LABEL_MARKS[label]} for label in LABELS],
        "engines": [vars(engine) for engine in catalog.engines.values()],
        # What each row grades and each verdict means there: a cell's evidence panel says it (kb.js).
        "rows": [{"key": d.key, "title": d.title, "grades": d.rubric.grades, "meanings": dict(d.rubric.meanings),
                  "rules": list(d.rubric.rules), "note": d.rubric.note}
                 for d in catalog.dimensions.values() if d.rubric],
        # The rules of grading a row names (kb:rules shows them on the page, with these ids as anchors).
        "rules": [{"id": r.id, "title": r.title} for r in catalog.rules.values()],
        "unknown_meaning": UNKNOWN_MEANING,
        "claims": [claim_record(c, catalog, lock, url_of(engine_page(c.engine, c.report))) for c in catalog.claims],
    }


CSV_COLUMNS = ("id", "engine", "label", "layer", "dimension", "text", "cites", "page")


def claims_csv(data: dict) -> str:
    """`claims_json`'s claims as one CSV row each, under the header row (the first line, so that a CSV
    reader takes it as the header: the stamp is in claims.json and csv_stamp); cites as
    `file:symbol@L1-L2` joined by `; `."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for claim in data["claims"]:
        cites = "; ".join(
            f"{c['file']}:{c.get('symbol') or c.get('phrase')}" + (f"@L{c['lines'][0]}-L{c['lines'][1]}" if c["lines"] else "")
            for c in claim["cites"])
        writer.writerow([_cell(claim[column]) if column != "cites" else _cell(cites) for column in CSV_COLUMNS])
    return out.getvalue()


def csv_stamp(data: dict) -> str:
    """claims.csv.stamp: which build the CSV beside it comes from, one line."""
    return f"claims.csv built {data['stamp']['built']} from enginekb commit {data['stamp']['commit']}\n"


def _cell(value) -> str:
    """A spreadsheet reads a leading = + - @ as a formula: such cells get a leading apostrophe. Format
    characters (zero-width, bidi controls) go first, or one placed before the `=` would hide it."""
    text = " ".join("".join(ch for ch in str(value) if unicodedata.category(ch) != "Cf").split())
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def cited_names(catalog: Catalog, url_of) -> dict[str, list[str]]:
    """Each claim's search entry location -> the files and symbols its cites name (searchwords.py makes
    them findable)."""
    return {f"{url_of(engine_page(claim.engine, claim.report))}#{claim_anchor(claim.id)}":
            [name for cite in claim.cites for name in (cite.file, cite.target if cite.target_kind == "symbol" else "")]
            for claim in catalog.claims}


def search_entries(catalog: Catalog, url_of) -> list[dict]:
    """One search entry per claim: its id first in the title, so that searching an id finds it first. The
    row's title is left out: each engine page's topic headings are in the index once already."""
    entries = []
    for claim in catalog.claims:
        # An engine's claim id already starts with the engine; only a shared fact names its page.
        owner = "" if claim.engine in catalog.engines else f", {SHARED_FACTS_TITLE}"
        entries.append({
            "location": f"{url_of(engine_page(claim.engine, claim.report))}#{claim_anchor(claim.id)}",
            # The index holds HTML fragments: everything from a record is escaped (quotes need not be,
            # outside attributes, and would cost five bytes each in an index kept within its budget).
            "title": html.escape(f"{claim.id} ({LABEL_TITLES[claim.label]}{owner})", quote=False),
            "text": html.escape(plain(claim.text), quote=False),
        })
    return entries
