"""Model records on pages: `kb:family ID` (one family: what it is, its variants with their size per
precision, licences, access, the inputs a call needs, and per engine the variants its port runs or the
claims that show there is none) and `kb:families [task=T1,T2]` (every family as one table row, linking
its page). Every value shows where it comes from: a claim's reference with its label, a model card as an
unchecked link, or Unknown with the reason. Context claims never show as an engine's result here."""

from __future__ import annotations

from enginekb.model import Catalog
from enginekb.modelrecords import CARD, Fact, ModelRecord, model_named

from .errors import RenderError
from .pages import model_page
from .refs import Linker, claim_href, render_ref
from .scenarios import PAGE_TITLE_INERT
from .templating import render_template
from .topics import HEADING_INERT

TASKS = ("tts", "codec", "vocoder", "vla", "asr", "omni")
TASK_TITLES = {"tts": "Text to speech", "codec": "Audio codec", "vocoder": "Vocoder", "vla": "Robot policy (VLA)",
               "asr": "Speech recognition", "omni": "Omni (hears and speaks)"}
CARD_TITLE = "model card, not checked"


def family_anchor(model_id: str) -> str:
    return "model-" + model_id.replace(".", "-")  # ids are [a-z0-9.-] (the schema's pattern)


def record_named(catalog: Catalog, model_id: str) -> ModelRecord:
    record = model_named(catalog, model_id)
    if record is None:
        raise RenderError(f"unknown model record {model_id!r}")
    return record


def fact_view(fact: Fact, catalog: Catalog, link: Linker) -> dict:
    """A value and its source as the templates show it: `ref` (a claim's link) or `card` (a URL), or
    the reason it is unknown."""
    claim = catalog.claim(fact.claim) if fact.claim else None
    return {"value": fact.value, "unknown": fact.unknown, "note": fact.note, "card": fact.card,
            "source": fact.source_label(catalog), "ref": render_ref(claim, link) if claim else ""}


def render_family(catalog: Catalog, positional: tuple[str, ...], options: dict[str, str], link: Linker) -> str:
    """`kb:family ID [heading=1..5]`: a heading (the page title at 1) and the family's record."""
    level = options.get("heading", "2")
    if len(positional) != 1 or set(options) - {"heading"} or level not in ("1", "2", "3", "4", "5"):
        raise RenderError("takes one model id and optionally heading=1..5")
    record = record_named(catalog, positional[0])
    title = record.name.translate(PAGE_TITLE_INERT) if level == "1" else record.name
    heading = f"\n\n{'#' * int(level)} {title.translate(HEADING_INERT)} {{#{family_anchor(record.id)} .kb-model-title}}\n\n"
    return heading + render_template("family.html.j2", **family_context(catalog, record, link))


def family_context(catalog: Catalog, record: ModelRecord, link: Linker) -> dict:
    def view(fact: Fact) -> dict:
        return fact_view(fact, catalog, link)

    engines = catalog.engines
    return {
        "record": record, "task": TASK_TITLES[record.task], "card_title": CARD_TITLE, "card": CARD,
        "variants": [{"variant": v, "parameters": view(v.parameters),
                      "weights": [(w.precision, view(w.size)) for w in v.weights]} for v in record.variants],
        "licence": view(record.licence),
        "components": [(c, view(c.licence)) for c in record.components],
        "access": view(record.access),
        "inputs": [(fact.kind, view(fact)) for fact in record.inputs],
        "uses": [(other, f"{link(model_page(other))}#{family_anchor(other)}") for other in record.uses],
        "ports": [{"engine": engines[p.engine], "port": p,
                   "refs": [render_ref(catalog.claim(i), link) for i in p.rests_on]} for p in record.ports],
        "no_port": [{"engine": engines[p.engine],
                     "refs": [render_ref(catalog.claim(i), link) for i in p.rests_on]} for p in record.no_port],
    }


def brief_view(fact: Fact, catalog: Catalog, link: Linker) -> dict:
    """A value as the families table shows it: the value and a short link to its source (the claim,
    named by its label, or the card), or Unknown with the reason as the link's title. Notes stay on
    the family's page."""
    claim = catalog.claim(fact.claim) if fact.claim else None
    return {"value": fact.value, "unknown": fact.unknown, "card": fact.card,
            "claim": claim, "href": claim_href(claim, link) if claim else ""}


def family_row(record: ModelRecord, catalog: Catalog, link: Linker) -> dict:
    """One family of the table: its variants (one row each), and what holds for all of them."""
    def brief(fact: Fact) -> dict:
        return brief_view(fact, catalog, link)

    return {"record": record, "href": f"{link(model_page(record.id))}#{family_anchor(record.id)}",
            "variants": [{"name": v.name, "parameters": brief(v.parameters),
                          "weights": [(w.precision, brief(w.size)) for w in v.weights]} for v in record.variants],
            "licence": brief(record.licence),
            "components": [(c, brief(c.licence)) for c in record.components],
            "access": brief(record.access),
            "inputs": [(fact.kind, fact.unknown) for fact in record.inputs],
            "ports": [catalog.engines[p.engine] for p in record.ports]}


def render_families(catalog: Catalog, positional: tuple[str, ...], options: dict[str, str], link: Linker) -> str:
    """`kb:families [task=T1,T2]`: the families by task, then name, a row per variant, each family
    linking its page."""
    if positional or set(options) - {"task"}:
        raise RenderError("takes only task=T1,T2")
    tasks = options["task"].split(",") if "task" in options else list(TASKS)
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        raise RenderError(f"unknown task {', '.join(unknown)} (tasks: {', '.join(TASKS)})")
    groups = [(TASK_TITLES[task], [family_row(r, catalog, link)
                                   for r in sorted((r for r in catalog.models if r.task == task), key=lambda r: r.name.lower())])
              for task in TASKS if task in tasks]
    groups = [(title, rows) for title, rows in groups if rows]
    if not groups:
        raise RenderError("selects no model record")
    return render_template("families.html.j2", groups=groups, card_title=CARD_TITLE)
