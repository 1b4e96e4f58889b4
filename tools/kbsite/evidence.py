"""A page's evidence in small JSON files of its own, so that opening the first panel costs tens of
kilobytes, not the whole of downloads/claims.json (which stays the download and the explorer's data).

What kb.js draws, and from which file of the page's folder `evidence/<page>/`:

- a verdict cell's or a scenario answer's claims (`data-evidence`), and the text a reference to a claim
  (`data-ref`) shows on hover: `<engine>.json`, the claims of that engine the page names this way, with
  only their id, label, text and page;
- a claim's cites (`data-claim`): `cites-<n>.json`, the cites and scope of the cited claims whose id
  hashes to bucket n (`cite_bucket`, computed the same way by kb.js), a few kilobytes each;
- a row's rubric (`data-row`, `data-rows`) and the labels: `rubrics.json`;
- a matrix row's cells (`<tr data-row="KEY">`): `row-KEY.json`, the claims under that row's cells with the
  labels and that row's rubric, so that a cell's panel is one small request.

The page's <meta name="kb-evidence"> names the folder and the number of cite buckets. On a page whose first
panel in sight (`pieces.in_sight`: not in a closed model row) is a claim's cites (no verdict cell or answer
before it: an engine page), a <link rel="preload"> at
low priority (after the page's own scripts) names that claim's cites file, so that it is read while the
page's scripts run and the first panel waits for no request of its own; the list holding that claim stays
in the page (pieces.py). Pure: the MkDocs glue collects what each page names and writes the files.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field

from kbsite.pieces import in_sight

META_NAME = "kb-evidence"
CITES_PER_BUCKET = 24  # cited claims per cites file, on average

_EVIDENCE = re.compile(r'\sdata-evidence="([^"]*)"')
_CITED = re.compile(r'\sdata-claim="([^"]*)"')
_REF = re.compile(r'\sdata-ref="([^"]*)"')
_ROWS = re.compile(r'\sdata-rows?="([^"]*)"')
_ROW = re.compile(r'<tr\s[^>]*?\bdata-row="([\w.-]+)"[^>]*>(.*?)</tr>', re.S)


@dataclass
class Named:
    """What one page's panels draw: claims under cells and answers, claims whose cites open, rows."""

    drawn: set[str] = field(default_factory=set)
    cited: set[str] = field(default_factory=set)
    rows: set[str] = field(default_factory=set)
    by_row: dict[str, set[str]] = field(default_factory=dict)  # a matrix row's key -> the claims under its cells
    first_cites: str = ""  # the claim whose cites are the first panel in sight, when no verdict cell or answer comes before

    def __bool__(self) -> bool:
        return bool(self.drawn or self.cited or self.rows)

    @property
    def buckets(self) -> int:
        return max(1, -(-len(self.cited) // CITES_PER_BUCKET))


def evidence_dir(page_src: str) -> str:
    """The folder of a docs page's evidence in the site, e.g. `evidence/engines/ncnn/`."""
    return posixpath.join("evidence", posixpath.splitext(page_src)[0]) + "/"


def named_in(page_html: str) -> Named:
    """The claim ids and row keys `page_html` asks kb.js to draw."""
    named = Named()
    for pattern, into in ((_EVIDENCE, named.drawn), (_REF, named.drawn), (_CITED, named.cited), (_ROWS, named.rows)):
        for match in pattern.finditer(page_html):
            into.update(html.unescape(match.group(1)).split())
    seen = in_sight(page_html)  # a panel inside a closed model row is not the first a reader opens
    first = min((match for match in (_EVIDENCE.search(seen), _CITED.search(seen)) if match),
                key=lambda match: match.start(), default=None)
    if first is not None and first.re is _CITED:
        named.first_cites = html.unescape(first.group(1))
    for row in _ROW.finditer(page_html):
        under = {claim for match in _EVIDENCE.finditer(row.group(2)) for claim in html.unescape(match.group(1)).split()}
        if under:
            named.by_row.setdefault(row.group(1), set()).update(under)
    return named


def engine_of(claim_id: str) -> str:
    """The engine a claim id belongs to: its first part (`ncnn/vulkan-only-gpu` -> `ncnn`)."""
    return claim_id.split("/", 1)[0]


def cite_bucket(claim_id: str, buckets: int) -> int:
    """Which cites file holds a claim: a 32-bit rolling hash of its id's UTF-16 code units (as JavaScript
    reads a string), modulo the page's number of buckets."""
    value = 0
    encoded = claim_id.encode("utf-16-le")
    for index in range(0, len(encoded), 2):
        value = (value * 31 + int.from_bytes(encoded[index:index + 2], "little")) % 2**32
    return value % buckets


def evidence_files(data: dict, named: Named) -> dict[str, dict]:
    """File name in the page's folder -> its content, from claims.json's `data`. An id not among the claims
    is left out (kb.js then shows the id alone)."""
    files: dict[str, dict] = {}
    rows = [row for row in data["rows"] if row["key"] in named.rows]
    applied = {rule for row in rows for rule in row["rules"]}
    files["rubrics.json"] = {
        "labels": data["labels"], "rows": rows, "rules": [rule for rule in data["rules"] if rule["id"] in applied],
        "unknown_meaning": data["unknown_meaning"],
    }
    by_key = {row["key"]: row for row in data["rows"]}
    rules = {rule["id"]: rule for rule in data["rules"]}
    for key, under in named.by_row.items():
        row = [by_key[key]] if key in by_key else []
        files[f"row-{key}.json"] = {
            "labels": data["labels"], "rows": row, "rules": [rules[r] for r in (row[0]["rules"] if row else []) if r in rules],
            "unknown_meaning": data["unknown_meaning"],
            "claims": [{k: claim[k] for k in ("id", "label", "text", "page")} for claim in data["claims"] if claim["id"] in under],
        }
    for claim in data["claims"]:
        if claim["id"] in named.drawn:
            entry = {key: claim[key] for key in ("id", "label", "text", "page")}
            files.setdefault(f"{engine_of(claim['id'])}.json", {"claims": []})["claims"].append(entry)
        if claim["id"] in named.cited:
            entry = {"id": claim["id"], "cites": claim["cites"], "scope": claim["scope"]}
            name = f"cites-{cite_bucket(claim['id'], named.buckets)}.json"
            files.setdefault(name, {"claims": []})["claims"].append(entry)
    return files


def with_evidence_meta(page_html: str, href: str, named: Named) -> str:
    """`page_html` with a <meta> naming its evidence folder and cite buckets at the end of its head, and
    the preload of its first cites panel's file (`named.first_cites`), if it has one. The preload's mode
    (`crossorigin`: CORS, same-origin credentials) is fetch()'s default, so kb-core.js's request uses it."""
    if "</head>" not in page_html:
        return page_html
    head = f'<meta name="{META_NAME}" content="{html.escape(href)}" data-cite-buckets="{named.buckets}">'
    if named.first_cites:
        cites = posixpath.join(href, f"cites-{cite_bucket(named.first_cites, named.buckets)}.json")
        head += f'<link rel="preload" href="{html.escape(cites)}" as="fetch" crossorigin fetchpriority="low">'
    return page_html.replace("</head>", head + "</head>", 1)
