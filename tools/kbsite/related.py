"""The `kb:related` directive: measured figures of one quantity side by side, and what differs between
them, so that five start-up times on five pages read as one comparison instead of five numbers.

    <!-- kb:related quantity="vLLM-Omni start-up time" vllm-omni/gpu-tts-init vllm-omni/init-cold-1p7b -->

The page names the quantity and the records (the records themselves have no quantity field); the
figures must share a unit. Rows are sorted by value. Of the provenance fields (machine, model,
quantisation, threads, build, command, date), each that the records word differently gets a column
holding the whole field, and those that read the same on every record are said once under the table
(their head clause; the whole field is on the record's page, one link away).
"""

from __future__ import annotations

from enginekb.model import Catalog

from .errors import RenderError
from .measurements import first_clause
from .refs import Linker, claim_href
from .selection import claim_named
from .templating import render_template

FIELDS = (("machine", "Machine"), ("model", "Model"), ("quantisation", "Quantisation"), ("threads", "Threads"),
          ("engine_build", "Build"), ("command", "Command"), ("date", "Date"))


def render_related(catalog: Catalog, options: dict[str, str], ids: tuple[str, ...], link: Linker) -> str:
    extra = sorted(set(options) - {"quantity"})
    if extra:
        raise RenderError(f"unknown option {', '.join(extra)} (known: quantity)")
    quantity = options.get("quantity", "").strip()
    if not quantity:
        raise RenderError('kb:related needs quantity="what the figures measure"')
    if len(ids) < 2:
        raise RenderError("kb:related relates two figures or more: name their records")
    if len(set(ids)) != len(ids):
        raise RenderError("kb:related names a record twice")
    claims = [claim_named(catalog, claim_id) for claim_id in ids]
    unmeasured = [claim.id for claim in claims if not claim.measurement or not claim.provenance]
    if unmeasured:
        raise RenderError(f"{', '.join(unmeasured)}: not a measured claim with its provenance")
    units = sorted({claim.measurement[1] for claim in claims})
    if len(units) > 1:
        raise RenderError(f"the figures of one quantity share a unit; these are in {', '.join(units)}")
    claims.sort(key=lambda claim: claim.measurement[0])
    fields = {key: [str(claim.provenance.get(key, "")) for claim in claims] for key, _ in FIELDS}
    differing = [(key, title) for key, title in FIELDS if len(set(fields[key])) > 1]
    same = [(title, first_clause(fields[key][0])) for key, title in FIELDS if len(set(fields[key])) == 1 and fields[key][0]]
    rows = [{"claim": claim, "href": claim_href(claim, link), "engine": catalog.owner(claim.engine).name,
             "cells": [fields[key][index] for key, _ in differing]} for index, claim in enumerate(claims)]
    return render_template("related.html.j2", quantity=quantity, unit=units[0], rows=rows,
                           differing=[title for _, title in differing], same=same)
