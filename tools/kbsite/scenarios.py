"""Scenarios on pages: `kb:scenario ID` (one question: who asks, what it needs, the engines best first
in tiers with their path, verdict, obstacle and what would change the answer, the figures, and the
cells of the rows it draws on as the breakdown) and `kb:scenarios` (every question against every
engine, side by side, each linking its answer)."""

from __future__ import annotations

from enginekb.model import Catalog
from enginekb.scenarios import Scenario, answer_label, claims_under

from .cells import cell_html
from .errors import RenderError
from .pages import scenario_page
from .refs import Linker, render_ref
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


def scenario_context(catalog: Catalog, scenario: Scenario, link: Linker) -> dict:
    """What the template shows: answers best first, each with its evidence; figures; the breakdown.
    Cells render as everywhere else (their evidence drawn by kb.js from claims.json on tap)."""
    answers, previous_rank = [], None
    for answer in scenario.answers:
        # The evidence is every claim under the answer, directly or through a cell: kb.js draws it from
        # claims.json on tap, as for a cell, and its weakest label is the answer's derived label.
        answers.append({"answer": answer, "engine": catalog.engines[answer.engine],
                        "label": answer_label(answer, catalog), "obstacle": OBSTACLES[answer.obstacle],
                        "evidence": [claim.id for claim in claims_under(answer, catalog)],
                        "tier_start": answer.rank != previous_rank})
        previous_rank = answer.rank
    figures = []
    for figure in scenario.figures:
        claim = catalog.claim(figure.claim)
        value = (f"{claim.measurement[0]:g} {claim.measurement[1]}" if claim.measurement
                 else str(claim.count.value) if claim.count else "")
        figures.append({"figure": figure, "claim": claim, "engine": catalog.engines[claim.engine], "value": value,
                        "ref": render_ref(claim, link)})
    dimensions = [catalog.dimensions[key] for key in scenario.draws_on]
    # The breakdown is a matrix like the comparison's: a row per row drawn on, the engines as columns, best first.
    breakdown = [(dimension, [cell_html(catalog, item["answer"].engine, dimension.key) for item in answers])
                 for dimension in dimensions]
    return {"scenario": scenario, "answers": answers, "figures": figures, "breakdown": breakdown}


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
        by_engine = {a.engine: a for a in scenario.answers}
        rows.append({"scenario": scenario, "href": f"{link(scenario_page(scenario.id))}#{scenario_anchor(scenario.id)}",
                     "cells": [{"engine": e, "answer": by_engine.get(e)} for e in engines]})
    return render_template("scenarios.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows)
