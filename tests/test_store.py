"""The record store: a second load of unchanged files parses nothing (and validates every file: a
verdict is never cached); edits are read afresh."""

import pytest

from enginekb import yamlfile
from enginekb.load import load_catalog
from enginekb.problems import CatalogError
from enginekb.schema import ClaimsSchema

CLAIMS = """
- id: demo/a
  label: inferred
  dimension: kind.category
  text: A library.
"""


@pytest.fixture
def counted(monkeypatch):
    calls = {"parse": 0, "validate": 0}
    parse, errors = yamlfile.parse_yaml, ClaimsSchema.errors

    def counting_parse(text, path):
        calls["parse"] += 1
        return parse(text, path)

    def counting_errors(self, data):
        calls["validate"] += 1
        return errors(self, data)

    monkeypatch.setattr(yamlfile, "parse_yaml", counting_parse)
    monkeypatch.setattr(ClaimsSchema, "errors", counting_errors)
    return calls


def test_unchanged_files_are_not_parsed_twice_and_always_validated(demo_project, counted):
    root = demo_project({"demo/a.yaml": CLAIMS})
    load_catalog(root)
    first = dict(counted)
    # Parsed: engines, dimensions, hardware classes, the claims file; validated by a schema: the last two.
    assert first["parse"] == 4 and first["validate"] == 2
    catalog = load_catalog(root)
    assert counted == first | {"validate": 4} and catalog.claim("demo/a").text == "A library."


def test_a_load_of_the_claims_alone_keeps_the_other_files_stored(demo_project, counted):
    """`claims grep` and `citecheck` read the claims files only: the store keeps what lint parsed of
    the rest, so that the next lint parses nothing again (they once rewrote it with the claims alone)."""
    root = demo_project({"demo/a.yaml": CLAIMS})
    load_catalog(root)
    load_catalog(root, claims_only=True)
    before = counted["parse"]
    load_catalog(root)
    assert counted["parse"] == before


def test_an_edited_file_is_read_again_and_its_errors_still_reported(demo_project, counted):
    root = demo_project({"demo/a.yaml": CLAIMS})
    load_catalog(root)
    (root / "claims" / "demo" / "a.yaml").write_text(CLAIMS.replace("inferred", "sure"))
    with pytest.raises(CatalogError, match="label: 'sure' is not one of"):
        load_catalog(root)
    with pytest.raises(CatalogError, match="label: 'sure' is not one of"):  # an invalid file is never taken as valid
        load_catalog(root)


def test_a_changed_schema_validates_again(demo_project, counted):
    root = demo_project({"demo/a.yaml": CLAIMS})
    load_catalog(root)
    schema = root / "claims" / "claim.schema.json"
    schema.write_text(schema.read_text().replace('"description": "How far the claim is established."', '"description": "Changed."'))
    before = counted["validate"]
    load_catalog(root)
    assert counted["validate"] == before + 2  # the claims file and the hardware classes, each validated on every load


# --- Where the lock is written, the store decides nothing ----------------------------------------------

def _forge(store_file, change) -> None:
    """Rewrite, in place, every stored parse whose data `change` alters (keys, digests and shape kept)."""
    import marshal
    stored = marshal.loads(store_file.read_bytes())
    for key, entry in stored["parsed"].items():  # each entry is the marshal of (data, lines)
        data, lines = marshal.loads(entry)
        stored["parsed"][key] = marshal.dumps((change(data), lines))
    store_file.write_bytes(marshal.dumps(stored))


def _cite_forward(data):
    if isinstance(data, list) and data and isinstance(data[0], dict) and data[0].get("id") == "demo/net":
        data[0]["cites"] = [{"file": "src/net.cpp", "symbol": "Net::forward"}]
    return data


def test_a_store_entry_forged_for_an_unchanged_file_never_reaches_the_lock(demo_project, demo, private_cache,
                                                                           tmp_path, capsys):
    from citecheck.cli import main as citecheck
    from citecheck.lock import read_lock
    from enginekb.store import STORE_NAME
    from test_bad_input import GOOD

    root = demo_project({"demo/a.yaml": GOOD})
    arguments = ["--root", str(root), "--repo", f"demo={demo[0]}"]
    assert citecheck(arguments) == 0
    store_file = tmp_path / "enginekb-cache" / STORE_NAME
    # The file's text is unchanged; its stored parse now cites a symbol that exists, so a check of the
    # forged records passes and would write an entry for Net::forward.
    _forge(store_file, _cite_forward)
    assert load_catalog(root).claim("demo/net").cites[0].symbol == "Net::forward"  # the store is believed here
    capsys.readouterr()
    assert citecheck(arguments) == 0
    assert "the record store disagrees with" in capsys.readouterr().err
    assert [e["symbol"] for e in read_lock(root / "claims" / "citecheck.lock").cites.values()] == ["Net::load"]
    assert load_catalog(root).claim("demo/net").cites[0].symbol == "Net::load"  # the forged entry was dropped


def test_every_write_of_the_lock_parses_the_stored_files_again(demo_project, demo, private_cache, monkeypatch):
    from citecheck.cli import main as citecheck
    from enginekb.store import RecordStore
    from test_bad_input import GOOD

    root = demo_project({"demo/a.yaml": GOOD})
    arguments = ["--root", str(root), "--repo", f"demo={demo[0]}"]
    assert citecheck(arguments) == 0
    checks, disagreeing = [], RecordStore.disagreeing

    def counted(self, parse):
        checks.append(len(self.hits))
        return disagreeing(self, parse)

    monkeypatch.setattr(RecordStore, "disagreeing", counted)
    assert citecheck(arguments) == 0 and checks == []  # nothing changed: nothing written, nothing to check
    (root / "claims" / "demo" / "b.yaml").write_text(GOOD.split("- id: demo/layers")[0].replace("demo/net", "demo/fwd")
                                                     .replace("symbol: Net::load, contains: open_file",
                                                              "symbol: Net::forward"))  # a new lock entry
    assert citecheck(arguments) == 0
    assert len(checks) == 1 and checks[0] >= 3  # engines, dimensions, a.yaml: every file the store answered


# --- Shapes a marshal stream can take and a parse never does --------------------------------------

def _store_data(root, store_file, data) -> None:
    """Put `data` in place of the stored parse of the demo claims file (its digest and lines kept)."""
    import marshal
    stored = marshal.loads(store_file.read_bytes())
    for key, entry in stored["parsed"].items():
        old, lines = marshal.loads(entry)
        if isinstance(old, list) and old and isinstance(old[0], dict) and old[0].get("id") == "demo/a":
            stored["parsed"][key] = marshal.dumps((data, lines))
    store_file.write_bytes(marshal.dumps(stored))


def _shared():
    cites = [{"file": "src/net.cpp", "symbol": "Net::load"}]
    claim = {"id": "demo/a", "label": "inferred", "dimension": "kind.category", "text": "A library."}
    return [claim | {"see": cites}, claim | {"id": "demo/b", "see": cites}]  # one list in two places


def _looped():
    looped = [{"id": "demo/a", "label": "inferred", "dimension": "kind.category", "text": "A library."}]
    looped[0]["note"] = looped
    return looped


def _deep():
    deep: list = []
    for _ in range(100):
        deep = [deep]
    return [{"id": "demo/a", "label": "inferred", "dimension": "kind.category", "text": "A library.", "note": deep}]


@pytest.mark.parametrize("forged", [_shared, _looped, _deep, lambda: [("a tuple",)], lambda: [{True: 1}]])
def test_a_stored_parse_a_reader_could_not_make_is_a_miss(demo_project, tmp_path, monkeypatch, capsys, forged):
    monkeypatch.setenv("ENGINEKB_CACHE", str(tmp_path / "store"))
    root = demo_project({"demo/a.yaml": CLAIMS})
    load_catalog(root)
    _store_data(root, tmp_path / "store" / "records.marshal", forged())
    catalog = load_catalog(root)  # the file is parsed again: its one claim, as written
    assert [claim.id for claim in catalog.claims] == ["demo/a"] and catalog.claim("demo/a").note is None
    assert "malformed entries ignored" in capsys.readouterr().err


def test_the_site_build_is_never_decided_by_the_record_store(demo_project, tmp_path):
    """The site and its claims.json are written from the records: a store entry forged under an
    unchanged file's hash (believed by lint above) would have put Net::forward on the pages."""
    from enginekb.store import STORE_NAME
    from kbsite import mkdocs_hook
    from test_bad_input import GOOD

    root = demo_project({"demo/a.yaml": GOOD})
    load_catalog(root)  # fills the store
    _forge(tmp_path / "enginekb-cache" / STORE_NAME, _cite_forward)
    assert load_catalog(root).claim("demo/net").cites[0].symbol == "Net::forward"
    mkdocs_hook.on_config({"config_file_path": str(root / "mkdocs.yml")})
    assert mkdocs_hook._state["catalog"].claim("demo/net").cites[0].symbol == "Net::load"
