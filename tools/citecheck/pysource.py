"""Definitions in Python sources, found with tree-sitter (tolerant of syntax newer than ours)."""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_python

from .parsed import Definition, ParsedSource, collect_comments, node_lines

PY_SUFFIXES = (".py", ".pyi")


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))


def parse_python(source: bytes) -> ParsedSource:
    parsed = ParsedSource(".")
    tree = _parser().parse(source)
    _walk(tree.root_node, (), parsed)
    collect_comments(tree, parsed)
    return parsed


def _add(parsed: ParsedSource, scope: tuple[str, ...], name: str, node: tree_sitter.Node) -> None:
    parsed.definitions.append(Definition(".".join((*scope, name)), "definition", node.start_byte, node.end_byte, node_lines(node)))


def _walk(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource) -> None:
    for child in node.children:
        # A decorated definition's range starts at its first decorator (registrations live there).
        target = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
        if target is None:
            continue
        if target.type in ("function_definition", "class_definition"):
            name = target.child_by_field_name("name").text.decode()
            _add(parsed, scope, name, child)
            if target.type == "class_definition":  # nested classes and methods; not function bodies
                _walk(target.child_by_field_name("body"), (*scope, name), parsed)
        elif target.type == "expression_statement":
            for assignment in target.named_children:
                left = assignment.child_by_field_name("left") if assignment.type == "assignment" else None
                if left is not None and left.type == "identifier":
                    _add(parsed, scope, left.text.decode(), child)
        elif target.type == "type_alias_statement":
            left = target.named_children[0] if target.named_children else None
            if left is not None:
                _add(parsed, scope, left.text.decode().split("[")[0], child)
        elif target.type in ("if_statement", "try_statement", "with_statement", "block", "else_clause",
                             "elif_clause", "except_clause", "finally_clause"):
            _walk(target, scope, parsed)  # `if TYPE_CHECKING:` / `try: import` guards at module level

