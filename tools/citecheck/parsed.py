"""What a parser found in one source file: named definitions and the spans of comments."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import tree_sitter


@dataclass(frozen=True)
class Definition:
    name: str  # qualified with the language's separator: ncnn::Net::load_param, Scheduler.schedule
    kind: str  # "definition" or "declaration"
    start: int  # byte offsets of the whole definition (decorators and body included)
    end: int
    lines: tuple[int, int]  # 1-based, inclusive
    partial: bool = False  # the parser recovered from an error inside it: its end may be early


@dataclass
class ParsedSource:
    separator: str
    definitions: list[Definition] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)  # byte spans


def node_lines(node) -> tuple[int, int]:
    """1-based inclusive lines of a tree-sitter node; a node ending at column 0 ends on the line before."""
    end = node.end_point.row + (1 if node.end_point.column > 0 else 0)
    return node.start_point.row + 1, max(end, node.start_point.row + 1)


def collect_comments(tree: tree_sitter.Tree, parsed: ParsedSource) -> None:
    """Record every comment in `tree`: mentions inside them do not count. A tree-sitter query
    finds them in C, without walking every node in Python."""
    captures = tree_sitter.QueryCursor(_comment_query(tree.language)).captures(tree.root_node)
    parsed.comments.extend((c.start_byte, c.end_byte) for c in captures.get("comment", []))


@cache
def _comment_query(language) -> tree_sitter.Query:
    return tree_sitter.Query(language, "(comment) @comment")
