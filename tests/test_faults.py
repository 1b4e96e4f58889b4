"""Faults found by probing a fresh clone, one class per section: a record naming a row that does not
exist, damaged or deceiving mirrors, and caches that hold something wrong. Each must give a clear
error with its exit code, never a traceback or a hang, and never a lock the tools then reject."""

from __future__ import annotations

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

CLAIMS = """\
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` opens a file."
  cites:
    - {file: src/net.cpp, symbol: Net::load, contains: open_file}
- id: demo/renamed
  label: inferred
  dimension: kind.unit-of-work
  text: One request at a time.
"""
CELLS = "- {dimension: kind.unit-of-work, verdict: partial, answer: One at a time., rests_on: [demo/net, demo/renamed]}\n"
UNKNOWN_ROW = "claims/demo/a.yaml:7: demo/renamed: unknown dimension 'kind.renamed' (see claims/dimensions.yaml)"


@pytest.fixture
def bounded():
    signal.alarm(60)  # a hang fails the test instead of the suite
    yield
    signal.alarm(0)


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
