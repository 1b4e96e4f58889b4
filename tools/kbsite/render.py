"""Turn directives in a page's Markdown into HTML rendered from the records. Pure: no I/O.

Every name a page uses (claim, engine, dimension, label) must exist, and every cite must have a lock
entry, or rendering fails with the page and line.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import jinja2

from citecheck.lock import Lock, cite_key
from enginekb.model import LABEL_MARKS, LABEL_TITLES, LABELS, Catalog, Claim, claim_anchor

from .directives import Directive, DirectiveError, find_directives
from .explorer import explorer_context
from .models import model_rows
from .pages import EXPLORER_PAGE, engine_page
from .topics import topic_anchor, topic_heading, unique

BLANK_LINES = re.compile(r"\n\s*\n")
FILTERS = ("engine", "dimension", "layer", "label", "report")


class RenderError(Exception):
    pass


@dataclass(frozen=True)
class RenderedCite:
    file: str
    target: str
    target_kind: str
    contains: str | None
    url: str
    lines: tuple[int, int]
    kind: str


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("kbsite", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        finalize=_one_line,
    )
    env.filters["prose"] = prose
    env.filters["plain"] = plain
    env.globals["LABEL_TITLES"] = LABEL_TITLES
    env.globals["LABEL_MARKS"] = LABEL_MARKS
    env.globals["anchor"] = claim_anchor
    return env


INLINE_CODE = re.compile(r"`([^`]+)`")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")


def _one_line(value):
    """Every value from a record is put on one line: a blank line would end the HTML block and let
    the rest be read as Markdown (headings, links, broken tables). Our own HTML passes untouched."""
    if isinstance(value, str) and not isinstance(value, jinja2.utils.markupsafe.Markup):
        return " ".join(value.split())
    return value


def prose(text: str) -> str:
    """A record's text as safe inline HTML: everything escaped, then `code`, **strong** and *emphasis*.

    Nothing else of Markdown is honoured, links included: a record cannot inject HTML or a URL.
    """
    escaped = html.escape(" ".join(text.split()), quote=True)
    pieces = INLINE_CODE.split(escaped)  # odd pieces are code: no emphasis inside
    for index in range(0, len(pieces), 2):
        pieces[index] = EMPHASIS.sub(r"<em>\1</em>", STRONG.sub(r"<strong>\1</strong>", pieces[index]))
    for index in range(1, len(pieces), 2):
        pieces[index] = f"<code>{pieces[index]}</code>"
    return jinja2.utils.markupsafe.Markup("".join(pieces))


def plain(text: str) -> str:
    """A record's text for an attribute or tooltip: the inline markers dropped, escaped by the template."""
    return STRONG.sub(r"\1", EMPHASIS.sub(r"\1", " ".join(text.split()).replace("`", "")))


Linker = Callable[[str], str]


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


def _render(template: str, **values) -> str:
    """A template's HTML without blank lines: Markdown would end the HTML block at one."""
    return BLANK_LINES.sub("\n", _environment().get_template(template).render(**values))


def _render_directive(directive: Directive, catalog: Catalog, lock: Lock, link: Linker, topics: set[str]) -> str:
    if directive.name == "claims":
        options = dict(directive.options)
        level = options.pop("heading", "3")
        if level not in ("2", "3", "4", "5", "none"):
            raise RenderError("heading= takes a level from 2 to 5, or none")
        # Topic headings, unless the list is one dimension already (or the page says none).
        one_topic = level == "none" or ("dimension" in options and "," not in options["dimension"])
        level_number = 0 if one_topic else int(level)
        return render_claim_list(select_claims(catalog, options, directive.positional), catalog, lock, link,
                                 None if one_topic else topics, level_number or 3)
    if directive.name == "claim":
        return render_claim_list([_claim(catalog, claim_id) for claim_id in _ids(directive)], catalog, lock, link)
    if directive.name == "ref":
        return ", ".join(render_ref(_claim(catalog, claim_id), link) for claim_id in _ids(directive))
    if directive.name == "engines":
        return render_engine_table(catalog, link)
    if directive.name == "engine":
        return render_engine_card(catalog, _engines(catalog, ",".join(directive.positional) or None)[0], link)
    if directive.name == "coverage":
        return render_coverage(catalog, _analysed_engines(catalog, directive.options.get("engine")))
    if directive.name == "compare":
        return render_compare(catalog, directive.options, link)
    if directive.name == "models":
        return render_models(catalog, directive.options, link)
    if directive.name == "labels":
        return _render("labels.html.j2", labels=LABELS).strip()
    if directive.name == "explorer":
        return _render("explorer.html.j2", **explorer_context(catalog, link, lambda claim: claim_href(claim, link)))
    raise RenderError("unknown directive (known: claims, claim, ref, engine, engines, coverage, compare, models, explorer, labels)")


def _ids(directive: Directive) -> tuple[str, ...]:
    if not directive.positional:
        raise RenderError("names no claim id")
    return directive.positional


def _claim(catalog: Catalog, claim_id: str) -> Claim:
    claim = catalog.claim(claim_id)
    if claim is None:
        raise RenderError(f"unknown claim {claim_id!r}")
    return claim


def _analysed_engines(catalog: Catalog, value: str | None) -> list[str]:
    """The engines named, or by default every engine that has claims (an analysis)."""
    return _engines(catalog, value) if value else [e for e in catalog.engines if catalog.engine_claims(e)]


def _engines(catalog: Catalog, value: str | None) -> list[str]:
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
    engines = _engines(catalog, options.get("engine"))
    checks = {
        "dimension": (options.get("dimension"), catalog.dimensions),
        "layer": (options.get("layer"), {key for key, _ in catalog.layers}),
        "label": (options.get("label"), LABELS),
    }
    for name, (value, known) in checks.items():
        for item in value.split(",") if value else ():
            if item not in known:
                raise RenderError(f"unknown {name} {item!r}")
    selected = [_claim(catalog, claim_id) for claim_id in ids] or [
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


def _rendered_cites(claim: Claim, catalog: Catalog, lock: Lock) -> list[RenderedCite]:
    engine = catalog.engines[claim.engine]
    cites = []
    for cite in claim.cites:
        entry = lock.cites.get(cite_key(claim.engine, cite))
        if entry is None:
            raise RenderError(f"{claim.id}: cite {cite.file} {cite.target!r} has no lock entry: run citecheck")
        lines = tuple(entry["lines"])
        cites.append(RenderedCite(cite.file, cite.target, cite.target_kind, cite.contains,
                                  engine.permalink(cite.file, cite.commit, lines), lines, entry["kind"]))
    return cites


def describe_query(how: dict) -> str:
    """A count's query in words, e.g. `files matching src/layer/vulkan/*.cpp`."""
    if "glob" in how:
        text = f"{how.get('entries', 'files')} matching `{how['glob']}`"
    elif "lines" in how:
        text = f"lines of `{how['file']}` matching `{how['lines']}`"
    else:
        text = f"members of enum `{how['enum']}` in `{how['file']}`"
    return text + (f", leaving out those matching `{how['exclude']}`" if how.get("exclude") else "")


def render_claim_list(claims: list[Claim], catalog: Catalog, lock: Lock, link: Linker,
                      topics: set[str] | None = None, level: int = 3) -> str:
    """Claims grouped by dimension, in the comparison's order, each group keeping file order.

    With `topics` (the topic ids the page already has), each group opens with a topic heading of
    `level`; without, a list spanning several dimensions has plain group titles.
    """
    order = {key: index for index, key in enumerate(catalog.dimensions)}
    groups: dict[str, list[dict]] = {}
    for claim in sorted(claims, key=lambda c: order[c.dimension]):
        groups.setdefault(claim.dimension, []).append({
            "claim": claim, "cites": _rendered_cites(claim, catalog, lock),
            "query": describe_query(claim.count.how) if claim.count else "",
            "rests_on": [render_ref(_claim(catalog, other), link) for other in claim.rests_on],
        })
    sections = [(catalog.dimensions[key], items) for key, items in groups.items()]
    grouped = len(sections) > 1
    if topics is None:
        return _render("claims.html.j2", sections=sections, grouped=grouped)
    engines = sorted({c.engine for c in claims})
    return "".join(
        topic_heading(dimension, unique(topic_anchor(engines, dimension.key), topics), level)
        + _render("claims.html.j2", sections=[(dimension, items)], grouped=False, topic=True)
        for dimension, items in sections
    )


def claim_href(claim: Claim, link: Linker) -> str:
    """Where a claim stands: its engine's page, or its report's page, at the claim's anchor."""
    return f"{link(engine_page(claim.engine, claim.report))}#{claim_anchor(claim.id)}"


def render_ref(claim: Claim, link: Linker, short: bool = False) -> str:
    """A link to the claim on its engine's page; `short` shows the slug without the engine."""
    name = claim.id.split("/", 1)[1] if short else claim.id
    return _render("ref.html.j2", claim=claim, name=name, href=claim_href(claim, link)).strip()


def render_engine_table(catalog: Catalog, link: Linker) -> str:
    """Every engine with its pin; an engine with an analysis links to its page."""
    rows = []
    for engine in catalog.engines.values():
        claims = len(catalog.engine_claims(engine.id))
        page = link(engine_page(engine.id)) if claims else ""
        rows.append({"engine": engine, "claims": claims, "page": page,
                     "repository": engine.repository.removeprefix("https://github.com/")})
    return _render("engines.html.j2", rows=rows)


def render_coverage(catalog: Catalog, engines: list[str]) -> str:
    """Per dimension and engine: how many claims of each label. Empty cells show what is missing."""
    counts = Counter((c.engine, c.dimension, c.label) for c in catalog.claims)
    layers = [
        (title, [d for d in catalog.dimensions.values() if d.layer == key]) for key, title in catalog.layers
    ]
    return _render(
        "coverage.html.j2", layers=layers, engines=[catalog.engines[e] for e in engines], counts=counts, labels=LABELS,
    )


def render_engine_card(catalog: Catalog, engine_id: str, link: Linker) -> str:
    """The pin an engine's page describes, and how its claims are labelled (each count opens the explorer)."""
    labels = Counter(c.label for c in catalog.engine_claims(engine_id))
    return _render(
        "engine.html.j2", engine=catalog.engines[engine_id], explorer=link(EXPLORER_PAGE),
        labels=[(label, labels[label]) for label in LABELS if labels[label]],
    )


def render_models(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """A report's model table: `kb:models engine=vllm-omni report=models [task=tts,vla]`."""
    unknown = set(options) - {"engine", "report", "task"}
    if unknown or "engine" not in options:
        raise RenderError("takes engine=ID, and optionally report=NAME (default models) and task=T1,T2")
    engine = _engines(catalog, options["engine"])[0]
    claims = model_rows(catalog, engine, options.get("report", "models"), options.get("task"))
    if not claims:
        raise RenderError("selects no claim with a model")
    rows = [{"claim": claim, "ref": render_ref(claim, link, short=True)} for claim in claims]
    return _render("models.html.j2", rows=rows)


def render_compare(catalog: Catalog, options: dict[str, str], link: Linker) -> str:
    """One layer's dimensions against the engines: each cell links the claims on that row."""
    layers = dict(catalog.layers)
    if options.get("layer") not in layers:
        raise RenderError(f"needs layer=KEY (layers: {', '.join(layers)})")
    unknown = set(options) - {"layer", "engine"}
    if unknown:
        raise RenderError(f"unknown option {', '.join(sorted(unknown))} (options: layer, engine)")
    engines = _analysed_engines(catalog, options.get("engine"))
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
    return _render(
        "compare.html.j2", engines=[catalog.engines[e] for e in engines], rows=rows,
    )
