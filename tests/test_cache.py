"""The citecheck cache: a run with nothing changed resolves nothing; each change re-resolves only its part."""

import pytest

from citecheck import cache as cache_module
from citecheck.check import check_online
from citecheck.gitstore import GitStore
from citecheck.repos import RepositorySources
from citecheck.resolve import Resolver
from enginekb.load import load_catalog
from test_drift import CLAIMS, THIRD_TREE
from upstream import SECOND_TREE, make_upstream


@pytest.fixture
def counted(monkeypatch):
    """How many times the resolver ran, per symbol."""
    calls = []
    original = Resolver.resolve_symbol

    def resolve_symbol(self, blob, symbol, contains=None):
        calls.append(symbol)
        return original(self, blob, symbol, contains)

    monkeypatch.setattr(Resolver, "resolve_symbol", resolve_symbol)
    return calls


@pytest.fixture
def moving(demo_project, tmp_path):
    upstream, shas = make_upstream(tmp_path / "moving", [SECOND_TREE, THIRD_TREE])
    claims = CLAIMS.replace("- id: demo/broken", "- id: demo/broken-at-third")
    return upstream, shas, lambda pin, text=claims: demo_project({"demo/a.yaml": text}, pin=pin)


def run(project, upstream, cache_dir):
    catalog = load_catalog(project)
    results, _ = check_online(catalog, ["demo"], RepositorySources(repos={"demo": upstream}), cache_dir, jobs=1)
    return results


def test_a_second_run_resolves_nothing_and_only_reads_the_blobs_to_confirm_them(moving, counted, tmp_path,
                                                                               monkeypatch):
    upstream, shas, project_at = moving
    project = project_at(shas[0])
    assert all(r.ok for r in run(project, upstream, tmp_path / "c"))
    assert len(counted) == 6
    counted.clear()
    read, reads = GitStore.read, []

    def recorded(self, sha, path):
        reads.append(path)
        return read(self, sha, path)

    monkeypatch.setattr(GitStore, "read", recorded)
    results = run(project, upstream, tmp_path / "c")
    assert all(r.ok for r in results) and counted == []
    assert len(reads) == len([r for r in results if r.kind != "count"])  # one read per cite: its confirmation
    assert {r.claim: r.lines for r in results if r.claim == "demo/moved"} == {"demo/moved": (9, 12)}


def test_a_warm_run_still_fails_when_the_pin_left_the_repository(moving, tmp_path):
    """The cache answers for a commit's contents, never for the commit being there."""
    upstream, shas, project_at = moving
    run(project_at(shas[0]), upstream, tmp_path / "c")
    other, _ = make_upstream(tmp_path / "rewritten", [THIRD_TREE])
    results = run(project_at(shas[0]), other, tmp_path / "c")
    assert results and all(r.failure == "commit not in repository" for r in results)


def test_an_edited_claim_re_resolves_only_its_own_cite(moving, counted, tmp_path):
    upstream, shas, project_at = moving
    run(project_at(shas[0]), upstream, tmp_path / "c")
    counted.clear()
    edited = CLAIMS.replace("{file: src/net.cpp, symbol: Net::load}", "{file: src/net.cpp, symbol: Net::load, contains: open_file}")
    results = run(project_at(shas[0], edited), upstream, tmp_path / "c")
    assert all(r.ok for r in results) and counted == ["Net::load"]


def test_a_changed_blob_re_resolves_the_cites_into_it(moving, counted, tmp_path):
    upstream, shas, project_at = moving
    run(project_at(shas[0]), upstream, tmp_path / "c")
    counted.clear()
    # The claims that still hold at the second commit: the rest are drift's business.
    kept = CLAIMS.split("- id: demo/renamed")[0] + "- id: demo/changed" + CLAIMS.split("- id: demo/changed")[1].split("- id: demo/broken")[0]
    results = run(project_at(shas[1], kept), upstream, tmp_path / "c")
    # engine/sched.py is the same blob at the new pin: not re-resolved; src/net.cpp changed.
    assert sorted(counted) == ["Net::forward", "Net::load"]
    assert [r.claim for r in results] == ["demo/same", "demo/moved", "demo/changed"] and all(r.ok for r in results)


def test_a_changed_resolver_invalidates_everything(moving, counted, tmp_path, monkeypatch):
    upstream, shas, project_at = moving
    project = project_at(shas[0])
    run(project, upstream, tmp_path / "c")
    counted.clear()
    monkeypatch.setattr(cache_module, "resolver_fingerprint", lambda: "another-resolver")
    run(project, upstream, tmp_path / "c")
    assert len(counted) == 6


def test_the_fingerprint_follows_the_resolver_source(monkeypatch, tmp_path):
    before = cache_module.resolver_fingerprint()
    fake = tmp_path / "citecheck"
    fake.mkdir()
    for name in cache_module._RESOLVER_MODULES:
        (fake / name).write_text("# a different resolver\n")
    monkeypatch.setattr(cache_module, "__file__", str(fake / "cache.py"))
    assert cache_module.resolver_fingerprint() != before
