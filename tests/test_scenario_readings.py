"""A scenario's second readings: shown on its page (who, when, held or changed, what was checked and
changed), marked out of date once the scenario changes after its reading, and warned about by lint."""

from __future__ import annotations

import json

from test_scenarios import SCENARIO, changed, lint, project

from claimtool.cli import main as claims
from enginekb.load import load_catalog


def current_hash(tmp_path, monkeypatch, capsys, scenario) -> str:
    root = project(tmp_path / "hash", scenario)
    monkeypatch.chdir(root)
    assert claims(["--root", str(root), "stats", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["scenario_readings"]["speak"]["hash"]


def reading(read: str, **fields) -> dict:
    return {"by": "firmware engineer", "date": "2026-12-04", "read": read, "result": "changed",
            "checked": ["demo's `Net::forward` at the pin"], "changed": ["demo: partial to no"]} | fields


def readings_section(tmp_path, scenario) -> str:
    from citecheck.lock import Lock
    from kbsite.render import render_page

    page = render_page("<!-- kb:scenario speak -->\n", "analysis/choosing.md", load_catalog(project(tmp_path, scenario)), Lock())
    return page.split('<section class="kb-readings')[1].split("</section>")[0]


def test_a_scenario_nobody_read_says_so(tmp_path):
    section = readings_section(tmp_path, SCENARIO)
    assert section.startswith(' kb-readings-unread" data-readings="unread" data-search-exclude>')
    assert "No second reading yet" in section and "kb-reading\"" not in section


def test_a_current_reading_shows_who_when_what_was_checked_and_changed(tmp_path, monkeypatch, capsys):
    read = current_hash(tmp_path, monkeypatch, capsys, SCENARIO)
    section = readings_section(tmp_path, changed("readings", [reading(read)]))
    assert 'data-readings="current"' in section and "Read as it stands" in section
    assert "<strong>firmware engineer</strong>, 2026-12-04: the answer <strong>changed</strong>" in section
    assert "<li>demo&#x27;s <code>Net::forward</code> at the pin</li>" in section
    assert "<li>demo: partial to no</li>" in section
    assert "out of date" not in section


def test_an_edit_after_the_reading_marks_it_out_of_date(tmp_path, monkeypatch, capsys):
    read = current_hash(tmp_path, monkeypatch, capsys, SCENARIO)
    edited = changed("readings", [reading(read)])
    edited["engines"]["demo"]["reason"] = "Another reason."
    now = current_hash(tmp_path / "b", monkeypatch, capsys, edited)
    assert now != read
    section = readings_section(tmp_path / "c", edited)
    assert 'data-readings="stale"' in section and "Reading out of date" in section
    assert f"read {read}, now {now}" in section
    assert '<div class="kb-reading kb-reading-stale">' in section and "reading out of date</span>" in section


def test_an_older_reading_stays_marked_beside_a_current_one(tmp_path, monkeypatch, capsys):
    read = current_hash(tmp_path, monkeypatch, capsys, SCENARIO)
    older = reading("0123456789abcdef", date="2026-11-01", by="earlier reader", result="held", changed=[])
    section = readings_section(tmp_path, changed("readings", [older, reading(read)]))
    assert 'data-readings="current"' in section
    assert section.index("firmware engineer") < section.index("earlier reader")  # newest first
    assert section.count("kb-reading-stale") == 1 and "read 0123456789abcdef" in section
    assert "Changed:" in section.split("earlier reader")[0] and "Changed:" not in section.split("earlier reader")[1]


def test_a_reading_is_escaped(tmp_path, monkeypatch, capsys):
    hostile = reading("0" * 16, by="<script>alert(1)</script>", checked=["[x](javascript:alert(1)) <b>bold</b>"],
                      changed=["<img src=x onerror=alert(1)>"])
    section = readings_section(tmp_path, changed("readings", [hostile]))
    assert "<script>" not in section and "<b>" not in section and "<img" not in section
    assert "&#60;script&#62;alert" in section and "&lt;img src=x" in section
    assert "](javascript" not in section and "&#91;x&#93;&#40;javascript" in section


def test_lint_warns_of_a_scenario_without_a_current_reading(tmp_path, monkeypatch, capsys):
    code, text = lint(project(tmp_path / "unread"), monkeypatch, capsys)
    assert code == 0, text
    assert "claims/scenarios/speak.yaml:1: speak: no second reading (readings:); the current hash is " in text
    assert "1 scenarios without a second reading, 0 whose reading is out of date" in text

    read = current_hash(tmp_path, monkeypatch, capsys, SCENARIO)
    code, text = lint(project(tmp_path / "read", changed("readings", [reading(read)])), monkeypatch, capsys)
    assert code == 0 and "speak:" not in text and "scenarios without" not in text, text

    edited = changed("readings", [reading(read)])
    edited["title"] = "Stream speech on a tablet"
    code, text = lint(project(tmp_path / "edited", edited), monkeypatch, capsys)
    assert code == 0, text
    assert f"speak: reading out of date: the scenario was edited after its reading of 2026-12-04 (read {read}, now " in text
    assert "0 scenarios without a second reading, 1 whose reading is out of date" in text


def test_github_format_annotates_the_unread_scenario(tmp_path, monkeypatch, capsys):
    root = project(tmp_path)
    monkeypatch.chdir(root)
    assert claims(["--root", str(root), "lint", "--format", "github"]) == 0
    out = capsys.readouterr().out
    assert "::warning file=claims/scenarios/speak.yaml,line=1" in out and "speak: no second reading" in out


def test_stats_text_lists_the_scenarios_without_a_current_reading(tmp_path, monkeypatch, capsys):
    read = current_hash(tmp_path, monkeypatch, capsys, SCENARIO)
    edited = changed("readings", [reading(read)])
    edited["engines"]["demo"]["would_change"] = "Something else."
    for name, scenario, expected in (("read", changed("readings", [reading(read)]), "scenarios: 1 of 1 read as they stand"),
                                     ("unread", SCENARIO, "speak: no second reading (current hash "),
                                     ("edited", edited, "speak: reading out of date (current hash ")):
        root = project(tmp_path / name, scenario)
        monkeypatch.chdir(root)
        assert claims(["--root", str(root), "stats"]) == 0
        out = capsys.readouterr().out
        assert expected in out, out
        assert ("speak:" in out) == (name != "read"), out
