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
