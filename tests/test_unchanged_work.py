"""No work for an unchanged result: the lock is rewritten only when an entry changes; what is kept
between runs is keyed by what it was made from, so a change makes it anew."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck.lock import Lock, read_lock, update_lock, write_lock
from test_citecheck import PASSING, run


def _entry(engine: str, lines: list[int]) -> dict:
    return {"engine": engine, "commit": "c" * 40, "file": f"{engine}.c", "symbol": "f", "blob": "b" * 40,
            "lines": lines, "kind": "definition"}


def _key(engine: str) -> tuple:
    return (engine, "c" * 40, f"{engine}.c", "symbol", "f", "")


def _stamp(path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_ino, status.st_mtime_ns


def test_an_unchanged_lock_is_not_rewritten(tmp_path):
    path = tmp_path / "citecheck.lock"
    write_lock(path, Lock({_key("ncnn"): _entry("ncnn", [1, 2])}, {}))
    before, text = _stamp(path), path.read_bytes()
    assert update_lock(path, lambda current: Lock(dict(current.cites), dict(current.counts))) is False
    assert _stamp(path) == before and path.read_bytes() == text  # the same file: not replaced, not touched


def test_a_changed_entry_rewrites_the_lock(tmp_path):
    path = tmp_path / "citecheck.lock"
    write_lock(path, Lock({_key("ncnn"): _entry("ncnn", [1, 2])}, {}))
    assert update_lock(path, lambda current: Lock({_key("ncnn"): _entry("ncnn", [1, 3])}, {})) is True
    assert read_lock(path).cites[_key("ncnn")]["lines"] == [1, 3]


def test_an_absent_lock_is_written_even_when_empty(tmp_path):
    path = tmp_path / "citecheck.lock"
    assert update_lock(path, lambda current: current) is True
    assert path.exists() and read_lock(path).cites == {}


def test_a_malformed_lock_is_replaced_even_by_an_empty_result(tmp_path):
    path = tmp_path / "citecheck.lock"
    path.write_text("{not json")
    assert update_lock(path, lambda current: current, replace_malformed=True) is True
    assert read_lock(path).cites == {}


def test_a_lock_entry_with_a_field_citecheck_would_not_write_is_rewritten(tmp_path):
    """Equal means every field: an entry carrying more than citecheck writes is not 'unchanged'."""
    path = tmp_path / "citecheck.lock"
    write_lock(path, Lock({_key("ncnn"): _entry("ncnn", [1, 2]) | {"note": "added by hand"}}, {}))
    assert update_lock(path, lambda current: Lock({_key("ncnn"): _entry("ncnn", [1, 2])}, {})) is True
    assert "note" not in read_lock(path).cites[_key("ncnn")]


def test_a_second_passing_citecheck_run_leaves_the_lock_file_alone(demo_project, demo):
    path, shas = demo
    project = demo_project({"demo/a.yaml": PASSING.replace("FIRST", shas[0])})
    lock_file = project / "claims" / "citecheck.lock"
    assert run(project, "--repo", f"demo={path}")[0] == 0
    before = _stamp(lock_file)
    assert run(project, "--repo", f"demo={path}")[0] == 0
    assert _stamp(lock_file) == before
    edited = PASSING.replace("FIRST", shas[0]).replace("symbol: Net}", "symbol: Net, contains: load}")
    (project / "claims" / "demo" / "a.yaml").write_text(edited)
    assert run(project, "--repo", f"demo={path}")[0] == 0
    assert _stamp(lock_file) != before
    assert any(e.get("contains") == "load" for e in read_lock(lock_file).cites.values())


def test_the_claim_index_follows_the_list_it_was_built_from(tmp_path):
    from types import SimpleNamespace

    from enginekb.model import Catalog

    first, duplicate, later = (SimpleNamespace(id=i, n=n) for n, i in enumerate(("e/a", "e/a", "e/b")))
    catalog = Catalog(tmp_path, {}, [], {}, claims=[first, duplicate])
    assert catalog.claim("e/a") is first and catalog.claim("e/b") is None  # the first of a duplicated id
    catalog.claims.append(later)
    assert catalog.claim("e/b") is later
    catalog.claims[0] = SimpleNamespace(id="e/c")  # replaced in place: a hit is confirmed by its id
    assert catalog.claim("e/a") is duplicate
    catalog.claims = [later]
    assert catalog.claim("e/a") is None and catalog.claim("e/b") is later


SCHEMA = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}}


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """Each compilation of a validator, by fastjsonschema, as it happens; validators kept in tmp_path/pycache."""
    import fastjsonschema

    from enginekb import schema

    monkeypatch.setattr(schema, "VALIDATOR_DIR", tmp_path / "pycache")

    calls = []
    original = fastjsonschema.compile_to_code

    def counted(definition, *args, **kwargs):
        calls.append(definition)
        return original(definition, *args, **kwargs)

    monkeypatch.setattr(fastjsonschema, "compile_to_code", counted)
    return calls


def _errors(schema: dict, data) -> list:
    from enginekb.schema import ClaimsSchema

    return [message for _, message in ClaimsSchema(schema).errors(data)]


def test_a_validator_is_compiled_once_per_schema_and_again_when_the_schema_changes(compiles):
    assert _errors(SCHEMA, {"id": "abc"}) == [] and len(compiles) == 1
    assert _errors(SCHEMA, {"id": "abc"}) == [] and len(compiles) == 1  # read back: not compiled again
    assert _errors(SCHEMA, {"id": "A"})  # the validator read back still rejects what the schema does
    stricter = SCHEMA | {"properties": {"id": {"type": "string", "pattern": "^[a-c]+$"}}}
    assert _errors(stricter, {"id": "xyz"}) and len(compiles) == 2  # a changed schema is compiled anew
    assert _errors(SCHEMA, {"id": "xyz"}) == [] and len(compiles) == 2


@pytest.mark.parametrize("content", [b"not marshal", b"", "swapped"])
def test_a_broken_or_swapped_validator_file_is_compiled_again_and_replaced(compiles, tmp_path, content):
    folder = tmp_path / "pycache"
    assert _errors(SCHEMA, {"id": "xyz"}) == []
    (mine,) = folder.iterdir()
    stricter = SCHEMA | {"properties": {"id": {"type": "string", "pattern": "^[a-c]+$"}}}
    assert _errors(stricter, {"id": "xyz"})
    (other,) = set(folder.iterdir()) - {mine}
    # The stricter schema's validator put under the first one's name must not stand in for it.
    mine.write_bytes(other.read_bytes() if content == "swapped" else content)
    compiles.clear()
    assert _errors(SCHEMA, {"id": "xyz"}) == [] and len(compiles) == 1
    compiles.clear()
    assert _errors(SCHEMA, {"id": "xyz"}) == [] and compiles == []  # the file was replaced


def test_without_a_record_store_validators_are_compiled_and_nothing_is_kept(compiles, tmp_path, monkeypatch):
    monkeypatch.setenv("ENGINEKB_CACHE", "off")
    assert _errors(SCHEMA, {"id": "A"}) and _errors(SCHEMA, {"id": "A"}) and len(compiles) == 2
    assert not (tmp_path / "pycache").exists()


def _modules_after(command: str, argv: list[str]) -> tuple[int, str, set[str]]:
    """Exit code, output and the modules loaded by `claims` or `citecheck` run in a process of its own."""
    import subprocess
    import sys
    from pathlib import Path

    tools = Path(__file__).resolve().parent.parent / "tools"
    module = {"claims": "claimtool.cli", "citecheck": "citecheck.cli"}[command]
    code = (f"import sys; sys.path.insert(0, {str(tools)!r}); from {module} import main; code = main({argv!r}); "
            "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = done.stderr.strip().splitlines()[-1:]  # the module names, printed last
    return done.returncode, done.stdout, set(last[0].split()) if last else set()


def test_claims_grep_imports_neither_the_checker_nor_the_renderer(demo_project, demo):
    """A command pays only for the modules it uses: grep loads the records and prints them."""
    _, shas = demo
    project = demo_project({"demo/a.yaml": PASSING.replace("FIRST", shas[0])})
    code, out, loaded = _modules_after("claims", ["--root", str(project), "grep", "Net"])
    assert code == 0 and "demo/net" in out
    unwanted = {"citecheck.check", "citecheck.lock", "citecheck.gitstore", "git", "kbsite", "kbsite.render",
                "jinja2", "jsonschema", "tree_sitter", "claimtool.lint", "claimtool.regrade", "claimtool.stats",
                "claimtool.show", "xml.etree.ElementTree"}
    assert loaded and loaded & unwanted == set()


def test_a_warm_citecheck_run_does_not_load_the_parsers(demo_project, demo):
    """Cached answers are confirmed by reading their lines; tree-sitter is loaded only to resolve."""
    path, shas = demo
    project = demo_project({"demo/a.yaml": PASSING.replace("FIRST", shas[0])})
    argv = ["--root", str(project), "--repo", f"demo={path}"]
    code, _, cold = _modules_after("citecheck", argv)
    assert code == 0 and {"tree_sitter", "citecheck.resolve", "citecheck.counts"} <= cold
    code, out, warm = _modules_after("citecheck", argv)
    assert code == 0 and "9 ok, 0 failed" in out
    assert warm and warm & {"tree_sitter", "citecheck.resolve", "citecheck.counts"} == set()


ALPHABET = "ab_1 :(\n\t\x0b\x1c\x85\xa0"


def _identifier_oracle(text, word, start, end):
    """The pattern textsearch compiled per word before it used string methods."""
    import re

    head = r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", word[:1]) else ""
    tail = r"(?![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", word[-1:]) else ""
    match = re.compile(head + re.escape(word) + tail).search(text, start, end)
    return match.start() if match else None


def _phrase_oracle(text, phrase, start, end):
    import re

    words = phrase.split()
    match = re.compile(r"\s+".join(map(re.escape, words))).search(text, start, end) if words else None
    return match.span() if match else None


@settings(max_examples=600, deadline=None)
@given(text=st.text(ALPHABET, max_size=40), word=st.text(ALPHABET, min_size=1, max_size=6),
       start=st.integers(0, 45), length=st.integers(0, 45))
def test_the_string_search_finds_what_the_per_word_patterns_found(text, word, start, length):
    """Same offsets as the patterns, white space of every kind and bounds inside the text included
    (the patterns looked behind `start` and not past `end`)."""
    from citecheck.textsearch import find_identifier, find_phrase

    end = min(start + length, len(text))
    assert find_identifier(text, word, start, end) == _identifier_oracle(text, word, start, end)
    assert find_phrase(text, word, start, end) == _phrase_oracle(text, word, start, end)
    assert find_identifier(text, word) == _identifier_oracle(text, word, 0, len(text))
    assert find_phrase(text, word) == _phrase_oracle(text, word, 0, len(text))
