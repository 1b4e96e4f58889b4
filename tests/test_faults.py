"""Faults found by probing a fresh clone, one class per section: a record naming a row that does not
exist, damaged or deceiving mirrors, and caches that hold something wrong. Each must give a clear
error with its exit code, never a traceback or a hang, and never a lock the tools then reject."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from citecheck.cache import CACHE_NAME
from citecheck.cli import main as citecheck
from citecheck.lock import read_lock
from claimtool.cli import main as claims
from enginekb.store import STORE_NAME
from sitebuild import build_site, site_for
from test_bad_input import GOOD

NET = GOOD.split("- id: demo/layers")[0]  # one verified claim citing Net::load
CLAIMS = NET + """\
- id: demo/renamed
  label: inferred
  dimension: kind.unit-of-work
  text: One request at a time.
"""
CELLS = "- {dimension: kind.unit-of-work, verdict: partial, answer: One at a time., rests_on: [demo/net, demo/renamed]}\n"
UNKNOWN_ROW = "claims/demo/a.yaml:7: demo/renamed: unknown dimension 'kind.renamed' (see claims/dimensions.yaml)"


class Hang(Exception):
    pass


@pytest.fixture
def bounded():
    """A hang fails the test instead of the suite."""
    def hang(signum, frame):
        raise Hang("no answer within 60 s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _problems(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("claims/")]


# --- A claim on a row that does not exist, under a cell ---------------------------------------------

@pytest.fixture
def renamed_row(demo_project, monkeypatch):
    root = demo_project({"demo/a.yaml": CLAIMS.replace("dimension: kind.unit-of-work\n  text: One",
                                                       "dimension: kind.renamed\n  text: One"),
                         "demo/cells.yaml": CELLS})
    monkeypatch.chdir(root)
    return root


def test_an_unknown_dimension_under_a_cell_is_one_lint_error_on_the_claims_line(renamed_row, capsys, bounded):
    code = claims(["--root", str(renamed_row), "lint"])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "internal error" not in text
    assert code == 2, text
    assert _problems(text) == [UNKNOWN_ROW], text


def test_the_build_fails_on_an_unknown_dimension_with_the_same_message(renamed_row, bounded):
    done = build_site(site_for(renamed_row, {"index.md": "# Demo\n"}), renamed_row / "site")
    assert done.returncode != 0
    assert UNKNOWN_ROW in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "KeyError" not in done.stderr


# --- Damaged, deceiving and partial mirrors ------------------------------------------------------------

def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def _many_files(tmp_path: Path, count: int) -> tuple[Path, Path]:
    """An upstream of `count` small C files in one pack, and a project citing a function in each."""
    from upstream import make_project, make_upstream
    tree = {f"src/d{i % 20}/f{i}.c": f"int f{i}(void)\n{{\n    return {i};\n}}\n" for i in range(count)}
    path, (sha,) = make_upstream(tmp_path / "many", [tree])
    _git("-C", str(path), "repack", "-a", "-d", "-q")
    _git("-C", str(path), "prune-packed")
    text = "".join(f"- id: demo/c{i}\n  label: verified\n  dimension: kind.category\n  text: f{i}.\n  cites:\n"
                   f"    - {{file: src/d{i % 20}/f{i}.c, symbol: f{i}}}\n" for i in range(count))
    return path, make_project(tmp_path / "project", {"demo": {"pin": sha}}, {"demo/a.yaml": text})


def _pack(repository: Path) -> Path:
    pack = next((repository / ".git" / "objects" / "pack").glob("*.pack"))
    pack.chmod(0o644)
    return pack


def _check(root: Path, repository: Path, capsys, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = citecheck(["--root", str(root), "--repo", f"demo={repository}", "--no-cache", *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_pack_that_no_longer_matches_its_index_is_a_clear_error_not_a_hang(tmp_path, capsys, bounded):
    """git writes an error per lookup: without a reader of its stderr the pipe fills and it blocks."""
    repository, root = _many_files(tmp_path, 600)
    pack = _pack(repository)
    data = bytearray(pack.read_bytes())
    data[-20:] = bytes(b ^ 0xFF for b in data[-20:])  # the trailer checksum: the index no longer matches
    pack.write_bytes(bytes(data))
    lock = (root / "claims" / "citecheck.lock").read_bytes() if (root / "claims" / "citecheck.lock").exists() else None
    code, text = _check(root, repository, capsys)
    assert "Traceback" not in text
    assert code == 1, text
    assert f"{repository} is damaged" in text and "does not match index" in text, text
    assert "commit not in repository" not in text  # the commit is there; the pack cannot be read
    assert ((root / "claims" / "citecheck.lock").read_bytes() if lock is not None else None) == lock


def test_a_corrupt_packfile_is_a_clear_error_naming_the_repository(tmp_path, capsys, bounded):
    repository, root = _many_files(tmp_path, 40)
    pack = _pack(repository)
    data = bytearray(pack.read_bytes())
    for index in range(len(data) // 2, len(data) - 20, 5):
        data[index] ^= 0x55
    pack.write_bytes(bytes(data))
    code, text = _check(root, repository, capsys)
    assert "Traceback" not in text
    assert code == 1, text
    assert f"{repository} is damaged" in text and "corrupt" in text, text


def test_a_git_that_never_answers_is_stopped_at_the_time_limit(tmp_path, capsys, bounded, monkeypatch):
    """A loose object that is a FIFO: git opens it and waits for ever."""
    from upstream import demo_upstream, make_project
    repository, shas = demo_upstream(tmp_path)
    root = make_project(tmp_path / "project", {"demo": {"pin": shas[1]}}, {"demo/a.yaml": NET})
    blob = _git("-C", str(repository), "rev-parse", f"{shas[1]}:src/net.cpp").strip()
    loose = repository / ".git" / "objects" / blob[:2] / blob[2:]
    loose.unlink()
    os.mkfifo(loose)
    monkeypatch.setenv("CITECHECK_GIT_TIMEOUT", "2")
    code, text = _check(root, repository, capsys)
    assert "Traceback" not in text
    assert code == 1, text
    assert f"{repository}: git gave no answer within 2 s" in text, text


def test_replace_refs_in_a_mirror_do_not_decide_which_blob_is_read(tmp_path, capsys, bounded):
    """refs/replace swaps the cited file for one where the symbol moved: the real blob is read, and a
    cache filled from the deceiving mirror is not what a later run uses either."""
    from upstream import NET_CPP, demo_upstream, make_project
    repository, shas = demo_upstream(tmp_path)
    root = make_project(tmp_path / "project", {"demo": {"pin": shas[1]}}, {"demo/a.yaml": NET})
    real = _git("-C", str(repository), "rev-parse", f"{shas[1]}:src/net.cpp").strip()
    fake_text = "// moved\n" * 40 + NET_CPP
    fake = subprocess.run(["git", "-C", str(repository), "hash-object", "-w", "--stdin"], input=fake_text,
                          capture_output=True, text=True, check=True).stdout.strip()
    _git("-C", str(repository), "replace", real, fake)
    assert "// moved" in _git("-C", str(repository), "show", f"{shas[1]}:src/net.cpp")  # git itself is deceived
    code, text = _check(root, repository, capsys)
    assert code == 0, text
    entry = next(iter(read_lock(root / "claims" / "citecheck.lock").cites.values()))
    assert entry["blob"] == real and entry["lines"] == [4, 7], entry


def test_a_shallow_mirror_without_the_pin_says_so(tmp_path, capsys, bounded):
    from upstream import demo_upstream, make_project
    repository, shas = demo_upstream(tmp_path)
    shallow = tmp_path / "shallow"
    _git("clone", "-q", "--bare", "--depth", "1", f"file://{repository}", str(shallow))
    root = make_project(tmp_path / "project", {"demo": {"pin": shas[0]}}, {"demo/a.yaml": NET})
    code, text = _check(root, shallow, capsys)
    assert "Traceback" not in text
    assert code == 1, text
    assert f"commit {shas[0]} is not in {shallow}, a shallow clone" in text, text


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unreadable_mirror_is_a_clear_error(tmp_path, capsys, bounded):
    from upstream import demo_upstream, make_project
    repository, shas = demo_upstream(tmp_path)
    root = make_project(tmp_path / "project", {"demo": {"pin": shas[1]}}, {"demo/a.yaml": NET})
    objects = repository / ".git" / "objects"
    objects.chmod(0)
    try:
        code, text = _check(root, repository, capsys)
    finally:
        objects.chmod(0o755)
    assert "Traceback" not in text
    assert code == 1, text
    assert str(repository) in text, text


# --- Caches that hold something wrong ------------------------------------------------------------------

@pytest.fixture
def checked(demo_project, demo, private_cache, monkeypatch):
    """A passing project whose lock and citecheck cache a real run wrote."""
    root = demo_project({"demo/a.yaml": GOOD})
    monkeypatch.chdir(root)
    assert citecheck(["--root", str(root), "--repo", f"demo={demo[0]}"]) == 0
    return root


def _edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("bad", [[0, 0, "definition"], ["4", "7", "definition"], [7, 4, "definition"],
                                 [4, 7, "<b>"], [4, 7], "4-7", None, [True, True, "definition"]])
def test_a_malformed_citecheck_cache_entry_is_resolved_again_and_never_reaches_the_lock(
        checked, demo, private_cache, capsys, bad, bounded):
    def spoil(data):
        for key in data["cites"]:
            data["cites"][key] = bad
        for key in data["counts"]:
            data["counts"][key] = "3"
    _edit_json(private_cache / CACHE_NAME, spoil)
    (checked / "claims" / "citecheck.lock").unlink()
    capsys.readouterr()
    code = citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"])
    out = capsys.readouterr()
    assert code == 0, out.out + out.err
    assert "malformed entries ignored" in out.err
    lock = read_lock(checked / "claims" / "citecheck.lock")  # the tools accept what was written
    assert [entry["lines"] for entry in lock.cites.values()] == [[4, 7]]
    assert [entry["value"] for entry in lock.counts.values()] == [3]
    assert citecheck(["--root", str(checked), "--offline"]) == 0
    rewritten = json.loads((private_cache / CACHE_NAME).read_text())  # the next run reads it clean
    assert list(rewritten["cites"].values()) == [[4, 7, "definition"]] and list(rewritten["counts"].values()) == [3]


@pytest.mark.parametrize("forged", [[1, 2, "definition"], [4, 7, "phrase"], [4, 99, "definition"]])
def test_a_forged_cache_entry_of_the_right_shape_never_reaches_the_lock(checked, demo, private_cache, capsys,
                                                                       forged, bounded):
    _edit_json(private_cache / CACHE_NAME, lambda data: data["cites"].update({k: forged for k in data["cites"]}))
    (checked / "claims" / "citecheck.lock").unlink()
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 0, capsys.readouterr()
    lock = read_lock(checked / "claims" / "citecheck.lock")
    assert [(entry["lines"], entry["kind"]) for entry in lock.cites.values()] == [([4, 7], "definition")]


def test_a_forged_cache_entry_for_a_missing_symbol_does_not_make_it_pass(checked, demo, private_cache, capsys,
                                                                        bounded):
    (checked / "claims" / "demo" / "a.yaml").write_text(GOOD.replace("symbol: Net::load", "symbol: Net::absent")
                                                        .replace("contains: open_file", "contains: return"))

    def forge(data):
        (key, value), = data["cites"].items()
        blob, path, kind, _, _ = json.loads(key)
        data["cites"][json.dumps([blob, path, kind, "Net::absent", "return"])] = value
    _edit_json(private_cache / CACHE_NAME, forge)
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 1
    assert "symbol not found" in capsys.readouterr().out
    assert [e["symbol"] for e in read_lock(checked / "claims" / "citecheck.lock").cites.values()] == ["Net::load"]


def _forge_lock_lines(root: Path, lines: list[int], kind: str) -> None:
    path = root / "claims" / "citecheck.lock"
    data = json.loads(path.read_text())
    for entry in data["cites"]:
        entry.update(lines=lines, kind=kind)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("forged", [[1, 2, "definition"], [4, 99, "definition"], [4, 7, "phrase"]])
def test_a_lock_and_a_cache_forged_alike_are_not_confirmed_and_the_lock_is_put_right(
        checked, demo, private_cache, capsys, forged, bounded):
    """The warm run takes a lock entry that its confirming process showed in the blob; forged in the lock
    and the cache the same way, lines that do not hold the symbol are resolved again and rewritten."""
    _forge_lock_lines(checked, forged[:2], forged[2])
    _edit_json(private_cache / CACHE_NAME, lambda data: data["cites"].update({k: forged for k in data["cites"]}))
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 0, capsys.readouterr()
    lock = read_lock(checked / "claims" / "citecheck.lock")
    assert [(entry["lines"], entry["kind"]) for entry in lock.cites.values()] == [([4, 7], "definition")]


def test_confirmed_entries_are_those_the_blob_shows_and_the_cache_agrees_with(checked, demo, private_cache):
    from citecheck.cache import load_cache
    from citecheck.confirm import confirm_entries
    from citecheck.repos import RepositorySources
    sources = RepositorySources(repos={"demo": demo[0]})
    lock = read_lock(checked / "claims" / "citecheck.lock")
    assert confirm_entries(lock, sources, load_cache(private_cache)) == (set(lock.cites), set(lock.counts))
    _forge_lock_lines(checked, [4, 8], "definition")  # still shows the symbol, but not what the cache holds
    forged = read_lock(checked / "claims" / "citecheck.lock")
    assert confirm_entries(forged, sources, load_cache(private_cache)) == (set(), set(lock.counts))
    _edit_json(private_cache / CACHE_NAME, lambda data: data["counts"].update({k: 4 for k in data["counts"]}))
    assert confirm_entries(lock, sources, load_cache(private_cache)) == (set(lock.cites), set())


def test_the_confirming_process_answers_only_for_the_lock_this_run_read(checked, demo, private_cache, tmp_path):
    """The child reads the lock itself, ahead of the run: if the run read other bytes (the lock rewritten
    in between, or refused), nothing the child confirmed is taken."""
    from citecheck.confirm import Confirmation
    from citecheck.repos import RepositorySources
    sources = RepositorySources(repos={"demo": demo[0]})
    lock_path = checked / "claims" / "citecheck.lock"
    same = Confirmation(lock_path, sources, private_cache)
    same.expect(read_lock(lock_path))
    same.wait()
    assert same.cites and same.cites == set(same.lock.cites)
    other_path = tmp_path / "other.lock"
    other_path.write_text(lock_path.read_text() + "\n")  # the same entries, other bytes
    other = Confirmation(lock_path, sources, private_cache)
    other.expect(read_lock(other_path))
    other.wait()
    assert other.cites == set() and other.counts == set()


def test_an_engine_matched_ahead_is_covered_only_when_every_cite_and_count_is_confirmed(checked, demo, private_cache):
    """The run matches each cite and count with the lock before the child answers, then asks only whether
    the child confirmed each key: a count or a cite the child did not confirm leaves the engine to the checks."""
    from citecheck.confirm import Confirmation
    from citecheck.repos import RepositorySources
    from enginekb.load import load_catalog
    catalog = load_catalog(checked)
    engine, claims = catalog.engines["demo"], catalog.claims_in_repository("demo")
    assert any(claim.count for claim in claims) and any(claim.cites for claim in claims)
    lock_path = checked / "claims" / "citecheck.lock"
    confirmation = Confirmation(lock_path, RepositorySources(repos={"demo": demo[0]}), private_cache)
    confirmation.expect(read_lock(lock_path))
    confirmation.match_ahead([(engine, claims)])
    confirmation.wait()
    assert confirmation.covers(engine, claims)
    cites, counts = confirmation.cites, confirmation.counts
    confirmation.counts = set()
    assert not confirmation.covers(engine, claims)
    confirmation.cites, confirmation.counts = set(list(cites)[1:]), counts
    assert not confirmation.covers(engine, claims)


@pytest.mark.parametrize("change", [{"kind": "phrase"}, {"repo": "other"}, {"note": "x"}, {"blob": "-" * 40}])
def test_offline_refuses_a_lock_entry_that_does_not_match_its_cite(checked, capsys, change, bounded):
    lock_path = checked / "claims" / "citecheck.lock"
    _edit_json(lock_path, lambda data: data["cites"][0].update(change))
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--offline"]) == 1
    assert "lock entry mismatch" in capsys.readouterr().out


def test_the_lock_is_never_written_with_an_entry_read_lock_refuses(checked, tmp_path):
    from citecheck.lock import Lock, LockError, write_lock
    path = checked / "claims" / "citecheck.lock"
    before = path.read_bytes()
    lock = read_lock(path)
    key = next(iter(lock.cites))
    lock.cites[key] = dict(lock.cites[key], lines=[0, 0])
    with pytest.raises(LockError, match="lines"):
        write_lock(path, lock)
    assert path.read_bytes() == before and not list(path.parent.glob(".citecheck-*"))
    assert isinstance(Lock(), Lock)


def test_a_malformed_lock_is_rewritten_by_a_run_of_every_engine_as_its_message_says(checked, demo, capsys, bounded):
    path = checked / "claims" / "citecheck.lock"
    _edit_json(path, lambda data: data["cites"][0].update(lines=[0, 0]))
    capsys.readouterr()
    assert citecheck(["--root", str(checked), "--offline"]) == 2
    message = capsys.readouterr().err
    assert "rewrite the lock: run citecheck against every engine's repository" in message
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 0
    assert citecheck(["--root", str(checked), "--offline"]) == 0


def _store(root: Path) -> Path:
    return Path(os.environ["ENGINEKB_CACHE"]) / STORE_NAME


def test_a_store_entry_for_an_invalid_file_is_never_taken_as_valid(checked, capsys, bounded):
    """The store once kept "this text passed the schema": forged or stale, it hid the file's error."""
    from enginekb.store import digest
    claims_file = checked / "claims" / "demo" / "a.yaml"
    assert claims(["--root", str(checked), "lint"]) == 0  # the store now holds the file
    stored = marshal.loads(_store(checked).read_bytes())
    broken = claims_file.read_text().replace("  text: Three layers.\n", "")
    claims_file.write_text(broken)
    # The broken text's true parse, and what a forged or stale store would add: it passed the schema.
    from enginekb.yamlfile import parse_yaml
    parsed = parse_yaml(broken, claims_file)
    stored["parsed"][digest(broken)] = marshal.dumps((parsed.data, parsed.lines))
    schema = hashlib.sha1((checked / "claims" / "claim.schema.json").read_bytes()).hexdigest()
    stored["valid"] = [f"{digest(broken)}:{schema}"]
    _store(checked).write_bytes(marshal.dumps(stored))
    capsys.readouterr()
    code = claims(["--root", str(checked), "lint"])
    text = "".join(capsys.readouterr())
    assert "Traceback" not in text and "internal error" not in text
    assert code == 2, text
    assert "claims/demo/a.yaml:7: demo/layers: 'text' is a required property" in text, text
    done = build_site(site_for(checked, {"index.md": "# Demo\n"}), checked / "site")
    assert done.returncode != 0 and "'text' is a required property" in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("bad", [("not", "a", "pair"), ("data", {("x",): 0}), ([{"id": object.__name__}], {(): "1"}),
                                 ({1.5: "x"}, {}), "junk"])
def test_a_malformed_store_entry_is_parsed_again_with_a_warning(checked, capsys, bad):
    assert claims(["--root", str(checked), "lint"]) == 0
    stored = marshal.loads(_store(checked).read_bytes())
    stored["parsed"] = {key: bad for key in stored["parsed"]}
    _store(checked).write_bytes(marshal.dumps(stored))
    capsys.readouterr()
    assert claims(["--root", str(checked), "lint"]) == 0
    assert "malformed entries ignored" in capsys.readouterr().err
    assert claims(["--root", str(checked), "lint"]) == 0  # rewritten: read clean the next time
    assert "malformed" not in capsys.readouterr().err


def test_citecheck_cache_off_writes_no_cache(checked, demo, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE", "off")
    assert citecheck(["--root", str(checked), "--repo", f"demo={demo[0]}"]) == 0
    assert not (tmp_path / "off").exists() and not (checked / "off").exists()


# --- One cause, one error --------------------------------------------------------------------------------

def test_a_broken_layer_is_one_error_not_one_per_claim_on_its_rows(renamed_row, capsys):
    dimensions = renamed_row / "claims" / "dimensions.yaml"
    text = dimensions.read_text()
    dimensions.write_text(text.replace("    title: Kind and process model\n", "", 1))
    (renamed_row / "claims" / "demo" / "a.yaml").write_text(CLAIMS)
    capsys.readouterr()
    code = claims(["--root", str(renamed_row), "lint"])
    text = "".join(capsys.readouterr())
    assert code == 2, text
    layer_line = dimensions.read_text().splitlines().index("  - key: kind") + 1  # after the rules of grading
    assert [line.split(": ", 2)[0] for line in _problems(text)] == [f"claims/dimensions.yaml:{layer_line}"], text
