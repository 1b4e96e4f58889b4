"""Claim lists moved out of their page into small JSON pieces of its own, so that a long engine page
stays light: kb-pieces.js fetches a list's piece when the list nears the screen. One list may stay: the
one holding the page's first cites panel (`evidence.Named.first_cites`), drawn in place, so that the
first panel a reader can open on an engine page waits for no piece (its cites file is preloaded, see
evidence.py). Pure: the MkDocs glue writes the pieces.

The renderer puts each claim list in `<section class="kb-claims kb-later" …><template>…</template></section>`
(claims.html.j2); here the template's content leaves the page and the section names where it went.
"""

from __future__ import annotations

import html
import posixpath
import re

# A waiting claim list exactly as claims.html.j2 writes it. Its content holds no <template> of its own,
# so the shortest match is the whole list; a model row's <template> may hold such a list, which moves too.
_WAITING = re.compile(r'<section class="kb-claims kb-later" data-search-exclude><template>(.*?)</template></section>', re.S)


# A piece closes once its lists' HTML passes this size (about 6 KB compressed): the first topic's claims
# then cost a small request, not the whole page's lists.
PIECE_BYTES = 24_000


def piece_path(page_src: str, number: int) -> str:
    """Where piece `number` of a docs page is written in the site, e.g. `pieces/engines/ncnn/0.json`."""
    return posixpath.join("pieces", posixpath.splitext(page_src)[0], f"{number}.json")


_CITED = re.compile(r'\sdata-claim="([^"]*)"')
_TEMPLATE = re.compile(r"<template>.*?</template>", re.S)


def in_sight(page_html: str) -> str:
    """What of the page a reader can reach without opening anything: its waiting claim lists as drawn
    (they are, as they near the screen), without the content other templates hold (a model row's claim,
    drawn when the reader opens the row). After the lists are unwrapped no template holds another."""
    return _TEMPLATE.sub("", _WAITING.sub(r'<section class="kb-claims" data-search-exclude>\1</section>', page_html))


def _in_template(page_html: str, position: int) -> bool:
    """Whether `position` is inside a <template> (the waiting lists before it are closed)."""
    return page_html.count("<template>", 0, position) > page_html.count("</template>", 0, position)


def split_waiting(page_html: str, href_of, keep: str = "") -> tuple[str, list[list[str]]]:
    """The page without its waiting claim lists, each left as an empty section naming its piece
    (`href_of(number)`) and its index there, and the pieces: the lists' HTML in page order, a new piece
    begun once one holds PIECE_BYTES. The first list showing the cites of claim `keep` stays in the
    page, drawn (no longer waiting), unless it waits inside another template (a model row's)."""
    pieces: list[list[str]] = []
    size = PIECE_BYTES
    kept = not keep

    def moved(match: re.Match) -> str:
        nonlocal size, kept
        if (not kept and keep in (html.unescape(cited.group(1)) for cited in _CITED.finditer(match.group(1)))
                and not _in_template(page_html, match.start())):
            kept = True
            return f'<section class="kb-claims" data-search-exclude>{match.group(1)}</section>'
        if size >= PIECE_BYTES:
            pieces.append([])
            size = 0
        pieces[-1].append(match.group(1))
        size += len(match.group(1))
        return (f'<section class="kb-claims kb-later" data-search-exclude data-piece="{html.escape(href_of(len(pieces) - 1))}"'
                f' data-index="{len(pieces[-1]) - 1}"></section>')

    return _WAITING.sub(moved, page_html), pieces
