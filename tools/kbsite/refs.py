"""Links to claims: where a claim stands, and the inline reference that shows its label and text."""

from __future__ import annotations

from collections.abc import Callable

from enginekb.model import Claim, claim_anchor

from .pages import engine_page
from .templating import render_template

Linker = Callable[[str], str]  # a docs path -> the href to use from the page being rendered


def claim_href(claim: Claim, link: Linker) -> str:
    """Where a claim stands: its engine's page, or its report's page, at the claim's anchor."""
    return f"{link(engine_page(claim.engine, claim.report))}#{claim_anchor(claim.id)}"


def render_ref(claim: Claim, link: Linker, short: bool = False) -> str:
    """A link to the claim on its engine's page; `short` shows the slug without the engine."""
    name = claim.id.split("/", 1)[1] if short else claim.id
    return render_template("ref.html.j2", claim=claim, name=name, href=claim_href(claim, link)).strip()
