"""Two citecheck runs that refresh the lock at once both keep their entries; a killed writer's
temporary file is removed by the next writer."""

import multiprocessing
import time

from citecheck.check import merge_lock
from citecheck.lock import Lock, read_lock, update_lock, write_lock


def _entry(engine: str) -> dict:
    return {"engine": engine, "commit": "c" * 40, "file": f"{engine}.c", "symbol": "f", "blob": "b" * 40,
            "lines": [1, 2], "kind": "definition"}


def _refresh(path, engine, hold):
    fresh = Lock({(engine, "c" * 40, f"{engine}.c", "symbol", "f", ""): _entry(engine)}, {})

    def change(current):
        time.sleep(hold)  # the other writer is waiting meanwhile, not reading a stale lock
        return merge_lock(current, fresh, [engine])

    update_lock(path, change)


def test_concurrent_refreshes_of_different_engines_keep_both(tmp_path):
    path = tmp_path / "citecheck.lock"
    write_lock(path, Lock())
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_refresh, args=(path, engine, 0.3)) for engine in ("ncnn", "mnn")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(10)
    assert sorted(e["engine"] for e in read_lock(path).cites.values()) == ["mnn", "ncnn"]


def test_a_killed_writers_temporary_file_is_removed_by_the_next_writer(tmp_path):
    path = tmp_path / "citecheck.lock"
    (tmp_path / ".citecheck-abc123.lock").write_text("half a lock")
    update_lock(path, lambda current: current)
    assert read_lock(path).cites == {} and not list(tmp_path.glob(".citecheck-*"))


def test_a_run_that_loaded_older_claims_keeps_what_a_later_run_wrote_for_the_same_engine():
    """Lost update: run A loads claims citing X; an edit makes them cite Y and run B writes Y (dropping
    X); A, writing last, must neither drop Y nor put X back."""
    from citecheck.check import merge_lock
    from citecheck.lock import Lock

    def entry(symbol):
        return {"engine": "demo", "commit": "a" * 40, "file": "f.c", "symbol": symbol}

    x, y, kept = ("demo", "x"), ("demo", "y"), ("demo", "kept")
    seen = Lock({x: entry("x"), kept: entry("kept")})  # what A read before checking
    current = Lock({y: entry("y"), kept: entry("kept")})  # what B wrote meanwhile
    fresh = Lock({x: entry("x"), kept: entry("kept")})  # what A resolved
    merged = merge_lock(current, fresh, ["demo"], seen)
    assert set(merged.cites) == {y, kept}
    alone = merge_lock(seen, Lock({kept: entry("kept")}), ["demo"], seen)  # no concurrent run: prunes x
    assert set(alone.cites) == {kept}


def test_a_full_run_that_loaded_claims_before_an_edit_keeps_the_one_engine_run_s_entry(demo_project, demo,
                                                                                        monkeypatch, capsys):
    """The lost update end to end: run A (every engine) has loaded the claims citing Net::load when the
    claim is edited to cite Net::forward and run B (--engine demo) writes that; A writes last. The lock
    must keep B's entry and drop A's stale one, so that --offline passes on the edit."""
    import citecheck.cli as cli
    from test_bad_input import GOOD

    root = demo_project({"demo/a.yaml": GOOD})
    claims_file = root / "claims" / "demo" / "a.yaml"
    arguments = ["--root", str(root), "--repo", f"demo={demo[0]}", "--no-cache"]
    assert cli.main(arguments) == 0
    check_online = cli.check_online

    def edit_and_refresh_meanwhile(*args, **kwargs):
        monkeypatch.setattr(cli, "check_online", check_online)
        claims_file.write_text(GOOD.replace("symbol: Net::load, contains: open_file", "symbol: Net::forward", 1))
        assert cli.main(arguments + ["--engine", "demo"]) == 0  # run B, while A holds its old claims
        return check_online(*args, **kwargs)

    monkeypatch.setattr(cli, "check_online", edit_and_refresh_meanwhile)
    assert cli.main(arguments) == 0  # run A, writing last
    symbols = {e.get("symbol") for e in read_lock(root / "claims" / "citecheck.lock").cites.values()}
    assert "Net::forward" in symbols and "Net::load" not in symbols
    capsys.readouterr()
    assert cli.main(["--root", str(root), "--offline"]) == 0, capsys.readouterr().out
