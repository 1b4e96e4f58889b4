"""The downloads a tool reads (claims.csv) and the report-a-problem link, from small inputs."""

import csv
import io

import pytest

from kbsite.exports import CSV_COLUMNS, claims_csv, csv_stamp
from kbsite.report import issues_meta, with_issues_meta
from kbsite.templating import UnsafeUrl


def data(*texts):
    claims = [{"id": f"demo/c{i}", "engine": "demo", "label": "verified", "layer": "kind", "dimension": "kind.category",
               "text": text, "cites": [{"file": "a.c", "symbol": "f", "lines": [3, 4]}], "page": "engines/demo/"}
              for i, text in enumerate(texts)]
    return {"claims": claims, "stamp": {"built": "2026-12-04", "commit": "abc123def456"}}


def test_claims_csv_starts_with_its_header_so_a_csv_reader_takes_it_as_one():
    rows = list(csv.DictReader(io.StringIO(claims_csv(data("plain text", "second, with a comma")))))
    assert [row["id"] for row in rows] == ["demo/c0", "demo/c1"]
    assert rows[1]["text"] == "second, with a comma" and rows[0]["cites"] == "a.c:f@L3-L4"
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert csv_stamp(data("x")) == "claims.csv built 2026-12-04 from enginekb commit abc123def456\n"


@pytest.mark.parametrize("text", ["=HYPERLINK(\"x\")", "+1", "-2+3", "@SUM(A1)", "\u200b=1+1", "\u202e\u2066=cmd", "  =1"])
def test_a_formula_is_neutralised_even_behind_format_characters_or_spaces(text):
    row = next(csv.DictReader(io.StringIO(claims_csv(data(text)))))
    assert row["text"].startswith("'") and "\u200b" not in row["text"] and "\u202e" not in row["text"]


def test_the_issue_link_is_named_only_for_an_https_repository_and_escaped():
    assert issues_meta(None) == "" and issues_meta("") == ""
    meta = issues_meta("https://github.com/example/enginekb")
    assert meta == '<meta name="enginekb-issues" content="https://github.com/example/enginekb/issues/new">'
    for bad in ("http://github.com/x/y", "javascript:alert(1)", 'https://github.com/x/y"onload="z'):
        with pytest.raises(UnsafeUrl):
            issues_meta(bad)
    assert with_issues_meta("<html><head></head></html>", meta) == f"<html><head>{meta}</head></html>"
    assert with_issues_meta("<p>no head</p>", meta) == "<p>no head</p>"


NODE_HARNESS = """
const fs = require("fs");
let saved = "", filtered = null, click = null;
global.Blob = function (parts) { saved = parts.join(""); };
global.URL = {createObjectURL: () => "blob:x", revokeObjectURL: () => {}};
global.setTimeout = () => {};
const button = {dataset: {export: "csv"}, addEventListener: (type, f) => { click = f; }};
const box = {addEventListener: (type, f) => { filtered = f; }, querySelectorAll: () => [button]};
global.document = {querySelector: () => box,
                   createElement: () => ({click() {}, remove() {}}), body: {appendChild() {}}};
eval(fs.readFileSync(process.argv[1], "utf8"));
filtered({detail: {claims: JSON.parse(process.argv[2])}});
click();
process.stdout.write(saved);
"""


@pytest.mark.parametrize("text", ["\u200b=1+1", "\u202e\u2066=cmd", "\ufeff@SUM(A1)", "  -2+3"])
def test_the_explorer_s_csv_export_neutralises_a_formula_behind_format_characters(text):
    """explorer-export.js, run by node with the page stubbed: the same cell rule as claims.csv."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    script = Path(__file__).parent.parent / "docs" / "assets" / "explorer-export.js"
    claims = [dict(claim, text=text) for claim in data(text)["claims"]]
    done = subprocess.run(["node", "-e", NODE_HARNESS, str(script), json.dumps(claims)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    row = next(csv.DictReader(io.StringIO(done.stdout)))
    assert row["text"].startswith("'") and not any(c in row["text"] for c in "\u200b\u202e\u2066\ufeff"), row
