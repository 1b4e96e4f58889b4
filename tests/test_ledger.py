"""The second-reading ledger (claims/<engine>/second-reads.yaml): a reading matches the claim's text
by its hash; an edit makes it stale; lint warns on unread and stale Verified claims but passes, and
rejects a malformed ledger; review, stats and the site report what was read."""

from __future__ import annotations

import json
import textwrap

import pytest
from conftest import lock_for as locked
from upstream import make_project

from claimtool.cli import main as claims
from enginekb.ledger import text_hash
from enginekb.load import load_catalog
from enginekb.model import claim_anchor

CLAIMS = {
    "demo/kind.yaml": """\
        - id: demo/read
          label: verified
          dimension: kind.category
          text: >-
            A library the
            application links.
          cites: [{file: src/net.h, symbol: Net}]
        - id: demo/unread
          label: verified
          dimension: kind.category
          text: A second claim nobody has read again.
          cites: [{file: src/net.h, symbol: Net}]
        - id: demo/guess
          label: inferred
          dimension: kind.category
          text: Inferred claims need no reading.
        """,
    "other/kind.yaml": """\
        - id: other/thing
          label: verified
          dimension: kind.category
          text: Another engine's claim.
          cites: [{file: a.c, symbol: f}]
        """,
}


def ledger(*reads: str, checklist: str = "") -> str:
    checklist = checklist or """\
        - id: presets
          where: Build presets
          paths: [CMakePresets.json]
          ask: Does the default hold in the presets?
        """
    return "checklist:\n" + textwrap.indent(textwrap.dedent(checklist), "  ") + "reads:\n" + "".join(
        textwrap.indent(textwrap.dedent(r), "  ") for r in reads)


def reading(claim: str = "demo/read", text: str | None = None, extra: str = "") -> str:
    digest = text if text is not None else text_hash("A library the application links.")
    return f"""\
        - claim: {claim}
          text: '{digest}'
          result: held
          checks: [presets]
          searched: [git grep -n Net PIN -- src/]
        """ + textwrap.indent(textwrap.dedent(extra), "  ")


def project(tmp_path, ledger_text: str | None):
    files = dict(CLAIMS)
    if ledger_text is not None:
        files["demo/second-reads.yaml"] = ledger_text
    return make_project(tmp_path / "p", {"demo": {}, "other": {}}, files)


def run(root, capsys, *args) -> tuple[int, str, str]:
    code = claims(["--root", str(root), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_hash_ignores_line_breaks_and_indentation():
    assert text_hash("A library the\n  application links.") == text_hash("A library the application links.")
    assert text_hash("A library.") != text_hash("A library!")


def test_a_matching_reading_counts_and_an_edit_makes_it_stale(tmp_path, capsys):
    root = project(tmp_path, ledger(reading()))
    code, _, err = run(root, capsys, "lint")
    assert code == 0
    assert "demo/unread: no second reading in claims/demo/second-reads.yaml (warning)" in err
    assert "demo/read" not in err and "demo/guess" not in err
    code, out, _ = run(root, capsys, "stats", "--format", "json")
    assert json.loads(out)["second_reads"]["demo"] == {"verified": 2, "read": 1, "stale": 0}

    kind = root / "claims/demo/kind.yaml"
    kind.write_text(kind.read_text().replace("application links.", "application links and calls."))
    code, _, err = run(root, capsys, "lint")
    assert code == 0
    assert "demo/read: its text changed since its second reading" in err
    code, out, _ = run(root, capsys, "stats", "--format", "json")
    assert json.loads(out)["second_reads"]["demo"] == {"verified": 2, "read": 0, "stale": 1}


def test_review_lists_unread_and_stale_claims_and_prints_the_checklist(tmp_path, capsys):
    root = project(tmp_path, ledger(reading(text="0" * 16)))
    code, out, _ = run(root, capsys, "review", "--engine", "demo")
    assert code == 0
    assert "[presets] Build presets: Does the default hold in the presets? (CMakePresets.json)" in out
    assert "demo/read: its text changed since its second reading" in out
    assert "demo/unread: no second reading" in out


def test_an_engine_without_a_ledger_has_every_verified_claim_unread(tmp_path, capsys):
    root = project(tmp_path, None)
    code, out, _ = run(root, capsys, "stats", "--format", "json")
    assert json.loads(out)["second_reads"]["other"] == {"verified": 1, "read": 0, "stale": 0}


@pytest.mark.parametrize("ledger_text, message", [
    (ledger(reading("demo/missing")), "demo/missing: a reading of a claim that does not exist"),
    (ledger(reading("other/thing")), "other/thing: a claim of other: its reading goes in that engine's ledger"),
    (ledger(reading(), reading()), "demo/read: a second reading of this claim (first at line"),
    (ledger(reading().replace("[presets]", "[registries]")), "checks: 'registries' is not on this engine's checklist"),
    (ledger(reading(text="abc")), "demo/read: text: the first 16 hex digits of the sha256 of the text as read"),
    (ledger(reading().replace("result: held", "result: fine")), "demo/read: result: 'fine' is not one of"),
    (ledger(reading().replace("searched: [git grep -n Net PIN -- src/]", "searched: []")),
     "searched: at least one search or path the reading made"),
    ("reads: []\n", "'checklist' is a required property"),
])
def test_a_malformed_ledger_is_an_error_on_its_line(tmp_path, capsys, ledger_text, message):
    code, _, err = run(project(tmp_path, ledger_text), capsys, "lint")
    assert code == 2
    assert "claims/demo/second-reads.yaml:" in err and message in err


def test_claims_json_carries_a_matching_reading_only(tmp_path):
    from kbsite.exports import claim_record

    catalog = load_catalog(project(tmp_path, ledger(reading())))
    lock = locked(catalog)
    record = claim_record(catalog.claim("demo/read"), catalog, lock, "engines/demo/")
    assert record["second_read"] == {"result": "held", "checks": ["presets"],
                                     "searched": ["git grep -n Net PIN -- src/"], "note": None}
    assert claim_record(catalog.claim("demo/unread"), catalog, lock, "engines/demo/")["second_read"] is None



def test_the_page_marks_a_claim_read_twice_only_while_its_reading_matches(tmp_path):
    from kbsite.render import render_page

    def page(catalog):
        return render_page("<!-- kb:claims engine=demo -->", "engines/demo.md", catalog, locked(catalog))

    root = project(tmp_path, ledger(reading()))
    read, unread = page(load_catalog(root)).split(f'id="{claim_anchor("demo/unread")}"')
    assert "read twice" in read.split(f'id="{claim_anchor("demo/read")}"')[1]
    assert "read twice" not in unread
    kind = root / "claims/demo/kind.yaml"
    kind.write_text(kind.read_text().replace("application links.", "application links and calls."))
    assert "read twice" not in page(load_catalog(root))
