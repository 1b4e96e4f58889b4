"""Claim lists moved out of their page into a small JSON piece of its own, so that a long engine page
stays light: kb-pieces.js fetches the piece when the first waiting list nears the screen. Pure: the
MkDocs glue writes the pieces.

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


def piece_path(page_src: str) -> str:
    """Where a docs page's piece is written in the site, e.g. `pieces/engines/ncnn.json`."""
    return posixpath.join("pieces", posixpath.splitext(page_src)[0] + ".json")


def split_waiting(page_html: str, piece_href: str) -> tuple[str, list[str]]:
    """The page without its waiting claim lists, each left as an empty section naming `piece_href` and its
    index there, and the lists' HTML in that order (the piece)."""
    pieces: list[str] = []

    def moved(match: re.Match) -> str:
        pieces.append(match.group(1))
        return (f'<section class="kb-claims kb-later" data-search-exclude data-piece="{html.escape(piece_href)}"'
                f' data-index="{len(pieces) - 1}"></section>')

    return _WAITING.sub(moved, page_html), pieces
