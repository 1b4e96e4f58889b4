"""What a parser found in one source file: named definitions and the spans of comments."""

from __future__ import annotations

from dataclasses import dataclass, field


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


def collect_comments(node, parsed: ParsedSource) -> None:
    """Record every comment below `node`: mentions inside them do not count."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "comment":
            parsed.comments.append((current.start_byte, current.end_byte))
        else:
            stack.extend(current.children)
