"""The Jinja2 environment every rendering uses, and how a record's text becomes safe HTML."""

from __future__ import annotations

import html
import re
from functools import cache

import jinja2

from enginekb.model import LABEL_MARKS, LABEL_TITLES, claim_anchor

BLANK_LINES = re.compile(r"\n\s*\n")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("kbsite", "templates"),
        auto_reload=False,  # templates are package files: compile each once per process
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




def render_template(template: str, **values) -> str:
    """A template's HTML without blank lines: Markdown would end the HTML block at one."""
    return BLANK_LINES.sub("\n", environment().get_template(template).render(**values))
