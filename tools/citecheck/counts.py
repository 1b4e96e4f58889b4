"""Recompute a count claim's number at a commit from its declarative `how`."""

from __future__ import annotations

import re

from .cfamily import C_SUFFIXES, enum_members
from .errors import FileMissing, SymbolNotFound
from .gitstore import GitStore
from .textsearch import comment_spans, mask


def compute_count(store: GitStore, sha: str, how: dict) -> int:
    exclude = re.compile(how["exclude"]) if how.get("exclude") else None

    def kept(item: str) -> bool:
        return exclude is None or not exclude.search(item)

    if "glob" in how:
        wanted = ("directory",) if how.get("entries") == "directories" else ("file", "symlink")
        pattern = glob_to_regex(how["glob"])
        matched = [e for e in store.entries(sha) if e.kind in wanted and pattern.fullmatch(e.path)]
        if not matched:
            # Zero from a glob cannot tell an absence from a mistyped path: state absences in text.
            raise FileMissing(f"nothing at {sha[:12]} matches {how['glob']!r}")
        return sum(1 for e in matched if kept(e.path))
    blob = store.read(sha, how["file"])
    if "constant" in how:
        return constant_value(blob, how["constant"])
    if "lines" in how:
        pattern = re.compile(how["lines"])
        return sum(1 for line in blob.text.splitlines() if pattern.search(line) and kept(line))
    members = enum_members(blob.data, not how["file"].endswith(C_SUFFIXES), how["enum"])
    if members is None:
        raise SymbolNotFound(f"no enum {how['enum']} with a body in {how['file']}")
    return sum(1 for member in members if kept(member))


def glob_to_regex(glob: str) -> re.Pattern:
    """`*` and `?` stay within one path component; `**` crosses directories."""
    out, index = [], 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif glob.startswith("**", index):
            out.append(".*")
            index += 2
        elif glob[index] == "*":
            out.append("[^/]*")
            index += 1
        elif glob[index] == "?":
            out.append("[^/]")
            index += 1
        else:
            out.append(re.escape(glob[index]))
            index += 1
    return re.compile("".join(out))


def constant_value(blob, name: str) -> int:
    """The integer a file gives a named constant: `#define NAME 16`, `NAME = 16` (C/C++ constexpr or
    enum member, Python) or `NAME: int = 16`, outside comments. Exactly one definition must match."""
    text = mask(blob.text, comment_spans(blob.path, blob.text))
    word = re.escape(name)
    pattern = re.compile(rf"(?:#\s*define\s+{word}\s+\(?|(?<![\w.]){word}\s*(?::\s*[\w\[\]]+\s*)?=(?!=)\s*\(?)"
                         rf"\s*(0x[0-9a-fA-F]+|\d+)[uUlL]*\b")
    values = {int(m.group(1), 0) for m in pattern.finditer(text)}
    if len(values) != 1:
        found = "no integer definition" if not values else f"several values {sorted(values)}"
        raise SymbolNotFound(f"{name}: {found} in {blob.path}")
    return values.pop()
