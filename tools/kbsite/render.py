"""Turn directives in a page's Markdown into HTML rendered from the records. Pure: no I/O.

Every name a page uses (claim, engine, dimension, label) must exist, and every cite must have a lock
entry, or rendering fails with the page and line.
"""

from __future__ import annotations

import posixpath
from collections import Counter

from citecheck.lock import Lock, cite_key
from enginekb.ledger import reading_of
from enginekb.model import LABELS, Catalog, Claim

from .artifacts import render_artifacts
from .cells import render_cells, render_grid
from .directives import Directive, DirectiveError, find_directives
from .errors import RenderError
from .explorer import explorer_context
from .measurements import render_measurements
from .related import render_related
from .modelrecords import render_families, render_family
from .models import model_rows
from .pages import EXPLORER_PAGE, engine_page
from .refs import Linker, render_ref
from .scenarios import render_scenario, render_scenario_overview
from .selection import analysed_engines, claim_named, named_engines, select_claims
from .study import render_disagreements, render_statements
from .templating import render_template
from .topics import topic_anchor, topic_heading, unique


def relative_linker(page_path: str) -> Linker:
    """Links between source files, e.g. `../engines/ncnn.md` (the generator's URL scheme is unknown)."""
    here = posixpath.dirname(page_path) or "."
    return lambda target: "" if target == page_path else posixpath.relpath(target, here)


def render_page(markdown: str, page_path: str, catalog: Catalog, lock: Lock, link: Linker | None = None) -> str:
    """`markdown` with each directive replaced by its rendering. `page_path` is relative to docs/.

    Renderings are HTML, which site generators do not rewrite, so `link` turns a docs path into the
    href to use from this page; the default links source files relative to each other.
    """
    link = link or relative_linker(page_path)
    errors, pieces, last = [], [], 0
    try:
        directives = find_directives(markdown)
    except DirectiveError as error:
        raise RenderError(f"{page_path}:{error.line}: {error.message}") from None
    topics: set[str] = set()  # topic ids on this page, kept unique
    for directive in directives:
        pieces.append(markdown[last : directive.start])
        try:
            pieces.append(_render_directive(directive, catalog, lock, link, topics))
        except RenderError as error:
            errors.append(f"{page_path}:{directive.line}: kb:{directive.name}: {error}")
        last = directive.end
    pieces.append(markdown[last:])
    if errors:
        raise RenderError("\n".join(errors))
    return "".join(pieces)


def _render_directive(directive: Directive, catalog: Catalog, lock: Lock, link: Linker, topics: set[str]) -> str:
    if directive.name == "claims":
        options = dict(directive.options)
        level = options.pop("heading", "3")
        if level not in ("2", "3", "4", "5", "none"):
            raise RenderError("heading= takes a level from 2 to 5, or none")
        # Topic headings, unless the list is one dimension already (or the page says none).
        one_topic = level == "none" or ("dimension" in options and "," not in options["dimension"])
        return render_claim_list(select_claims(catalog, options, directive.positional), catalog, lock, link,
                                 None if one_topic else topics, 3 if one_topic else int(level))
    if directive.name == "claim":
        return render_claim_list([claim_named(catalog, claim_id) for claim_id in _ids(directive)], catalog, lock, link,
                                 keep_order=True)
    if directive.name == "ref":
        return ", ".join(render_ref(claim_named(catalog, claim_id), link) for claim_id in _ids(directive))
    if directive.name == "engines":
        return render_engine_table(catalog, link)
    if directive.name == "engine":
        return render_engine_card(catalog, named_engines(catalog, ",".join(directive.positional) or None)[0], link)
    if directive.name == "coverage":
        return render_coverage(catalog, analysed_engines(catalog, directive.options.get("engine")))
    if directive.name == "compare":
        return render_compare(catalog, directive.options, link)
    if directive.name == "models":
        return render_models(catalog, directive.options, lock, link)
    if directive.name == "cells":
        return render_cells(catalog, directive.options, topics)
    if directive.name == "grid":
        return render_grid(directive.options, directive.positional)
    if directive.name == "scenario":
        return render_scenario(catalog, directive.positional, directive.options, link)
    if directive.name == "scenarios":
        return render_scenario_overview(catalog, directive.positional, directive.options, link)
    if directive.name == "family":
        return render_family(catalog, directive.positional, directive.options, link)
    if directive.name == "families":
        return render_families(catalog, directive.positional, directive.options, link)
    if directive.name == "numbers":
        return render_numbers(catalog, directive.options, link)
    if directive.name == "labels":
        unknown = [label for label in directive.positional if label not in LABELS]
        if unknown:
            raise RenderError(f"unknown label {', '.join(unknown)}")
        return render_template("labels.html.j2", labels=directive.positional or LABELS).strip()
    if directive.name == "measurements":
        return render_measurements(catalog, directive.options, directive.positional, link)
    if directive.name == "related":
        return render_related(catalog, directive.options, directive.positional, link)
    if directive.name == "artifacts":
        return render_artifacts(catalog, directive.options, link)
    if directive.name == "statements":
        return render_statements(catalog, directive.options, link)
    if directive.name == "disagreements":
        return render_disagreements(catalog, directive.options, link)
    if directive.name == "rules":
        if directive.positional or directive.options:
            raise RenderError("kb:rules takes no arguments")
        applied = [(rule, sum(rule.id in d.rubric.rules for d in catalog.dimensions.values() if d.rubric))
                   for rule in catalog.rules.values()]
        return render_template("rules.html.j2", rules=applied)
    if directive.name == "explorer":
        return render_template("explorer.html.j2", **explorer_context(catalog, link))
    raise RenderError("unknown directive (known: claims, claim, ref, engine, engines, coverage, compare, models, family, families, explorer, labels, cells, grid, rules, scenario, scenarios, numbers, measurements, related, artifacts, statements, disagreements)")


def _ids(directive: Directive) -> tuple[str, ...]:
    if not directive.positional:
        raise RenderError("names no claim id")
    return directive.positional


def _locked_cites(claim: Claim, lock: Lock) -> int:
    """How many cites the claim has; each must have a lock entry. The page shows the count, and kb.js
    draws the cites themselves (file, symbol, lines, permalink) from claims.json when asked."""
    for cite in claim.cites:
        if lock.cites.get(cite_key(claim.engine, cite)) is None:
            raise RenderError(f"{claim.id}: cite {cite.file} {cite.target!r} has no lock entry: run citecheck")
    return len(claim.cites)


def describe_query(how: dict) -> str:
    """A count's query in words, e.g. `files matching src/layer/vulkan/*.cpp`."""
    if "glob" in how:
        text = f"{how.get('entries', 'files')} matching `{how['glob']}`"
    elif "lines" in how:
        text = f"lines of `{how['file']}` matching `{how['lines']}`"
    elif "constant" in how:
        text = f"the value `{how['file']}` gives `{how['constant']}`"
    else:
        text = f"members of enum `{how['enum']}` in `{how['file']}`"
    return text + (f", leaving out those matching `{how['exclude']}`" if how.get("exclude") else "")


def render_claim_list(claims: list[Claim], catalog: Catalog, lock: Lock, link: Linker,
                      topics: set[str] | None = None, level: int = 3, keep_order: bool = False) -> str:
    """Claims grouped by dimension, in the comparison's order, each group keeping file order; with
    `keep_order` (a list of ids the page chose), in the page's order, grouped by runs of one dimension.

    With `topics` (the topic ids the page already has), each group opens with a topic heading of
    `level`; without, a list spanning several dimensions has plain group titles. Either way the claims
    wait in a <template> that kb.js renders as they near the screen, so a long page stays light.
    Claim lists are left out of the page's search entries: each claim has its own (exports.py).
    """
    order = {key: index for index, key in enumerate(catalog.dimensions)}
    sections: list[tuple] = []
    for claim in claims if keep_order else sorted(claims, key=lambda c: order[c.dimension]):
        if not sections or sections[-1][0].key != claim.dimension:
            sections.append((catalog.dimensions[claim.dimension], []))
        sections[-1][1].append({
            "claim": claim, "cites": _locked_cites(claim, lock),
            "query": describe_query(claim.count.how) if claim.count else "",
            "rests_on": [render_ref(claim_named(catalog, other), link) for other in claim.rests_on],
            "read_twice": reading_of(catalog, claim)[0] == "read",
        })
    grouped = len(sections) > 1
    if topics is None:
        return render_template("claims.html.j2", sections=sections, grouped=grouped, later=True)
    engines = sorted({c.engine for c in claims})
    return "".join(
        topic_heading(dimension, unique(topic_anchor(engines, dimension.key), topics), level)
        + render_template("claims.html.j2", sections=[(dimension, items)], grouped=False, topic=True, later=True)
        for dimension, items in sections
    )


def render_engine_table(catalog: Catalog, link: Linker) -> str:
    """Every engine with its pin; an engine with an analysis links to its page."""
    rows = []
    for engine in catalog.engines.values():
        claims = len(catalog.engine_claims(engine.id))
        page = link(engine_page(engine.id)) if claims else ""
        rows.append({"engine": engine, "claims": claims, "page": page,
                     "repository": engine.repository.removeprefix("https://github.com/")})
    return render_template("engines.html.j2", rows=rows)


def render_coverage(catalog: Catalog, engines: list[str]) -> str:
    """Per dimension and engine: how many claims of each label. Empty cells show what is missing."""
    counts = Counter((c.engine, c.dimension, c.label) for c in catalog.claims)
    layers = [
        (title, [d for d in catalog.dimensions.values() if d.layer == key]) for key, title in catalog.layers
    ]
    return render_template(
        "coverage.html.j2", layers=layers, engines=[catalog.engines[e] for e in engines], counts=counts, labels=LABELS,
    )


def render_engine_card(catalog: Catalog, engine_id: str, link: Linker) -> str:
    """The pin an engine's page describes, and how its claims are labelled (each count opens the explorer)."""
    labels = Counter(c.label for c in catalog.engine_claims(engine_id))
    return render_template(
        "engine.html.j2", engine=catalog.engines[engine_id], explorer=link(EXPLORER_PAGE),
        labels=[(label, labels[label]) for label in LABELS if labels[label]],
    )


def render_models(catalog: Catalog, options: dict[str, str], lock: Lock, link: Linker) -> str:
    """A report's model table: `kb:models engine=vllm-omni report=models [task=tts,vla]`. Each row
    holds its claim in full (folded), so the claim's permalink lands on its row."""
    unknown = set(options) - {"engine", "report", "task"}
    if unknown or "engine" not in options:
        raise RenderError("takes engine=ID, and optionally report=NAME (default models) and task=T1,T2")
    engine = named_engines(catalog, options["engine"])[0]
    claims = model_rows(catalog, engine, options.get("report", "models"), options.get("task"))
    if not claims:
        raise RenderError("selects no claim with a model")
    rows = [{"claim": claim, "card": render_claim_list([claim], catalog, lock, link)} for claim in claims]
    return render_template("models.html.j2", rows=rows)


def render_compare(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """One layer's dimensions against the engines: each cell links the claims on that row."""
    layers = dict(catalog.layers)
    if options.get("layer") not in layers:
        raise RenderError(f"needs layer=KEY (layers: {', '.join(layers)})")
    unknown = set(options) - {"layer", "engine"}
    if unknown:
        raise RenderError(f"unknown option {', '.join(sorted(unknown))} (options: layer, engine)")
    engines = analysed_engines(catalog, options.get("engine"))
    rows = []
    for dimension in (d for d in catalog.dimensions.values() if d.layer == options["layer"]):
        cells = []
        for engine in engines:
            claims = [c for c in catalog.engine_claims(engine) if c.dimension == dimension.key]
            # The engine page lists its own claims by topic: the cell links that topic.
            on_page = any(not c.report for c in claims)
            topic = f"{link(engine_page(engine))}#{topic_anchor([engine], dimension.key)}" if on_page else ""
            cells.append({"refs": [render_ref(claim, link, short=True) for claim in claims], "topic": topic})
        rows.append((dimension, cells))
    return render_template(
        "compare.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows,
    )


def render_numbers(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """`kb:numbers [engine=A,B] [study=only]`: every count claim, what we count, and the study's figure."""
    unknown = set(options) - {"engine", "study"}
    if unknown or options.get("study", "only") != "only":
        raise RenderError("takes engine=A,B and study=only")
    engines = analysed_engines(catalog, options.get("engine"))
    rows = [{"claim": c, "ref": render_ref(c, link), "query": describe_query(c.count.how)}
            for e in engines for c in catalog.engine_claims(e)
            if c.count and (c.count.study or "study" not in options)]
    if not rows:
        raise RenderError("selects no count")
    return render_template("numbers.html.j2", rows=rows, engines={e: catalog.engines[e] for e in engines})
