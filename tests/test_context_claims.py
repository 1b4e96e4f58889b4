"""Shared facts (claims/context/<topic>.yaml): a cite names the engine whose repository holds its file,
citecheck resolves it there at that engine's pin and the lock says which repository; lint's rules for
them; cells may rest on them; they render on their own page, never among an engine's claims."""

from __future__ import annotations

import json

import pytest

from citecheck.cli import main as citecheck
from citecheck.lock import read_lock
from enginekb.load import load_catalog
from kbsite.exports import Stamp, claims_json
from kbsite.render import render_page

DEMO = """\
- id: demo/net
  label: verified
  dimension: platform.jetson
  text: "`Net::load` opens a file."
  cites: [{file: src/net.cpp, symbol: Net::load}]
"""
CONTEXT = """\
- id: context/small-engine
  label: repo-reported
  dimension: platform.jetson
  text: The demo README calls it a small inference engine.
  cites:
    - {repo: demo, file: README.md, phrase: small inference engine}
"""


@pytest.fixture
def shared(demo_project):
    return demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT})


def run_citecheck(root, *args, capsys):
    code = citecheck(["--root", str(root), *args])
    out = capsys.readouterr()
    return code, out.out + out.err



def test_a_context_cite_resolves_in_the_named_repository_and_the_lock_says_which(shared, demo, capsys):
    path, shas = demo
    code, text = run_citecheck(shared, "--repo", f"demo={path}", "--engine", "demo", capsys=capsys)
    assert code == 0 and "2 ok, 0 failed" in text, text
    lock = read_lock(shared / "claims" / "citecheck.lock")
    entry = next(e for e in lock.cites.values() if e.get("phrase") == "small inference engine")
    assert (entry["engine"], entry["repo"], entry["commit"], entry["kind"]) == ("context", "demo", shas[1], "phrase")
    assert entry["lines"] == [3, 4]  # the phrase spans two lines of the README, whitespace normalised
    own = next(e for e in lock.cites.values() if e.get("symbol") == "Net::load")
    assert "repo" not in own  # an engine's own cite needs no repository: it is the engine's
    code, text = run_citecheck(shared, "--offline", capsys=capsys)
    assert code == 0, text


def test_a_context_cite_that_does_not_hold_fails_with_its_line(demo_project, demo, capsys):
    path, _ = demo
    root = demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT.replace("small inference engine", "large engine")})
    code, text = run_citecheck(root, "--repo", f"demo={path}", capsys=capsys)
    assert code == 1 and "claims/context/facts.yaml:6" in text and "context/small-engine" in text, text


def test_offline_reports_a_context_entry_no_claim_cites_any_more(shared, demo, capsys):
    path, _ = demo
    assert run_citecheck(shared, "--repo", f"demo={path}", capsys=capsys)[0] == 0
    (shared / "claims" / "context" / "facts.yaml").unlink()
    code, text = run_citecheck(shared, "--offline", capsys=capsys)
    assert code == 1 and "stale lock entry: no claim cites demo README.md 'small inference engine'" in text, text


def test_a_context_cite_follows_its_repository_pin(shared, demo):
    _, shas = demo
    catalog = load_catalog(shared)
    moved = catalog.with_pin("demo", shas[0])
    (cite,) = moved.claim("context/small-engine").cites
    assert (cite.repo, cite.commit) == ("demo", shas[0])
    assert sorted(c.id for c in moved.claims_in_repository("demo")) == ["context/small-engine", "demo/net"]
    assert moved.claims_in_repository("other") == []


@pytest.mark.parametrize("claims_files, message", [
    ({"context/facts.yaml": CONTEXT.replace("repo: demo, ", "")},
     "claims/context/facts.yaml:6: context/small-engine: a context claim's cite names the engine whose pinned "
     "repository holds the file: repo: <demo|other>"),
    ({"context/facts.yaml": CONTEXT.replace("repo: demo", "repo: ghost")},
     "claims/context/facts.yaml:6: context/small-engine: repo: unknown engine 'ghost'"),
    ({"demo/b.yaml": DEMO.replace("demo/net", "demo/net2").replace("{file:", "{repo: other, file:")},
     "claims/demo/b.yaml:5: demo/net2: repo: only a context claim's cite names a repository; an engine's claims "
     "cite the engine's own"),
    ({"context/facts.yaml": CONTEXT + "  count: {value: 1, how: {glob: 'src/*'}}\n"},
     "claims/context/facts.yaml:7: context/small-engine: count: a context claim counts nothing"),
    ({"context/facts.yaml": CONTEXT.replace("context/small-engine", "demo/small-engine")},
     "claims/context/facts.yaml:1: demo/small-engine: id must start with 'context/'"),
])
def test_lint_rules_of_context_claims(demo_project, lint, claims_files, message):
    root = demo_project({"demo/a.yaml": DEMO} | claims_files)
    code, text = lint(root)
    assert code == 2 and message in text and "Traceback" not in text, text


def test_a_cell_of_any_engine_may_rest_on_a_context_claim(demo_project, lint):
    cells = "- {dimension: platform.jetson, verdict: partial, answer: Builds., rests_on: [demo/net, context/small-engine]}\n"
    root = demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT, "demo/cells.yaml": cells})
    code, text = lint(root)
    assert "rests_on" not in text, text
    another = demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT,
                            "demo/cells.yaml": cells.replace("context/small-engine", "other/x"),
                            "other/a.yaml": DEMO.replace("demo/net", "other/x")})
    code, text = lint(another)
    assert "rests_on: other/x is a claim of other, not of demo" in text, text


def test_context_claims_render_on_their_own_page_and_never_as_an_engines(shared, demo, capsys):
    path, _ = demo
    assert run_citecheck(shared, "--repo", f"demo={path}", capsys=capsys)[0] == 0
    catalog = load_catalog(shared)
    lock = read_lock(shared / "claims" / "citecheck.lock")
    facts = render_page("<!-- kb:claims engine=context -->\n", "analysis/shared_facts.md", catalog, lock)
    assert "context/small-engine" in facts and "demo/net" not in facts
    engine_page = render_page("<!-- kb:claims engine=demo -->\n", "engines/demo.md", catalog, lock)
    everything = render_page("<!-- kb:claims dimension=platform.jetson -->\n", "engines/demo.md", catalog, lock)
    assert "context/small-engine" not in engine_page and "context/small-engine" not in everything
    explorer = render_page("<!-- kb:explorer -->\n", "analysis/explorer.md", catalog, lock)
    assert '<option value="demo">Demo</option><option value="context">Shared facts</option>' in explorer
    data = claims_json(catalog, lock, Stamp("x", "y"), lambda target: target)
    record = next(c for c in data["claims"] if c["id"] == "context/small-engine")
    assert record["page"] == "analysis/shared_facts.md#claim-context-small-engine"
    (cite,) = record["cites"]
    assert cite["repo"] == "Demo" and cite["url"].startswith("https://example.invalid/demo/blob/")
    assert "repo" not in next(c for c in data["claims"] if c["id"] == "demo/net")["cites"][0]
    json.dumps(data)  # plain data


def test_claims_grep_selects_the_shared_facts_by_their_owner(shared, monkeypatch, capsys):
    from claimtool.cli import main as claims

    monkeypatch.chdir(shared)
    assert claims(["--root", str(shared), "grep", "--engine", "context"]) == 0
    out = capsys.readouterr().out
    assert "context/small-engine" in out and "demo/net" not in out
    assert claims(["--root", str(shared), "grep", "--engine", "ghost"]) == 2
    assert "unknown engine ghost" in capsys.readouterr().err


def test_a_scenario_answer_may_rest_on_a_context_claim(demo_project, lint):
    import yaml

    answer = {"verdict": "partial", "path": {"how": "Net on the GPU", "api": "demo/net", "backend": "demo/net"},
              "obstacle": {"kind": "none"}, "reason": "Builds.", "would_change": "A wheel.",
              "rests_on": ["demo/net", "context/small-engine"]}
    scenario = {"id": "jetson", "title": "Run on a Jetson", "who": "A robot builder.", "hardware": "jetson-orin",
                "no_model": "The fixture has no model records.", "tiers": [["demo"]],
                "needs": {"platform": "Jetson", "model_class": "TTS", "runtime": "library", "constraints": []},
                "draws_on": ["platform.jetson"], "engines": {"demo": answer}}
    root = demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT,
                         "scenarios/jetson.yaml": yaml.safe_dump(scenario, sort_keys=False)})
    code, text = lint(root)
    assert code == 0, text


def test_a_context_claim_is_read_a_second_time_in_the_context_ledger(demo_project, lint):
    from enginekb.ledger import text_hash

    ledger = f"""\
checklist:
  - {{id: repos, where: Every engine's repository, paths: [README.md], ask: Does the fact hold in each tree?}}
reads:
  - claim: context/small-engine
    text: '{text_hash("The demo README calls it a small inference engine.")}'
    result: held
    checks: [repos]
    searched: [git grep -n small PIN -- README.md]
"""
    root = demo_project({"demo/a.yaml": DEMO, "context/facts.yaml": CONTEXT.replace("repo-reported", "verified"),
                         "context/second-reads.yaml": ledger})
    code, text = lint(root)
    assert code == 0 and "context/small-engine" not in text, text
