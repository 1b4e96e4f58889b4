"""Scenarios on pages: `kb:scenario ID` (one question: who asks, what it needs with its numbers, the
engines best first in tiers (ranks computed, device and server apart) with their path and its least
mature link, verdict, the figures against each need, obstacle and what would change the answer, and
the cells of the rows it draws on as the breakdown, and its second readings with whether they read
this version) and `kb:scenarios` (every question against every
engine, side by side, each linking its answer)."""

from __future__ import annotations

from markupsafe import Markup

from enginekb.maturity import least_mature
from enginekb.model import Catalog
from enginekb.needs import MEASURES, NO_FIGURE
from enginekb.scenarios import Scenario, answer_label, claims_under, path_claims
from enginekb.tiers import ranked

from .cells import cell_html
from .errors import RenderError
from .pages import model_page, scenario_page
from .refs import Linker, render_ref
from .scenario_readings import readings_context
from .templating import render_template
from .topics import HEADING_INERT

OBSTACLES = {"none": "none", "missing-implementation": "missing implementation", "architectural": "architectural"}


def scenario_anchor(scenario_id: str) -> str:
    return f"scenario-{scenario_id}"  # ids are [a-z0-9-] (the schema's pattern): safe in an id and a URL


def scenario_named(catalog: Catalog, scenario_id: str) -> Scenario:
    scenario = next((s for s in catalog.scenarios if s.id == scenario_id), None)
    if scenario is None:
        raise RenderError(f"unknown scenario {scenario_id!r}")
    return scenario


PAGE_TITLE_INERT = str.maketrans({"<": "\u2039", ">": "\u203a"})


def render_scenario(catalog: Catalog, positional: tuple[str, ...], options: dict[str, str], link: Linker) -> str:
    """`kb:scenario ID [heading=1..5]`: a heading (the page title at 1, else in the table of contents) and
    the question's answer."""
    level = options.get("heading", "2")
    if len(positional) != 1 or set(options) - {"heading"} or level not in ("1", "2", "3", "4", "5"):
        raise RenderError("takes one scenario id and optionally heading=1..5")
    scenario = scenario_named(catalog, positional[0])
    title = scenario.title
    if level == "1":  # MkDocs takes a page's title from its first heading, unescaped, and the theme prints
        title = title.translate(PAGE_TITLE_INERT)  # it as markup in the nav: no angle brackets there
    title = title.translate(HEADING_INERT)
    heading = f"\n\n{'#' * int(level)} {title} {{#{scenario_anchor(scenario.id)} .kb-scenario-title}}\n\n"
    return heading + render_template("scenario.html.j2", **scenario_context(catalog, scenario, link))


KIND_TITLES = {"device": "On the device", "server": "On a server"}


def scenario_context(catalog: Catalog, scenario: Scenario, link: Linker) -> dict:
    """What the template shows: answers best first in their groups, each with its evidence; figures;
    the breakdown. Cells render as everywhere else (their evidence drawn by kb.js from claims.json on tap)."""
    groups, ordered = [], []
    for kind, rows in ranked(scenario, catalog.hardware):
        items, previous_rank = [], None
        for rank, answer in rows:
            # The evidence is every claim under the answer, directly or through a cell: kb.js draws it from
            # claims.json on tap, as for a cell, and its weakest label is the answer's derived label.
            items.append({"answer": answer, "rank": rank, "engine": catalog.engines[answer.engine],
                          "label": answer_label(answer, catalog), "obstacle": OBSTACLES[answer.obstacle],
                          "evidence": [claim.id for claim in claims_under(answer, catalog)],
                          "maturity": least_mature(path_claims(answer, catalog)),
                          "links": _path_links(catalog, answer, link),
                          "obstacle_refs": _refs(catalog, answer.obstacle_rests_on, link),
                          "figures": _answer_figures(catalog, scenario, answer, link),
                          "tier_start": rank != previous_rank})
            previous_rank = rank
        groups.append({"title": KIND_TITLES[kind], "kind": kind, "answers": items})
        ordered.extend(items)
    figures = []
    for figure in scenario.figures:
        claim = catalog.claim(figure.claim)
        figures.append({"figure": figure, "claim": claim, "engine": catalog.owner(claim.engine), "value": _value(claim),
                        "ref": render_ref(claim, link)})
    dimensions = [catalog.dimensions[key] for key in scenario.draws_on]
    # The breakdown is a matrix like the comparison's: a row per row drawn on, the engines as columns, best first.
    breakdown = [(dimension, [cell_html(catalog, item["answer"].engine, dimension.key) for item in ordered])
                 for dimension in dimensions]
    hardware = catalog.hardware.classes[scenario.hardware]
    needs = [MEASURES[measure].need_text(value) for measure, value in scenario.numeric.items()]
    return {"scenario": scenario, "groups": groups, "answers": ordered, "figures": figures, "breakdown": breakdown,
            "hardware": hardware, "numeric": needs, "single_group": len(groups) == 1,
            "second_readings": readings_context(scenario)}


def _value(claim) -> str:
    return (f"{claim.measurement[0]:g} {claim.measurement[1]}" if claim.measurement
            else str(claim.count.value) if claim.count else "")


def _refs(catalog: Catalog, ids, link: Linker) -> list[str]:
    return [render_ref(claim, link) for claim in map(catalog.claim, ids) if claim is not None]


def _path_links(catalog: Catalog, answer, link: Linker) -> list[tuple[str, str]]:
    """(what, reference) for the path's model, API and backend, in that order."""
    path, found = answer.path, []
    if path.model:  # a model id is a slug (the record schema's pattern), safe in a URL; the text is escaped
        found.append(("Model", Markup('<a href="{}">{}</a>').format(link(model_page(path.model)),
                                                                   path.model + (f" ({path.variant})" if path.variant else ""))))
    for title, record in (("API", path.api), ("Backend", path.backend)):
        claim = catalog.claim(record) if record else None
        if claim is not None:
            found.append((title, render_ref(claim, link)))
    return found


def _answer_figures(catalog: Catalog, scenario: Scenario, answer, link: Linker) -> list[dict]:
    """Per numeric need: the need, and each figure with its class, whether it meets the need, its source."""
    rows = []
    for measure, need in scenario.numeric.items():
        spec, cited = MEASURES[measure], answer.figures.get(measure, NO_FIGURE)
        figures = []
        for figure in () if cited == NO_FIGURE else cited:
            claim = catalog.claim(figure.claim) if figure.claim else None
            on = catalog.hardware.classes.get(figure.on)
            unit = figure.unit or spec.unit
            figures.append({"value": f"{figure.value:g}{' ' + unit if unit else ''}",
                            "meets": spec.meets(figure.in_unit(spec), need), "on": on.title if on else "",
                            "source": render_ref(claim, link, short=True) if claim else None,
                            "model": figure.source if figure.model else "", "not_binding": figure.not_binding})
        rows.append({"need": spec.need_text(need), "figures": figures})
    return rows


def render_scenario_overview(catalog: Catalog, positional: tuple[str, ...], options: dict[str, str],
                             link: Linker) -> str:
    """`kb:scenarios [ID ...]`: a row per question (those named, in that order, or all), a column per
    engine: verdict and rank, each row linking its question's own page."""
    if options:
        raise RenderError("takes scenario ids, no option")
    scenarios = [scenario_named(catalog, i) for i in positional] if positional else catalog.scenarios
    if not scenarios:
        raise RenderError("there is no scenario in claims/scenarios/")
    engines = [e for e in catalog.engines if any(e == a.engine for s in scenarios for a in s.answers)]
    rows = []
    for scenario in scenarios:
        by_engine = {answer.engine: {"rank": rank, "answer": answer, "server": kind == "server"}
                     for kind, group in ranked(scenario, catalog.hardware) for rank, answer in group}
        rows.append({"scenario": scenario, "href": f"{link(scenario_page(scenario.id))}#{scenario_anchor(scenario.id)}",
                     "cells": [{"engine": e, "ranked": by_engine.get(e)} for e in engines]})
    return render_template("scenarios.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows)
