"""Find a cited symbol or phrase in a blob, as precisely as the file's language allows.

Order of preference: a definition, then a declaration (C/C++ and Python, via tree-sitter), then an
identifier-bounded mention outside comments. `contains` must occur inside the chosen definition.
Text is handled as Latin-1 so that string offsets equal tree-sitter's byte offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cfamily import C_SUFFIXES, CPP_SUFFIXES, definition_by_braces, matching_brace, parse_c_family
from .errors import ContainsMissing, SymbolNotFound
from .gitdir import Blob
from .parsed import Definition, ParsedSource
from .pysource import PY_SUFFIXES, parse_python
from .textsearch import comment_spans, find_identifier, find_phrase, line_of, mask

_IDENTIFIER_LIKE = re.compile(r"^[A-Za-z_][\w:.]*\Z")


@dataclass(frozen=True)
class Resolved:
    lines: tuple[int, int]
    kind: str  # "definition", "declaration", "mention" or "phrase"


@dataclass
class _Source:
    text: str  # Latin-1 decoding of the blob
    masked: str  # the same with comments blanked
    parsed: ParsedSource | None


class Resolver:
    """Parses each blob once per run, however many cites point into it."""

    def __init__(self) -> None:
        self._sources: dict[str, _Source] = {}
        self._texts: dict[str, str] = {}  # blobs only phrases were looked for in: decoded, not parsed

    def resolve_symbol(self, blob: Blob, symbol: str, contains: str | None = None) -> Resolved:
        source = self._source(blob)
        candidates = self._candidates(source, symbol) or self._braced_definition(source, symbol)
        if candidates:
            chosen = candidates[0]
            if contains:
                chosen = next((d for d in candidates if _occurs(source, contains, d.start, d.end)), None)
                if chosen is None:
                    places = ", ".join(f"L{d.lines[0]}-L{d.lines[1]}" for d in candidates[:4])
                    raise ContainsMissing(f"{contains!r} does not occur in {symbol} ({places}) in {blob.path}")
            return Resolved(chosen.lines, chosen.kind)
        offset = find_identifier(source.masked, symbol)
        if offset is None:
            where = "outside comments " if source.masked != source.text else ""
            raise SymbolNotFound(f"{symbol} is not in {blob.path} {where}at this commit")
        if contains:
            kind = "a definition" if source.parsed is not None else "a symbol in a parsed language"
            raise ContainsMissing(f"{symbol} is only mentioned in {blob.path} (L{line_of(source.text, offset)}), "
                                  f"not {kind}, so `contains: {contains}` cannot be checked")
        line = line_of(source.text, offset)
        return Resolved((line, line), "mention")

    def resolve_phrase(self, blob: Blob, phrase: str) -> Resolved:
        text = self._text(blob)  # a phrase is looked for in the text as it is: no parse, no mask
        span = find_phrase(text, _latin1(phrase))
        if span is None:
            raise SymbolNotFound(f"phrase {phrase!r} is not in {blob.path} at this commit")
        return Resolved((line_of(text, span[0]), line_of(text, span[1] - 1)), "phrase")

    def _text(self, blob: Blob) -> str:
        source = self._sources.get(blob.sha + blob.path)
        if source is not None:
            return source.text
        text = self._texts.get(blob.sha + blob.path)
        if text is None:
            text = self._texts[blob.sha + blob.path] = blob.data.decode("latin-1")
        return text

    def _source(self, blob: Blob) -> _Source:
        source = self._sources.get(blob.sha + blob.path)
        if source is None:
            text = self._texts.pop(blob.sha + blob.path, None) or blob.data.decode("latin-1")
            parsed = parse_source(blob.path, blob.data)
            spans = parsed.comments if parsed is not None else comment_spans(blob.path, text)
            source = self._sources[blob.sha + blob.path] = _Source(text, mask(text, spans), parsed)
        return source

    @staticmethod
    def _candidates(source: _Source, symbol: str) -> list[Definition]:
        if source.parsed is None:
            return []
        separator = source.parsed.separator
        wanted = re.sub(r"\s+", "", symbol)
        matches = [_whole(source, d) for d in source.parsed.definitions
                   if d.name == wanted or d.name.endswith(separator + wanted)]
        return [d for d in matches if d.kind == "definition"] + [d for d in matches if d.kind != "definition"]


    @staticmethod
    def _braced_definition(source: _Source, symbol: str) -> list[Definition]:
        if source.parsed is None or source.parsed.separator != "::":
            return []
        span = definition_by_braces(source.masked, symbol)
        if span is None:
            return []
        lines = (line_of(source.text, span[0]), line_of(source.text, span[1] - 1))
        return [Definition(symbol, "definition", span[0], span[1], lines)]


def _whole(source: _Source, definition: Definition) -> Definition:
    """A definition the parser only partly read, extended to the brace that closes its body."""
    if not definition.partial or definition.kind != "definition":
        return definition
    opening = source.masked.find("{", definition.start)
    end = matching_brace(source.masked, opening) if opening != -1 else None
    if end is None or end <= definition.end:
        return definition
    lines = (definition.lines[0], line_of(source.text, end - 1))
    return Definition(definition.name, definition.kind, definition.start, end, lines)


def parse_source(path: str, data: bytes) -> ParsedSource | None:
    """The definitions of a C, C++ or Python file; None for languages without a parser here."""
    if path.endswith(PY_SUFFIXES):
        return parse_python(data)
    if path.endswith(C_SUFFIXES):
        return parse_c_family(data, cpp=False)
    if path.endswith(CPP_SUFFIXES):
        return parse_c_family(data, cpp=True)
    return None


def _occurs(source: _Source, needle: str, start: int, end: int) -> bool:
    if _IDENTIFIER_LIKE.match(needle):
        return find_identifier(source.masked, needle, start, end) is not None
    return find_phrase(source.text, _latin1(needle), start, end) is not None


def _latin1(text: str) -> str:
    """A query string in the same decoding as the blob text."""
    return text.encode("utf-8").decode("latin-1")
