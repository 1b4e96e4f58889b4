"""Validate a claims file against claims/claim.schema.json, fast when it is valid, precise when not.

A valid file passes a validator compiled to Python by fastjsonschema (the schema uses only keywords
that draft-07 and 2020-12 read alike). A file it rejects is checked again by jsonschema, which finds
every error, each with its location and the schema's own `x-message` where there is one.

Compiling a validator costs more than validating every record, so the compiled code is kept beside
this module's own bytecode, in its `__pycache__`: it is code, trusted as Python trusts the .pyc files
there, and kept apart from the record caches, whose entries are data checked when read. It is named
by a hash of everything it is compiled from (the schema as given to fastjsonschema, fastjsonschema's
version, Python's bytecode magic, and this module, which rewrites the compiled code so that a
rejection raises a bare exception): a changed schema has another name and is compiled again, and a
file that is not a code object stored under its own name is compiled again and replaced. It holds no
verdict: every record is validated on every load. ENGINEKB_CACHE=off keeps none.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import marshal
import os
import tempfile
import types
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .problems import CatalogError, Problem
from .regularfile import read_regular
from .store import default_directory
from .yamlfile import YamlError, read_text

VALIDATOR_DIR = Path(__file__).parent / "__pycache__"
# This module's code rewrites what fastjsonschema compiles (_BareRaises): it is part of a validator's name.
_COMPILER = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
_VALIDATORS_KEPT = 32  # older validators are removed when a new one is written


class ClaimsSchema:
    def __init__(self, schema: dict):
        schema = anchored(schema)  # validated as written, but `$` cannot match before a final newline
        self.schema = schema
        fast = {k: v for k, v in schema.items() if k not in ("$id", "$schema")}
        self._fast = _validator(fast | {"$schema": "http://json-schema.org/draft-07/schema#"})

    @staticmethod
    def at(path: Path) -> ClaimsSchema:
        """The schema in `path`; a missing or broken schema is a configuration error (CatalogError)."""
        try:
            return _compiled(read_text(path))
        except FileNotFoundError:
            raise CatalogError([Problem(path, 0, "-", "this JSON Schema of the records is missing")]) from None
        except YamlError as error:
            raise CatalogError([Problem(path, error.line, "-", error.message)]) from None
        except json.JSONDecodeError as error:
            raise CatalogError([Problem(path, error.lineno, "-", f"not JSON: {error.msg}")]) from None
        except (TypeError, AttributeError, ValueError) as error:  # fastjsonschema's definition errors are ValueErrors
            raise CatalogError([Problem(path, 0, "-", f"not a usable JSON Schema ({error})")]) from None

    def errors(self, data: Any) -> Iterator[tuple[tuple, str]]:
        """(location, message) for every error in `data`; nothing for a valid file."""
        try:
            self._fast(data)
            return
        except _Invalid:
            pass
        import jsonschema  # only a file with errors pays for the full validator

        for error in jsonschema.Draft202012Validator(self.schema).iter_errors(data):
            location = tuple(error.absolute_path)
            yield location, _message(error, location, self.schema)


def anchored(node: Any) -> Any:
    """A copy of a schema whose regular expressions end at `\\Z` where they said `$`: JSON Schema's
    ECMA-262 `$` is the end of the text, Python's also matches before a final newline."""
    if isinstance(node, list):
        return [anchored(item) for item in node]
    if not isinstance(node, dict):
        return node
    copy = {key: anchored(value) for key, value in node.items()}
    if isinstance(node.get("pattern"), str):
        copy["pattern"] = end_anchor(node["pattern"])
    if isinstance(node.get("patternProperties"), dict):
        copy["patternProperties"] = {end_anchor(key): anchored(value) for key, value in node["patternProperties"].items()}
    return copy


def end_anchor(pattern: str) -> str:
    """`pattern` with each unescaped `$` outside a character class written `\\Z`."""
    out, escaped, in_class = [], False, False
    for character in pattern:
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == "[":
            in_class = True
        elif character == "]":
            in_class = False
        elif character == "$" and not in_class:
            character = "\\Z"
        out.append(character)
    return "".join(out)


@cache
def _compiled(text: str) -> ClaimsSchema:
    schema = json.loads(text)
    if not isinstance(schema, dict):
        raise ValueError("the schema is not a JSON object")
    return ClaimsSchema(schema)


def _validator(definition: dict) -> Callable[[Any], Any]:
    """fastjsonschema's validator of `definition`, compiled now or read back from VALIDATOR_DIR."""
    text = json.dumps(definition, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    key = hashlib.sha256("\0".join((text, _generator_version(), importlib.util.MAGIC_NUMBER.hex(), _COMPILER)).encode(
        "utf-8", "surrogatepass")).hexdigest()[:32]
    path = VALIDATOR_DIR / f"validator-{key}.marshal" if default_directory() is not None else None
    code = _stored_code(path, key) if path is not None else None
    if code is None:
        import fastjsonschema  # only a compilation needs it: stored code raises and catches _Invalid

        tree = _BareRaises().visit(ast.parse(fastjsonschema.compile_to_code(definition)))
        code = compile(ast.fix_missing_locations(tree), f"<validator {key}>", "exec")
        if path is not None:
            _store_code(path, key, code)
    namespace: dict[str, Any] = {"_Invalid": _Invalid, "JsonSchemaValueException": _Invalid,
                                 "JsonSchemaValuesException": _Invalid}
    exec(code, namespace)
    return namespace["validate"]


@cache
def _generator_version() -> str:
    """fastjsonschema's version file, read without importing the package (a warm load compiles nothing)."""
    spec = importlib.util.find_spec("fastjsonschema")
    try:
        return (Path(spec.origin).parent / "version.py").read_text(encoding="utf-8")
    except (AttributeError, TypeError, OSError):  # laid out otherwise: ask the package itself
        import fastjsonschema

        return fastjsonschema.VERSION


class _Invalid(ValueError):
    """What the compiled validator raises and catches, in place of fastjsonschema's exceptions (its
    `from fastjsonschema import ...` is taken out: the names are this class): no message, value or
    definition, which only cost time (an `if`, a `oneOf` or a `not` raises and catches one per branch
    not taken); a file it rejects is validated again by jsonschema, which says what is wrong."""

    def __init__(self):  # noqa: D107 - raised as a class, made without arguments
        pass


class _BareRaises(ast.NodeTransformer):
    """`raise JsonSchemaValueException(message, value=..., definition={...}, ...)` made `raise _Invalid`:
    the same exception class caught by the same handlers, so the same records pass and fail. The name
    a subschema's function is handed for its messages (formatted from `locals()` on every call) is
    None: nothing reads it once the messages are gone."""

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom | None:
        return None if node.module == "fastjsonschema" else node

    def visit_Raise(self, node: ast.Raise) -> ast.Raise:
        call = node.exc
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "JsonSchemaValueException"):
            node.exc = ast.Name("_Invalid", ast.Load())
        return node

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id.startswith("validate_") and len(node.args) == 3:
            node.args[2] = ast.Constant(None)  # (data, custom_formats, name_prefix)
        return node


def _stored_code(path: Path, key: str) -> types.CodeType | None:
    try:
        stored = marshal.loads(read_regular(path))
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == key and type(stored[1]) is types.CodeType:
        return stored[1]
    return None


def _store_code(path: Path, key: str, code: types.CodeType) -> None:
    """Written atomically; a folder that cannot be written only costs speed."""
    try:
        path.parent.mkdir(exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".validator-", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            marshal.dump((key, code), out)
        os.replace(temporary, path)
        kept = sorted(path.parent.glob("validator-*.marshal"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[_VALIDATORS_KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _message(error, location: tuple, schema: dict) -> str:
    """A human sentence: the schema's own `x-message` where it has one, else jsonschema's.

    A failure inside an if/then/else branch takes the branch's message: that branch is the rule.
    A wrong type is said plainly; `x-message` explains the rule that a value of the right type broke.
    """
    message = error.schema.get("x-message") if isinstance(error.schema, dict) and error.validator != "type" else None
    path = list(error.absolute_schema_path)
    branches = [i for i, part in enumerate(path) if part in ("then", "else")]
    if message is None and branches:
        message = _schema_at(schema, path[: branches[-1] + 1]).get("x-message")
    field = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location[1:]).lstrip(".")
    return f"{field}: {message or error.message}" if field else (message or error.message)


def _schema_at(schema: dict, path: list) -> Any:
    """The subschema at a jsonschema error's schema path, following local `$ref`s on the way."""
    node: Any = schema
    for part in path:
        while isinstance(node, dict) and part not in node and "$ref" in node:
            node = _resolve_ref(schema, node["$ref"])
        node = _resolve_ref(schema, node["$ref"]) if part == "$ref" else node[part]
    return node


def _resolve_ref(schema: dict, ref: str) -> Any:
    node: Any = schema
    for name in ref.removeprefix("#/").split("/"):
        node = node[name]
    return node
