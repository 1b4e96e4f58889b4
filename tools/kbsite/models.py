"""The `kb:models` directive: a report's model families as one table, a row per claim with a `model`."""

from __future__ import annotations

from enginekb.model import Catalog, Claim


def model_rows(catalog: Catalog, engine_id: str, report: str, task: str | None = None) -> list[Claim]:
    """The claims of `engine_id`'s `report` that describe a model family, in file order."""
    return [
        claim for claim in catalog.engine_claims(engine_id)
        if claim.model and claim.report == report and (task is None or claim.model.task in task.split(","))
    ]
