"""Identifier-bounded and phrase search in text, with comments masked out where the syntax is known."""

from __future__ import annotations

import re

# Line-comment syntaxes by file suffix or name, for files no parser reads.
HASH_COMMENTS = (".cmake", ".txt", ".yaml", ".yml", ".sh", ".toml", ".cfg", ".ini", ".bzl", ".bazel", ".mk")
HASH_COMMENT_NAMES = ("CMakeLists.txt", "Makefile", "BUILD", "Dockerfile", "requirements.txt")
SLASH_COMMENTS = (".comp", ".glsl", ".vert", ".frag", ".cl", ".metal", ".wgsl", ".hlsl", ".java", ".kt",
                  ".swift", ".js", ".ts", ".rs", ".go", ".gradle", ".proto", ".fbs")
_SLASH_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_HASH_COMMENT = re.compile(r"(?<![\w$\"'])#[^\n]*")


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span replaced by spaces (newlines kept, so line numbers do not move); spans
    may overlap. Built from slices, each span blanked by one substitution, not a character at a time."""
    pieces, at = [], 0
    for start, end in sorted(spans):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        span = text[start:end]
        pieces += (text[at:start], _NOT_NEWLINE.sub(" ", span) if "\n" in span else " " * len(span))
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


_NOT_NEWLINE = re.compile(r"[^\n]")


def comment_spans(path: str, text: str) -> list[tuple[int, int]]:
    name = path.rsplit("/", 1)[-1]
    if name in HASH_COMMENT_NAMES or name.endswith(HASH_COMMENTS):
        return [m.span() for m in _HASH_COMMENT.finditer(text)]
    if name.endswith(SLASH_COMMENTS):
        return [m.span() for m in _SLASH_COMMENT.finditer(text)]
    return []


# A word's characters, for the bounds of an identifier (ASCII only, as in C, C++ and Python names).
IDENTIFIER_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def find_identifier(text: str, word: str, start: int = 0, end: int | None = None) -> int | None:
    """Where `word` first occurs in text[start:end] as a whole identifier: where it begins (ends) with
    an identifier character, none stands right before it (right after it, within `end`).

    String methods rather than a pattern compiled per word: a run searches for thousands of words.
    """
    end = len(text) if end is None else min(end, len(text))
    head, tail = word[:1] in IDENTIFIER_CHARACTERS, word[-1:] in IDENTIFIER_CHARACTERS
    at = text.find(word, start, end)
    while at >= 0:
        after = at + len(word)
        if not (head and at and text[at - 1] in IDENTIFIER_CHARACTERS) and not (
                tail and after < end and text[after] in IDENTIFIER_CHARACTERS):
            return at
        at = text.find(word, at + 1, end)
    return None


def find_phrase(text: str, phrase: str, start: int = 0, end: int | None = None) -> tuple[int, int] | None:
    """Offsets of the first occurrence of `phrase` in text[start:end], its words in order with any run
    of white space between them (at least one character) where the phrase has one; None for a phrase
    of white space only."""
    words = phrase.split()
    if not words:
        return None
    end = len(text) if end is None else min(end, len(text))
    first, rest = words[0], words[1:]
    at = text.find(first, start, end)
    while at >= 0:
        position = at + len(first)
        for word in rest:
            gap = position
            while position < end and text[position].isspace():
                position += 1
            if position == gap or not text.startswith(word, position, end):
                break
            position += len(word)
        else:
            return at, position
        at = text.find(first, at + 1, end)
    return None
