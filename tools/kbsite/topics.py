"""Topic headings: a claim list's dimension groups as real Markdown headings, with ids, so that they
are in the page's table of contents, in search as sections of their own, and linkable."""

from __future__ import annotations

import re

from enginekb.model import Dimension

from .templating import INERT, inert, references

# A heading line is Markdown: beside what is inert everywhere, closing hashes and emphasis.
HEADING_INERT = INERT | references("#*_+")


def topic_anchor(engines: list[str], dimension: str) -> str:
    """`topic-ncnn-device-memory` for one engine's topic, `topic-device-memory` across engines."""
    words = [engines[0], dimension] if len(engines) == 1 else [dimension]
    return "topic-" + re.sub(r"[^a-z0-9]+", "-", "-".join(words).lower()).strip("-")


def topic_heading(dimension: Dimension, anchor: str, level: int) -> str:
    """A Markdown heading line (attr_list sets its id); the title is escaped for HTML and Markdown,
    the key quoted (the loader admits only names as keys)."""
    title = " ".join(dimension.title.split()).translate(HEADING_INERT)
    return f"\n\n{'#' * level} {title} {{#{anchor} .kb-topic data-dimension=\"{inert(dimension.key)}\"}}\n\n"


def unique(anchor: str, used: set[str]) -> str:
    """`anchor`, or `anchor-2`, `anchor-3`... when the page already has it."""
    candidate, number = anchor, 1
    while candidate in used:
        number += 1
        candidate = f"{anchor}-{number}"
    used.add(candidate)
    return candidate
