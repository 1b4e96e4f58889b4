"""Definitions and declarations in C and C++ sources, found with tree-sitter.

Upstream headers put export macros where the grammar expects a name (`class NCNN_EXPORT Net`,
`GGML_API struct ggml_tensor * ggml_add(...)`); those macros are blanked out before parsing, byte for
byte, so that offsets and line numbers stay those of the real file.
"""

from __future__ import annotations

import re
from functools import cache

import tree_sitter
import tree_sitter_c
import tree_sitter_cpp

from .parsed import Definition, ParsedSource, collect_comments, node_lines

C_SUFFIXES = (".c",)
CPP_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cpp", ".cc", ".cxx", ".cu", ".cuh", ".m", ".mm", ".inl", ".ipp")

# `class MACRO Name {` / `struct MACRO Name : Base {`: the all-caps word between keyword and name.
_CLASS_HEAD_MACRO = re.compile(rb"\b(?:class|struct|union)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s+(?=[A-Za-z_]\w*\s*(?:final\s*)?[:{])")
# A declaration-leading export/attribute macro: GGML_API, LLAMA_API, MNN_PUBLIC, ET_NODISCARD, ...
_LEADING_MACRO = re.compile(
    rb"^[ \t]*((?:[A-Z][A-Z0-9]*_)+(?:API|EXPORT|EXPORTS|PUBLIC|DLL|CALL|DEPRECATED|NODISCARD|INLINE|EXTERN)(?:\([^()\n]*\))?)[ \t]+(?=[A-Za-z_])",
    re.MULTILINE,
)

# `GGML_DEPRECATED(decl, "message");`: a declaration wrapped in a macro call.
_DEPRECATION_WRAPPER = re.compile(rb"^[ \t]*(?:[A-Z][A-Z0-9_]*[ \t]+)?((?:[A-Z][A-Z0-9]*_)*DEPRECATED\()", re.MULTILINE)

_TYPE_SPECIFIERS = ("class_specifier", "struct_specifier", "union_specifier", "enum_specifier")
_BODIES = ("field_declaration_list", "enumerator_list")


@cache
def _parser(cpp: bool) -> tree_sitter.Parser:
    language = tree_sitter_cpp.language() if cpp else tree_sitter_c.language()
    return tree_sitter.Parser(tree_sitter.Language(language))


def blank_export_macros(source: bytes) -> bytes:
    def blank(match: re.Match) -> bytes:
        start, end = match.span(1)
        whole = match.group(0)
        offset = start - match.start()
        return whole[:offset] + b" " * (end - start) + whole[offset + end - start :]

    return _LEADING_MACRO.sub(blank, _CLASS_HEAD_MACRO.sub(blank, _unwrap_deprecations(source)))


def _unwrap_deprecations(source: bytes) -> bytes:
    """Blank `X_DEPRECATED(` and its trailing `, "message")`, leaving the wrapped declaration."""
    out = bytearray(source)
    for match in _DEPRECATION_WRAPPER.finditer(source):
        start, open_end = match.span(1)
        depth, last_comma, position = 1, None, open_end
        while position < len(source) and depth:
            char = source[position]
            if char in b"([{":
                depth += 1
            elif char in b")]}":
                depth -= 1
            elif char == ord(",") and depth == 1:
                last_comma = position
            position += 1
        if depth or last_comma is None:
            continue
        out[start:open_end] = b" " * (open_end - start)
        for index in range(last_comma, position):  # `, "message")`, newlines kept
            if out[index] != ord("\n"):
                out[index] = ord(" ")
    return bytes(out)


def parse_c_family(source: bytes, cpp: bool) -> ParsedSource:
    tree = _parser(cpp).parse(blank_export_macros(source))
    parsed = ParsedSource("::")
    _walk(tree.root_node, (), parsed)
    collect_comments(tree, parsed)
    return parsed


def _name(node: tree_sitter.Node | None) -> str:
    """Source text of a name without whitespace or template arguments: `Foo<T>::bar` -> `Foo::bar`."""
    if node is None:
        return ""
    text = re.sub(r"\s+", "", node.text.decode("utf-8", errors="replace"))
    while "<" in text and re.search(r"<[^<>]*>", text):
        text = re.sub(r"<[^<>]*>", "", text)
    return text


def _add(parsed: ParsedSource, scope: tuple[str, ...], name: str, kind: str, node: tree_sitter.Node) -> None:
    if name:
        qualified = "::".join((*scope, name))
        # A definition the grammar recovered from an error (an `#if` inside a body, a macro it cannot
        # read) may end early: the resolver then takes its extent from the braces.
        parsed.definitions.append(Definition(qualified, kind, node.start_byte, node.end_byte, node_lines(node),
                                             partial=node.has_error))


def _function_name(declarator: tree_sitter.Node | None) -> str | None:
    """The name inside a (possibly pointer/reference-wrapped) function declarator, if it is one."""
    while declarator is not None:
        if declarator.type == "function_declarator":
            return _name(declarator.child_by_field_name("declarator"))
        if declarator.type in ("pointer_declarator", "reference_declarator", "attributed_declarator", "parenthesized_declarator"):
            declarator = declarator.child_by_field_name("declarator") or next(
                (c for c in declarator.named_children if c.type.endswith("declarator") or c.type == "identifier"), None
            )
            continue
        return None
    return None


def _variable_name(declarator: tree_sitter.Node) -> tuple[str, bool]:
    """Name of a variable or field declarator, and whether it carries an initialiser."""
    initialised = declarator.type == "init_declarator"
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier", "qualified_identifier"):
        node = node.child_by_field_name("declarator")
    return _name(node), initialised


def _walk(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource) -> None:
    for child in node.children:
        kind = child.type
        if kind == "namespace_definition":
            name = _name(child.child_by_field_name("name"))
            body = child.child_by_field_name("body")
            inner = (*scope, *name.split("::")) if name else scope
            if body is not None:
                _walk(body, inner, parsed)
        elif kind in _TYPE_SPECIFIERS:
            # bodyless and followed by `;` is a forward declaration, else a type used in passing
            forward = child.next_sibling is not None and child.next_sibling.type == ";"
            _type_specifier(child, scope, parsed, standalone=forward)
        elif kind == "function_definition":
            _add(parsed, scope, _function_name(child.child_by_field_name("declarator")) or "", "definition", child)
            _walk_type_of(child, scope, parsed)
        elif kind in ("declaration", "field_declaration"):
            _declaration(child, scope, parsed)
        elif kind in ("preproc_def", "preproc_function_def"):
            _add(parsed, (), _name(child.child_by_field_name("name")), "definition", child)
        elif kind == "type_definition":
            _type_definition(child, scope, parsed)
        elif kind in ("compound_statement", "comment"):
            continue  # function bodies hold no definitions we cite
        else:  # templates, extern "C", #if blocks, access specifiers, ERROR nodes, ...
            _walk(child, scope, parsed)


def _walk_type_of(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource) -> None:
    """A declaration's type may itself define a class or enum: `struct foo { ... } x;`."""
    type_node = node.child_by_field_name("type")
    if type_node is not None and type_node.type in _TYPE_SPECIFIERS:
        _type_specifier(type_node, scope, parsed, standalone=False)


def _type_specifier(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource, standalone: bool = True,
                    alias: str = "") -> None:
    name = _name(node.child_by_field_name("name")) or alias
    body = node.child_by_field_name("body")
    if body is None:
        if standalone and name:
            _add(parsed, scope, name, "declaration", node)  # a forward declaration: `class Foo;`
        return
    _add(parsed, scope, name, "definition", node)
    inner = (*scope, *name.split("::")) if name else scope
    if node.type == "enum_specifier":
        for enumerator in _enumerators(body):
            _add(parsed, inner, _name(enumerator.child_by_field_name("name")), "definition", enumerator)
    else:
        _walk(body, inner, parsed)


def _enumerators(body: tree_sitter.Node) -> list[tree_sitter.Node]:
    """Members of an enum body, including those inside #if blocks."""
    found, stack = [], list(reversed(body.children))
    while stack:
        node = stack.pop()
        if node.type == "enumerator":
            found.append(node)
        elif node.type not in _TYPE_SPECIFIERS:
            stack.extend(reversed(node.children))
    return found


def enum_members(parsed_source: bytes, cpp: bool, enum_name: str) -> list[str] | None:
    """The member names of the enum (or typedef'd enum) `enum_name`, or None if there is none."""
    tree = _parser(cpp).parse(blank_export_macros(parsed_source))
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "enum_specifier" and node.child_by_field_name("body") is not None:
            name = _name(node.child_by_field_name("name"))
            alias = ""
            if node.parent is not None and node.parent.type == "type_definition":
                alias = _name(node.parent.child_by_field_name("declarator"))
            if enum_name in (name, alias) or name.endswith("::" + enum_name):
                return [_name(e.child_by_field_name("name")) for e in _enumerators(node.child_by_field_name("body"))]
        stack.extend(reversed(node.children))
    return None


def _declaration(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource) -> None:
    _walk_type_of(node, scope, parsed)
    type_node = node.child_by_field_name("type")
    for declarator in node.children_by_field_name("declarator"):
        function = _function_name(declarator)
        if function is not None:
            _add(parsed, scope, function, "declaration", node)
            continue
        name, initialised = _variable_name(declarator)
        is_type_only = type_node is not None and type_node.type in _TYPE_SPECIFIERS and not name
        if not is_type_only:
            _add(parsed, scope, name, "definition" if initialised else "declaration", node)


def _type_definition(node: tree_sitter.Node, scope: tuple[str, ...], parsed: ParsedSource) -> None:
    declarators = node.children_by_field_name("declarator")
    alias = next((_name(d) for d in declarators if d.type == "type_identifier"), "")
    type_node = node.child_by_field_name("type")
    if type_node is not None and type_node.type in _TYPE_SPECIFIERS:
        _type_specifier(type_node, scope, parsed, standalone=False, alias=alias)
    for declarator in declarators:
        name = _function_name(declarator) or _name(declarator if declarator.type == "type_identifier" else None)
        if not name:
            inner: tree_sitter.Node | None = declarator
            while inner is not None and inner.type != "type_identifier":
                inner = inner.child_by_field_name("declarator")
            name = _name(inner)
        _add(parsed, scope, name, "definition", node)


def definition_by_braces(masked: str, symbol: str) -> tuple[int, int] | None:
    """Fallback for code the grammar cannot read (Objective-C, macro-heavy regions): the first line
    that names `symbol(`, closes its parameter list and opens a body, up to the matching brace.
    `masked` has comments blanked, so braces in comments do not count."""
    name = r"\s*::\s*".join(map(re.escape, symbol.split("::")))
    head = re.compile(rf"^[^\n;#]*?(?<![\w:]){name}\s*\([^;{{}}]*\)[^;{{}}()]*\{{", re.MULTILINE)
    match = head.search(masked)
    if match is None:
        return None
    end = matching_brace(masked, match.end() - 1)
    return (match.start(), end) if end is not None else None


def matching_brace(masked: str, opening: int) -> int | None:
    """The offset just past the brace that closes the one at `opening`."""
    depth = 0
    for position in range(opening, len(masked)):
        if masked[position] == "{":
            depth += 1
        elif masked[position] == "}":
            depth -= 1
            if depth == 0:
                return position + 1
    return None
