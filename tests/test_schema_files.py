"""The JSON Schemas under claims/ are read by json.loads, which keeps the last of two equal keys without a
word; a schema edited by hand can so lose a description or a pattern unseen. Each is read here refusing that."""
import json
from pathlib import Path

import pytest

CLAIMS = Path(__file__).resolve().parent.parent / "claims"


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    assert not repeated, f"duplicate keys {repeated}"
    return dict(pairs)


@pytest.mark.parametrize("path", sorted(CLAIMS.glob("*.schema.json")), ids=lambda p: p.name)
def test_schema_has_no_duplicate_keys(path):
    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def test_duplicate_keys_are_caught():
    with pytest.raises(AssertionError, match="commit"):
        json.loads('{"commit": 1, "title": 2, "commit": 3}', object_pairs_hook=_no_duplicates)


def _mutations(claim: dict):
    """A valid claim, and claims a little wrong in the ways the schema's branches (if, oneOf, not) decide."""
    yield claim
    for key in list(claim):
        yield {k: v for k, v in claim.items() if k != key}
    for label in ("verified", "measured", "proposal", "repo-reported", "sure"):
        yield claim | {"label": label}
    yield claim | {"absence": True}
    yield claim | {"provenance": {}}
    for cite in claim.get("cites", [])[:1]:
        yield claim | {"cites": [cite | {"phrase": "a b", "symbol": "x"}]}
        yield claim | {"cites": [{k: v for k, v in cite.items() if k not in ("phrase", "symbol")}]}
        yield claim | {"cites": [cite | {"commit": "abc"}]}
    if "count" in claim:
        yield claim | {"count": claim["count"] | {"how": claim["count"]["how"] | {"glob": "*", "file": "f"}}}


def test_the_rewritten_validator_decides_as_fastjsonschema_does():
    """The compiled validator raises a bare exception (enginekb.schema._BareRaises): the same records pass."""
    import fastjsonschema

    from enginekb.load import load_catalog
    from enginekb.schema import ClaimsSchema

    schema = ClaimsSchema.at(CLAIMS / "claim.schema.json")
    fast = {k: v for k, v in schema.schema.items() if k not in ("$id", "$schema")}
    original = fastjsonschema.compile(fast | {"$schema": "http://json-schema.org/draft-07/schema#"})
    catalog = load_catalog(CLAIMS.parent)
    decided = {True: 0, False: 0}
    for path in sorted({claim.path for claim in catalog.claims})[::7]:
        from enginekb.yamlfile import load_yaml

        for claim in load_yaml(path).data[:5]:
            for record in _mutations(claim):
                try:
                    original([record])
                    valid = True
                except fastjsonschema.JsonSchemaValueException:
                    valid = False
                try:
                    schema._fast([record])
                    rewritten = True
                except ValueError:  # enginekb.schema._Invalid
                    rewritten = False
                assert rewritten == valid, record
                decided[valid] += 1
    assert decided[True] > 50 and decided[False] > 500
