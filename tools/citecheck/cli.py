"""The `citecheck` command."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from time import monotonic

from enginekb.frame import SHA
from enginekb.load import CLAIMS_DIR, find_root, load_catalog
from enginekb.model import Catalog
from enginekb.problems import CatalogError
from enginekb.store import RecordStore, default_directory
from enginekb.yamlfile import parse_yaml

from .cache import default_cache_dir
from .check import check_offline, check_online, merge_lock
from .lock import LOCK_NAME, Lock, LockError, read_lock, update_lock
from .repos import add_source_arguments, sources_from
from .confirm import Confirmation
from .report import FORMATS, REPORTS, github_problems, guarded

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # and EXIT_INTERNAL (3): a bug in citecheck itself


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citecheck",
        description="Confirm that every cited symbol and count holds at its engine's pinned commit.",
    )
    parser.add_argument("--root", type=Path, help="project root (default: found from the working directory)")
    parser.add_argument("--engine", action="append", default=[], help="check only this engine (repeatable)")
    parser.add_argument("--offline", action="store_true", help="check against claims/citecheck.lock, no repository")
    add_source_arguments(parser)
    parser.add_argument("--no-write", action="store_true", help="do not refresh the lock after a passing run")
    parser.add_argument("--no-cache", action="store_true",
                        help="resolve everything again, without the cache of earlier runs ($CITECHECK_CACHE)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N", help="processes for engines (default: the cores)")
    parser.add_argument("--pin", action="append", default=[], metavar="ENGINE=SHA",
                        help="check against a candidate commit instead of the pin (implies --no-write)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json, github (workflow-command annotations) or junit (XML)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Exit 0 when everything passes, 1 when a cite or count fails, 2 on a usage or configuration
    error, 3 on an internal error (a message, no traceback). `citecheck drift ...` is the drift report,
    `citecheck verify-lock ...` resolves the lock entries a change adds, `citecheck recipes ...` re-runs
    the recipes in notes."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["drift"]:
        from . import drift_cli

        return guarded("citecheck drift", drift_cli.main, argv[1:])
    if argv[:1] == ["verify-lock"]:
        from . import verify_lock_cli

        return guarded("citecheck verify-lock", verify_lock_cli.main, argv[1:])
    if argv[:1] == ["recipes"]:
        from . import recipes_cli

        return guarded("citecheck recipes", recipes_cli.main, argv[1:])
    args = build_parser().parse_args(argv)
    return guarded("citecheck", run, args)


def run(args: argparse.Namespace) -> int:
    started = monotonic()
    root = args.root.resolve() if args.root else None
    confirming = None
    try:
        try:
            root = root or find_root()
            confirming = _confirm_ahead(args, root / CLAIMS_DIR / LOCK_NAME)
            # The lock as this run found it, before its claims were loaded (a LockError is said below).
            seen = _read_lock_or_error(root / CLAIMS_DIR / LOCK_NAME)
            if confirming is not None and isinstance(seen, Lock):
                confirming.expect(seen)
            store = RecordStore(default_directory())
            catalog = load_catalog(root, store, claims_only=True)  # the other kinds of record are lint's
        except CatalogError as error:
            return _bad_records(args, root, error)
        try:
            return _run(args, root, catalog, seen, started, confirming, store)
        except StoreDisagrees as error:
            # The lock is written from the records as parsed now, never from a store that disagrees.
            print(f"citecheck: warning: the record store disagrees with {', '.join(map(str, error.paths))} "
                  "(a stale or forged entry); checking again without it", file=sys.stderr)
            try:
                catalog = load_catalog(root, RecordStore(None), claims_only=True)
            except CatalogError as error:
                return _bad_records(args, root, error)
            return _run(args, root, catalog, seen, started, None, None)
    finally:
        if confirming is not None:
            confirming.wait()  # the child is reaped whatever happened


class StoreDisagrees(Exception):
    def __init__(self, paths: list[Path]):
        super().__init__(paths)
        self.paths = paths


def _bad_records(args: argparse.Namespace, root: Path | None, error: CatalogError) -> int:
    if args.format == "github":  # bad records are shown on their lines too
        print(github_problems(error.problems, root or Path.cwd(), "citecheck: bad record"))
    print(error, file=sys.stderr)
    return EXIT_USAGE


def _read_lock_or_error(path: Path) -> Lock | LockError:
    try:
        return read_lock(path)
    except LockError as error:
        return error


def _confirm_ahead(args: argparse.Namespace, lock_path: Path) -> Confirmation | None:
    """For a run against local repositories at the pins, with the cache: the lock's entries confirmed
    in another process while this one loads the records (see confirm.py)."""
    if (args.offline or args.pin or args.fetch or args.no_cache
            or any("=" not in spec for spec in args.repo)):
        return None
    return Confirmation(lock_path, sources_from(args), default_cache_dir())


def _run(args: argparse.Namespace, root: Path, catalog: Catalog, seen: Lock | LockError, started: float,
         confirming: Confirmation | None, store: RecordStore | None) -> int:
    named = args.engine + [spec.split("=", 1)[0] for spec in args.repo + args.pin]
    unknown = [e for e in named if e not in catalog.engines]
    if unknown:
        print(f"citecheck: unknown engine {', '.join(unknown)} (engines: {', '.join(catalog.engines)})", file=sys.stderr)
        return EXIT_USAGE
    if any("=" not in spec for spec in args.repo + args.pin):
        print("citecheck: --repo takes ENGINE=PATH and --pin ENGINE=SHA", file=sys.stderr)
        return EXIT_USAGE
    if args.pin and args.offline:
        print("citecheck: --pin needs the repositories; it cannot be used with --offline", file=sys.stderr)
        return EXIT_USAGE
    for engine_id, commit in (spec.split("=", 1) for spec in args.pin):
        if not SHA.match(commit):
            print(f"citecheck: --pin {engine_id}={commit}: give a full 40-hex commit SHA", file=sys.stderr)
            return EXIT_USAGE
        catalog = catalog.with_pin(engine_id, commit)
    # Without --engine: every engine that has claims. An engine named twice is checked once.
    engines = list(dict.fromkeys(args.engine)) or [e for e in catalog.engines if catalog.engine_claims(e)]
    lock_path = root / CLAIMS_DIR / LOCK_NAME
    # A run of every engine writes the whole lock: a malformed lock is what it repairs, not an error.
    rewrites_all = not args.offline and not args.no_write and not args.pin and set(engines) >= {
        e for e in catalog.engines if catalog.engine_claims(e)}
    if isinstance(seen, LockError):
        if not rewrites_all:
            print(f"citecheck: {seen}", file=sys.stderr)
            return EXIT_USAGE
        print(f"citecheck: warning: {seen}; this run rewrites it", file=sys.stderr)
        seen = Lock()
    if args.offline:
        results = check_offline(catalog, engines, seen, lock_path)
    else:
        sources = sources_from(args)  # --repo was checked above
        cache_dir = None if args.no_cache else default_cache_dir()
        results, fresh = check_online(catalog, engines, sources, cache_dir, jobs=max(args.jobs, 0) or None,
                                      confirmed=confirming)
        # The lock records the pins of engines.yaml, so a trial against another commit never writes it.
        if not args.no_write and not args.pin and all(r.ok for r in results):
            # Merged with the lock as it is at write time: another run may have refreshed other engines.
            try:
                update_lock(lock_path, lambda current: merge_lock(current, fresh, engines, seen),
                            replace_malformed=rewrites_all, known=seen,
                            before_write=None if store is None else lambda: _confirm_records(store))
            except (LockError, OSError) as error:
                reason = f"{lock_path}: {error.strerror}" if isinstance(error, OSError) else error
                print(f"citecheck: the lock was not written: {reason}", file=sys.stderr)
                return EXIT_USAGE
    elapsed = monotonic() - started
    # Per repository checked: its engine's claims and the context claims citing it.
    claims_by_engine = Counter({e: len(catalog.claims_in_repository(e)) for e in engines})
    print(REPORTS[args.format](results, engines, catalog, claims_by_engine, elapsed, args.offline))
    return EXIT_OK if all(r.ok for r in results) else EXIT_FAILED


def _confirm_records(store: RecordStore) -> None:
    """Every record file the store answered, parsed again: the store decides nothing that is written."""
    wrong = store.disagreeing(parse_yaml)
    if wrong:
        raise StoreDisagrees(wrong)


if __name__ == "__main__":
    sys.exit(main())
