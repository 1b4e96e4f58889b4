"""The Jinja2 environment every rendering uses, and how a record's text becomes safe HTML.

One rule for every value a template prints: a plain string is made inert — HTML-escaped, and the
characters Markdown acts on written as character references — because MkDocs runs Markdown over our
HTML wherever a rendering stands inline (a `kb:ref` in a paragraph or a table, anything inside an
admonition): there `[x](onmouseover=...)` inside a title attribute would become a link whose quotes
close the attribute. Only Markup built here (`prose`, `https_url`) or our own renderings (`| safe`)
pass as they are. A new field is safe by printing it: `{{ claim.scope }}`, `{{ claim.scope | prose }}`.
"""

from __future__ import annotations

import html
import re
from functools import cache
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from enginekb.model import LABEL_MARKS, LABEL_TITLES, claim_anchor

from .errors import RenderError

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
    env.filters["https_url"] = https_url
    env.globals["LABEL_TITLES"] = LABEL_TITLES
    env.globals["LABEL_MARKS"] = LABEL_MARKS
    env.globals["anchor"] = claim_anchor
    return env


INLINE_CODE = re.compile(r"`([^`]+)`")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")


def references(chars: str) -> dict[int, str]:
    """A translation table writing each of `chars` as a character reference."""
    return {ord(char): f"&#{ord(char)};" for char in chars}


# What Markdown (with the site's extensions) acts on inside a line: links and images ([ ] ( ) !),
# code spans, escapes, attribute lists ({ }), table cells (|). Written as character references,
# which Markdown passes through and the browser reads back as the characters.
MARKDOWN_INERT = references("[]()!`\\{}|")
INERT = references("&<>\"'") | MARKDOWN_INERT
TAG = re.compile(r"</?[A-Za-z][^<>]*>?")  # a tag, closed or not; `a < b` stays text


def _one_line(value):
    """Every value printed: a plain string is put on one line (a blank line would end the HTML block
    and let the rest be read as Markdown) and made inert. Our own HTML (Markup) passes untouched."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return inert(value)
    return value


def inert(text: str) -> Markup:
    """Text that stays text in an element or a quoted attribute, whatever Markdown or HTML reads it."""
    return Markup(" ".join(text.split()).translate(INERT))


def prose(text: str) -> Markup:
    """A record's text as safe inline HTML: everything escaped, then `code`, **strong** and *emphasis*.

    Nothing else of Markdown is honoured, links included: a record cannot inject HTML or a URL.
    """
    escaped = html.escape(" ".join(text.split()), quote=True)
    pieces = INLINE_CODE.split(escaped)  # odd pieces are code: no emphasis inside
    for index in range(0, len(pieces), 2):
        pieces[index] = EMPHASIS.sub(r"<em>\1</em>", STRONG.sub(r"<strong>\1</strong>", pieces[index]))
    for index in range(1, len(pieces), 2):
        pieces[index] = f"<code>{pieces[index]}</code>"
    # Our tags hold none of the characters translated: only the record's text changes.
    return Markup("".join(pieces).translate(MARKDOWN_INERT))


def plain(text: str) -> str:
    """A record's text for an attribute, a tooltip or a search entry: tags and the inline markers
    dropped. Still text: a template makes it inert when it prints it."""
    return STRONG.sub(r"\1", EMPHASIS.sub(r"\1", TAG.sub("", " ".join(text.split())).replace("`", "")))


class UnsafeUrl(RenderError):
    pass


def https_url(base: str, *components: str) -> Markup:
    """`base` (an https URL) joined with path components, each percent-quoted (its slashes kept):
    the only way a record's value becomes a link. Anything but https raises UnsafeUrl."""
    parts = urlsplit(base)
    if parts.scheme != "https" or not parts.netloc or any(c in base for c in "\"'<> \t\n`"):
        raise UnsafeUrl(f"not an https URL: {base!r}")
    path = "/".join(quote(component.strip("/"), safe="/") for component in components)
    return inert(base.rstrip("/") + ("/" + path if path else ""))


def render_template(template: str, **values) -> str:
    """A template's HTML without blank lines: Markdown would end the HTML block at one."""
    return BLANK_LINES.sub("\n", environment().get_template(template).render(**values))
