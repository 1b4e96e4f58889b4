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


@dataclass
class ParsedSource:
    separator: str
    definitions: list[Definition] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)  # byte spans
