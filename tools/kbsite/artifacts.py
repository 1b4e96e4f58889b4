"""The `kb:artifacts` directive: the earlier study's artifacts, each with the records that draw on it or
the reason none does (claims/study-artifacts.yaml; enginekb.artifacts keeps the two consistent)."""

from __future__ import annotations

from collections import Counter

from enginekb.artifacts import citing
from enginekb.model import Catalog

from .errors import RenderError
from .refs import Linker, render_ref
from .templating import https_url, render_template

REASON_TITLES = {"retracted": "retracted", "superseded": "superseded", "duplicate": "duplicate", "no-figure": "no figure",
                 "later-commit": "later commit", "not-read": "not read"}


def render_artifacts(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    if options:
        raise RenderError(f"takes no option (got {', '.join(sorted(options))})")
    inventory = catalog.inventory
    if inventory is None:
        raise RenderError("claims/study-artifacts.yaml is missing")
    rows = []
    for artifact in inventory.artifacts:
        records = citing(inventory, artifact, catalog)
        status = "used" if records else artifact.reason
        url = https_url(inventory.repository, "tree" if artifact.is_folder else "blob", artifact.commit,
                        artifact.path.rstrip("/"))
        rows.append({"artifact": artifact, "status": status, "url": url,
                     "refs": [render_ref(claim, link, short=True) for claim in records]})
    counts = Counter(row["status"] for row in rows)
    statuses = [("used", "used")] + [(key, title) for key, title in REASON_TITLES.items() if counts[key]]
    return render_template("artifacts.html.j2", rows=rows, counts=counts, statuses=statuses,
                           titles={"used": "used", **REASON_TITLES}, commit=inventory.commit)
