"""Property-based fuzzing of the record loader: whatever the bytes, a clean error or a catalog, fast."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from enginekb.load import load_catalog
from enginekb.problems import CatalogError
from enginekb.yamlfile import YamlError, parse_yaml

# Pieces of YAML syntax, so that generated text reaches the parser's interesting corners
# (aliases, tags, flow collections, block scalars, merge keys) and not only its tokenizer.
TOKENS = ["- ", "id: ", "demo/x", "label: ", "verified", "text: ", "cites:", "  ", "\n", "[", "]", "{", "}",
          ", ", ": ", "&a ", "*a", "!!python/name:os.system ", "!!binary ", "<<: ", "? ", "|\n", ">-\n", "'", '"',
          "#", "---\n", "...\n", "\t", "\x00", "\x07", "yes", "OFF", "2026-01-01", "~", "null", "1e3", "0x1f", "%YAML 1.1\n"]

SETTINGS = settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])


def check_one(project, data: bytes) -> None:
    (project / "claims" / "demo").mkdir(exist_ok=True)
    (project / "claims" / "demo" / "fuzz.yaml").write_bytes(data)
    started = time.monotonic()
    try:
        load_catalog(project)
    except CatalogError as error:
        assert error.problems and all(str(problem) for problem in error.problems)
    assert time.monotonic() - started < 2


@SETTINGS
@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_load_or_fail_cleanly(demo_project, data):
    check_one(demo_project({}), data)


@SETTINGS
@given(pieces=st.lists(st.sampled_from(TOKENS) | st.text(max_size=8), max_size=80))
def test_yaml_like_text_loads_or_fails_cleanly(demo_project, pieces):
    check_one(demo_project({}), "".join(pieces).encode("utf-8", "surrogatepass"))


@settings(max_examples=200, deadline=2000)
@given(depth=st.integers(1, 3000), opener=st.sampled_from(["[", "{a: ", "- "]))
def test_nesting_is_bounded_not_fatal(depth, opener):
    closer = {"[": "]", "{a: ": "}", "- ": ""}[opener]
    text = opener * depth + "x" + closer * depth if opener != "- " else "".join("  " * i + "- \n" for i in range(depth))
    try:
        parse_yaml(text, Path("deep.yaml"))
    except YamlError as error:
        assert "nested deeper" in error.message or "malformed" in error.message
