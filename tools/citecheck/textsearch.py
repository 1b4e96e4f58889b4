"""Identifier-bounded and phrase search in text, with comments masked out where the syntax is known."""

from __future__ import annotations

import re
from functools import lru_cache

# Line-comment syntaxes by file suffix or name, for files no parser reads.
HASH_COMMENTS = (".cmake", ".txt", ".yaml", ".yml", ".sh", ".toml", ".cfg", ".ini", ".bzl", ".bazel", ".mk")
HASH_COMMENT_NAMES = ("CMakeLists.txt", "Makefile", "BUILD", "Dockerfile", "requirements.txt")
SLASH_COMMENTS = (".comp", ".glsl", ".vert", ".frag", ".cl", ".metal", ".wgsl", ".hlsl", ".java", ".kt",
                  ".swift", ".js", ".ts", ".rs", ".go", ".gradle", ".proto", ".fbs")
_SLASH_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_HASH_COMMENT = re.compile(r"(?<![\w$\"'])#[^\n]*")
_IDENT = re.compile(r"[A-Za-z0-9_]")


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span replaced by spaces (newlines kept, so line numbers do not move)."""
    chars = list(text)
    for start, end in spans:
        for index in range(start, min(end, len(chars))):
            if chars[index] != "\n":
                chars[index] = " "
    return "".join(chars)


def comment_spans(path: str, text: str) -> list[tuple[int, int]]:
    name = path.rsplit("/", 1)[-1]
    if name in HASH_COMMENT_NAMES or name.endswith(HASH_COMMENTS):
        return [m.span() for m in _HASH_COMMENT.finditer(text)]
    if name.endswith(SLASH_COMMENTS):
        return [m.span() for m in _SLASH_COMMENT.finditer(text)]
    return []


@lru_cache(maxsize=None)  # a warm run confirms thousands of cites: compile each word once
def identifier_pattern(word: str) -> re.Pattern:
    """`word` as a whole identifier: not preceded or followed by an identifier character."""
    head = r"(?<![A-Za-z0-9_])" if _IDENT.match(word[:1]) else ""
    tail = r"(?![A-Za-z0-9_])" if _IDENT.match(word[-1:]) else ""
    return re.compile(head + re.escape(word) + tail)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def find_identifier(text: str, word: str, start: int = 0, end: int | None = None) -> int | None:
    match = identifier_pattern(word).search(text, start, len(text) if end is None else end)
    return match.start() if match else None


def find_phrase(text: str, phrase: str, start: int = 0, end: int | None = None) -> tuple[int, int] | None:
    """Offsets of `phrase` in text[start:end], comparing with runs of white space folded to one."""
    pattern = _phrase_pattern(phrase)
    if pattern is None:
        return None
    match = pattern.search(text, start, len(text) if end is None else end)
    return match.span() if match else None


@lru_cache(maxsize=None)
def _phrase_pattern(phrase: str) -> re.Pattern | None:
    words = phrase.split()
    return re.compile(r"\s+".join(map(re.escape, words))) if words else None
