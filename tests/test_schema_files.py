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
