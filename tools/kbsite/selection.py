"""Which records a directive names: claims by id or by filter, engines by name or by having claims."""

from __future__ import annotations

from enginekb.model import CONTEXT_OWNER, LABELS, Catalog, Claim

from .errors import RenderError

FILTERS = ("engine", "dimension", "layer", "label", "report")


def claim_named(catalog: Catalog, claim_id: str) -> Claim:
    claim = catalog.claim(claim_id)
    if claim is None:
        raise RenderError(f"unknown claim {claim_id!r}")
    return claim


def analysed_engines(catalog: Catalog, value: str | None) -> list[str]:
    """The engines named, or by default every engine that has claims (an analysis)."""
    return named_engines(catalog, value) if value else [e for e in catalog.engines if catalog.engine_claims(e)]


def named_engines(catalog: Catalog, value: str | None) -> list[str]:
    names = value.split(",") if value else list(catalog.engines)
    unknown = [n for n in names if n not in catalog.engines]
    if unknown:
        raise RenderError(f"unknown engine {', '.join(unknown)}")
    return names


def select_claims(catalog: Catalog, options: dict[str, str], ids: tuple[str, ...] = ()) -> list[Claim]:
    """Claims matching every filter given (engine, dimension, layer, label, report), in file order.

    `report` defaults to none: an engine page lists the engine's own claims, not its reports'.
    """
    unknown_options = set(options) - set(FILTERS)
    if unknown_options:
        raise RenderError(f"unknown option {', '.join(sorted(unknown_options))} (filters: {', '.join(FILTERS)})")
    # `engine=context` lists the shared facts; without it they never stand among an engine's results.
    engines = [CONTEXT_OWNER] if options.get("engine") == CONTEXT_OWNER else named_engines(catalog, options.get("engine"))
    checks = {
        "dimension": (options.get("dimension"), catalog.dimensions),
        "layer": (options.get("layer"), {key for key, _ in catalog.layers}),
        "label": (options.get("label"), LABELS),
    }
    for name, (value, known) in checks.items():
        for item in value.split(",") if value else ():
            if item not in known:
                raise RenderError(f"unknown {name} {item!r}")
    selected = [claim_named(catalog, claim_id) for claim_id in ids] or [
        c for c in catalog.claims
        if c.engine in engines
        and (not options.get("dimension") or c.dimension in options["dimension"].split(","))
        and (not options.get("layer") or catalog.dimensions[c.dimension].layer in options["layer"].split(","))
        and (not options.get("label") or c.label in options["label"].split(","))
        and c.report == options.get("report", "")
    ]
    if not selected:
        raise RenderError("selects no claim")
    return selected
