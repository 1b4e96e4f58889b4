"""The page syntax: one HTML comment per directive, so it can never collide with `{{` in code.

    <!-- kb:claims engine=ncnn dimension=device.memory -->   a list of claims (filters combine)
    <!-- kb:claim ncnn/vulkan-only-gpu -->                   one claim
    <!-- kb:ref ncnn/vulkan-only-gpu -->                     an inline link to a claim
    <!-- kb:engine ncnn -->                                  one engine's pin and claim counts
    <!-- kb:engines -->                                      the engines and their pins
    <!-- kb:coverage engine=ncnn -->                         claims per dimension and label
    <!-- kb:compare layer=device -->                         one layer's dimensions against the engines
    <!-- kb:models engine=vllm-omni task=tts -->             a report's model families, a row per claim
    <!-- kb:explorer -->                                     every claim, filtered in the browser
    <!-- kb:grid -->                                        every row of the page's matrices as a verdict mark a cell
    <!-- kb:labels -->                                       the labels, each as its badge (a legend)
    <!-- kb:rules -->                                        the rules of grading the rubrics name
    <!-- kb:measurements report=phone-npu -->                every measured figure as a filterable table of values
    <!-- kb:related quantity="…" ID ID … -->                measured figures of one quantity side by side, what differs
    <!-- kb:artifacts -->                                    the earlier study's artifacts, used or why not
    <!-- kb:statements [document=PATH] -->                   the study's documents and their shares, or one document's
                                                             statements, recorded or why not
    <!-- kb:disagreements -->                                where the study contradicts itself, and what the site uses
    <!-- kb:scenario tts-android-streaming -->               one question of the guide, engines best first
    <!-- kb:scenarios -->                                    every question against every engine
    <!-- kb:family qwen3-tts -->                             one model family: sizes, licences, inputs, ports
    <!-- kb:families task=tts,vla -->                        every model family as one table
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

DIRECTIVE = re.compile(r"<!--\s*kb:(?P<name>[a-z]+)(?P<args>[^>]*?)\s*-->")
# Anything that looks meant as a directive: a misspelling must fail, not stay an invisible comment.
LOOKALIKE = re.compile(r"<!--\s*kb\s*:", re.IGNORECASE)


class DirectiveError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message
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
    """Directives outside fenced code blocks, in page order; DirectiveError for a malformed one."""
    found = []
    fenced = _fenced_spans(markdown)
    matched = set()
    for match in DIRECTIVE.finditer(markdown):
        if any(start <= match.start() < end for start, end in fenced):
            continue
        matched.add(match.start())
        line = markdown.count("\n", 0, match.start()) + 1
        positional, options = [], {}
        try:
            words = shlex.split(match.group("args"))
        except ValueError as error:
            raise DirectiveError(line, f"kb:{match.group('name')}: cannot read its arguments ({error})") from None
        if len(match.group("args")) > 0 and not match.group("args")[0].isspace():
            raise DirectiveError(line, f"kb:{match.group('name')}{match.group('args').split()[0]}: not a directive name")
        for word in words:
            key, sep, value = word.partition("=")
            if sep:
                options[key] = value
            else:
                positional.append(word)
        found.append(Directive(match.group("name"), tuple(positional), options, line, match.start(), match.end()))
    for match in LOOKALIKE.finditer(markdown):
        if match.start() not in matched and not any(start <= match.start() < end for start, end in fenced):
            line = markdown.count("\n", 0, match.start()) + 1
            raise DirectiveError(line, "malformed directive: write <!-- kb:name args --> (lower-case name, no space after kb:)")
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
