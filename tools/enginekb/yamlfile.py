"""Read the YAML subset the records use, keeping the line of every value so errors can name `path:line`.

The subset: mappings with plain-scalar keys, sequences, and scalars that are strings, integers,
floats, `true`/`false` or null. No anchors, aliases, merge keys or explicit tags (they let a few
hundred bytes expand without bound, or name Python objects), no control characters (written or as
escapes such as "\\e"), no invisible or bidirectional format characters, and bounds on size and
nesting. Scalars are typed as YAML 1.2's core schema types them: `yes`, `no`, `on` and `off` are
strings, so `OFF` in a cite means `OFF`; `1_000` and `1:30` are strings, not 1000 and 90; `0o17` and
`0x1f` are numbers. An integer with a leading zero (`010`, octal 8 in YAML 1.1, 10 in 1.2) and
`.inf`/`.nan` are refused. Dates stay strings, as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .regularfile import NotRegularFileError, read_regular
from .store import digest

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 32
# C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# In a decoded value also carriage return (it rewrites a terminal line) and the Unicode line separators.
VALUE_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
SCALAR_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null")}
BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
# YAML 1.2 core schema numbers (1.1's underscores, sexagesimal and 0-prefixed octal are not numbers).
INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                   r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")

# PyYAML and the loader made from it, at the first parse: a load the record store answers wholly
# never imports it (a tenth of a warm command's imports).
yaml: Any = None
_Loader: Any = None
_CONSTRUCT: Any = None  # builds scalars only; never sees a document


def _import_yaml() -> None:
    global yaml, _Loader, _CONSTRUCT
    if yaml is not None:
        return
    import yaml as pyyaml

    # libyaml's parser is ten times faster; its marks give the same lines
    base = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)

    class Loader(base):
        """Dates stay strings; booleans are only true/false."""

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers
                if tag.rsplit(":", 1)[-1] not in ("timestamp", "bool", "int", "float")]
        for first, resolvers in pyyaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver("tag:yaml.org,2002:bool", BOOL, list("tTfF"))
    Loader.add_implicit_resolver("tag:yaml.org,2002:int", INT, list("-+0123456789"))  # before float: 10 is both
    Loader.add_implicit_resolver("tag:yaml.org,2002:float", FLOAT, list("-+0123456789."))
    _Loader, _CONSTRUCT, yaml = Loader, pyyaml.SafeLoader(""), pyyaml


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
    digest: str = ""  # of the text, for the record store

    def line_of(self, location: tuple) -> int:
        """The line of the deepest known value on `location` (errors may point below a leaf)."""
        location = tuple(location)
        while location not in self.lines and location:
            location = location[:-1]
        return self.lines.get(location, 1)


def read_text(path: Path) -> str:
    """A record file's text: a regular file, bounded in size, UTF-8, without control characters."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except NotRegularFileError as error:
        raise YamlError(path, 0, "is a directory, not a YAML file" if "a directory" in error.strerror
                        else "is not a regular file") from None
    except IsADirectoryError:
        raise YamlError(path, 0, "is a directory, not a YAML file") from None
    except OSError as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise YamlError(path, 0, f"cannot be read ({error.strerror})") from None
    if len(raw) > MAX_BYTES:
        raise YamlError(path, 0, f"is larger than {MAX_BYTES // 1024 // 1024} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise YamlError(path, line, f"not UTF-8 text ({error.reason})") from None
    bad = CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise YamlError(path, line, f"control character U+{ord(bad.group()):04X} (only tab and newline may appear)")
    return text


def load_yaml(path: Path, store=None) -> LocatedYaml:
    """The file's records; with a `RecordStore`, unchanged text is not parsed again."""
    text = read_text(path)
    if store is None:
        return parse_yaml(text, path)
    key = digest(text)
    hit = store.get(key, path, text)
    if hit is not None:
        return LocatedYaml(path, hit[0], hit[1], key)
    located = parse_yaml(text, path)
    located.digest = key
    store.put(key, located.data, located.lines)
    return located


def _depth_check(text: str, path: Path) -> None:
    """Refuse nesting past the limit before libyaml sees it: its C composer recurses per level and
    100,000 nested `[` overflow its stack (a segfault, not an error). Brackets inside quoted strings
    count too: a generous bound (twice the depth limit) keeps real records clear of it. Block nesting
    without brackets is bounded as well: compact entries (`- - - x`, `? - ? - x`) open a level each on
    one line, so a line starting with more than twice the limit of them is refused; nesting by
    indentation alone needs a longer line per level, and the size limit keeps it to a depth libyaml
    composes without harm."""
    compact = _COMPACT.search(text)
    if compact:
        raise YamlError(path, text.count("\n", 0, compact.start()) + 1, f"nested deeper than {MAX_DEPTH} levels")
    depth = 0
    for match in _FLOW_BRACKET.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > 2 * MAX_DEPTH:
            raise YamlError(path, text.count("\n", 0, match.start()) + 1, f"nested deeper than {MAX_DEPTH} levels")
        depth = max(depth, 0)


_FLOW_BRACKET = re.compile(r"[\[\]{}]")
# A line's indentation, then block indicators (`-`, `?`, `:`) each followed by a space: one level each.
_COMPACT = re.compile(r"^\ufeff?[ \t]*(?:---[ \t]+)?(?:[-?:][ \t]+){%d}" % (2 * MAX_DEPTH + 1), re.MULTILINE)


def parse_yaml(text: str, path: Path) -> LocatedYaml:
    _import_yaml()
    _depth_check(text, path)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlError(path, line, f"malformed YAML: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise YamlError(path, 1, f"malformed YAML: {error}") from None
    except RecursionError:
        raise YamlError(path, 1, f"nested deeper than {MAX_DEPTH} levels") from None
    located = LocatedYaml(path, None)
    if node is not None:
        located.data = _Walk(path, located.lines).value(node, ())
    return located


def _integer(text: str) -> int:
    if text[:2] in ("0o", "0x"):
        return int(text[2:], 8 if text[1] == "o" else 16)
    digits = text.lstrip("+-")
    if len(digits) > 1 and digits[0] == "0":
        raise ValueError(f"a leading zero: YAML 1.1 reads it as octal, 1.2 as decimal; write {int(text)} or quote it")
    return int(text)


def _float(text: str) -> float:
    if text.lstrip("+-").lower() in (".inf", ".nan"):
        raise ValueError("not a finite number")
    return float(text)


_NUMBERS = {"tag:yaml.org,2002:int": _integer, "tag:yaml.org,2002:float": _float}


@dataclass
class _Walk:
    path: Path
    lines: dict[tuple, int]

    def fail(self, node: yaml.Node, message: str) -> YamlError:
        return YamlError(self.path, node.start_mark.line + 1, message)

    def value(self, node: yaml.Node, location: tuple) -> Any:
        if len(location) > MAX_DEPTH:
            raise self.fail(node, f"nested deeper than {MAX_DEPTH} levels")
        # The composer hands an alias back as the very node it names: meeting a node twice is an alias.
        if id(node) in self.seen:
            raise self.fail(node, "anchors and aliases (&name, *name) are not allowed in records")
        self.seen[id(node)] = node
        self.lines[location] = node.start_mark.line + 1
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                raise self.fail(node, f"unsupported YAML tag {node.tag}")
            return [self.value(item, location + (index,)) for index, item in enumerate(node.value)]
        if node.tag != "tag:yaml.org,2002:map":
            raise self.fail(node, f"unsupported YAML tag {node.tag}")
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, "merge keys (<<) are not allowed in records")
            if id(key_node) in self.seen:
                raise self.fail(key_node, "anchors and aliases (&name, *name) are not allowed in records")
            self.seen[id(key_node)] = key_node
            key = self.scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise self.fail(key_node, "mapping keys must be plain strings or integers")
            if key in result:
                raise self.fail(key_node, f"duplicate key {key!r}")
            result[key] = self.value(value_node, location + (key,))
            self.lines[location + (key,)] = key_node.start_mark.line + 1
        return result

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == "!":  # quoted or explicitly non-specific: a string
            return self.text(node, node.value)
        if node.tag not in SCALAR_TAGS:
            raise self.fail(node, f"unsupported YAML tag {node.tag}")
        try:  # the tag's constructor called directly: construct_object would cache every node
            construct = _NUMBERS.get(node.tag)
            value = construct(node.value) if construct else _CONSTRUCT.yaml_constructors[node.tag](_CONSTRUCT, node)
        except (yaml.YAMLError, ValueError) as error:
            raise self.fail(node, f"bad {node.tag.rsplit(':', 1)[-1]} value {node.value!r} ({error})") from None
        return self.text(node, value) if isinstance(value, str) else value

    def text(self, node: yaml.ScalarNode, value: str) -> str:
        """A string as decoded, escapes included: no control or invisible/bidirectional format character."""
        bad = VALUE_CONTROL.search(value)
        if bad:
            raise self.fail(node, f"control character U+{ord(bad.group()):04X} in a value (only tab and newline may appear)")
        if not value.isascii():
            for character in value:
                if unicodedata.category(character) == "Cf":
                    raise self.fail(node, f"invisible or bidirectional format character U+{ord(character):04X} "
                                          f"({unicodedata.name(character, 'unnamed')}) in a value")
        return value

    def __post_init__(self) -> None:
        self.seen: dict[int, yaml.Node] = {}  # nodes kept alive so that their ids stay unique
