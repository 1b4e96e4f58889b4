"""The page syntax: one HTML comment per directive, so it can never collide with `{{` in code.

    <!-- kb:claims engine=ncnn dimension=device.memory -->   a list of claims (filters combine)
    <!-- kb:claim ncnn/vulkan-only-gpu -->                   one claim
    <!-- kb:ref ncnn/vulkan-only-gpu -->                     an inline link to a claim
    <!-- kb:engine ncnn -->                                  one engine's pin and claim counts
    <!-- kb:engines -->                                      the engines and their pins
    <!-- kb:coverage engine=ncnn -->                         claims per dimension and label
    <!-- kb:compare layer=device -->                         one layer's dimensions against the engines
    <!-- kb:models engine=vllm-omni task=tts -->             a report's model families, a row per claim
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

DIRECTIVE = re.compile(r"<!--\s*kb:(?P<name>[a-z]+)(?P<args>[^>]*?)\s*-->")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")


@dataclass(frozen=True)
class Directive:
    name: str
    positional: tuple[str, ...]
    options: dict[str, str]
    line: int
    start: int
    end: int


def find_directives(markdown: str) -> list[Directive]:
    """Directives outside fenced code blocks, in page order."""
    found = []
    fenced = _fenced_spans(markdown)
    for match in DIRECTIVE.finditer(markdown):
        if any(start <= match.start() < end for start, end in fenced):
            continue
        positional, options = [], {}
        for word in shlex.split(match.group("args")):
            key, sep, value = word.partition("=")
            if sep:
                options[key] = value
            else:
                positional.append(word)
        line = markdown.count("\n", 0, match.start()) + 1
        found.append(Directive(match.group("name"), tuple(positional), options, line, match.start(), match.end()))
    return found


def _fenced_spans(markdown: str) -> list[tuple[int, int]]:
    spans, offset, opened = [], 0, None
    for line in markdown.splitlines(keepends=True):
        fence = FENCE.match(line)
        if fence:
            marker = fence.group(2)
            if opened is None:
                opened = (offset, marker)
            elif line.strip().startswith(opened[1][0] * len(opened[1])):
                spans.append((opened[0], offset + len(line)))
                opened = None
        offset += len(line)
    if opened is not None:
        spans.append((opened[0], offset))
    return spans
