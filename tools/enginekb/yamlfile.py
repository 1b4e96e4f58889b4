"""Read YAML while keeping the line of every value, so that errors can name `path:line`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps dates as strings: records compare and print them as written."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class YamlError(Exception):
    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@dataclass
class LocatedYaml:
    """A parsed document and the 1-based line of each value, keyed by its path of keys/indexes."""

    path: Path
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)

    def line_of(self, location: tuple) -> int:
        """The line of the deepest known value on `location` (errors may point below a leaf)."""
        location = tuple(location)
        while location not in self.lines and location:
            location = location[:-1]
        return self.lines.get(location, 1)


def load_yaml(path: Path) -> LocatedYaml:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise YamlError(path, 1, f"not UTF-8 text ({error.reason})") from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlError(path, line, f"malformed YAML: {error.problem or error.context}") from None
    located = LocatedYaml(path, None)
    if node is not None:
        located.data = _to_python(node, (), located.lines, path, _Loader(""))
    return located


def _to_python(node: yaml.Node, location: tuple, lines: dict, path: Path, loader: _Loader) -> Any:
    lines[location] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, (str, int)):
                raise YamlError(path, key_node.start_mark.line + 1, "mapping keys must be plain scalars")
            if key in result:
                raise YamlError(path, key_node.start_mark.line + 1, f"duplicate key {key!r}")
            result[key] = _to_python(value_node, location + (key,), lines, path, loader)
            lines[location + (key,)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_to_python(item, location + (index,), lines, path, loader) for index, item in enumerate(node.value)]
    if node.tag.startswith("tag:yaml.org,2002:") or node.tag == "!":
        return loader.construct_object(node)
    raise YamlError(path, node.start_mark.line + 1, f"unsupported YAML tag {node.tag}")
