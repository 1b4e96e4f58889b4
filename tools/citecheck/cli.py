"""The `citecheck` command."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from enginekb.load import CLAIMS_DIR, SHA, find_root, load_catalog
from enginekb.problems import CatalogError, display_path

from .check import Result, check_offline, check_online, merge_lock
from .lock import LOCK_NAME, LockError, read_lock, update_lock
from .repos import RepositorySources

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
ENGINE_WIDE = ("repository unavailable", "commit not in repository")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citecheck",
        description="Confirm that every cited symbol and count holds at its engine's pinned commit.",
    )
    parser.add_argument("--root", type=Path, help="project root (default: found from the working directory)")
    parser.add_argument("--engine", action="append", default=[], help="check only this engine (repeatable)")
    parser.add_argument("--offline", action="store_true", help="check against claims/citecheck.lock, no repository")
    parser.add_argument("--repo", action="append", default=[], metavar="ENGINE=PATH", help="repository of one engine")
    parser.add_argument("--mirrors", type=Path, help="directory holding one git repository per engine id")
    parser.add_argument("--fetch", action="store_true", help="shallow-fetch pinned commits into a cache")
    parser.add_argument("--cache", type=Path, help="cache directory for --fetch")
    parser.add_argument("--no-write", action="store_true", help="do not refresh the lock after a passing run")
    parser.add_argument("--pin", action="append", default=[], metavar="ENGINE=SHA",
                        help="check against a candidate commit instead of the pin (implies --no-write)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    started = time.monotonic()
    try:
        root = args.root.resolve() if args.root else find_root()
        catalog = load_catalog(root)
    except CatalogError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
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
    # Without --engine: every engine that has claims.
    engines = args.engine or [e for e in catalog.engines if catalog.engine_claims(e)]
    lock_path = root / CLAIMS_DIR / LOCK_NAME
    try:
        lock = read_lock(lock_path)
    except LockError as error:
        print(f"citecheck: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.offline:
        results = check_offline(catalog, engines, lock, lock_path)
    else:
        sources = RepositorySources(
            repos={name: Path(path) for name, path in (spec.split("=", 1) for spec in args.repo)},
            mirrors=args.mirrors,
            fetch=args.fetch,
        )
        if args.cache:
            sources.cache = args.cache
        results, fresh = check_online(catalog, engines, sources)
        # The lock records the pins of engines.yaml, so a trial against another commit never writes it.
        if not args.no_write and not args.pin and all(r.ok for r in results):
            # Merged with the lock as it is at write time: another run may have refreshed other engines.
            update_lock(lock_path, lambda current: merge_lock(current, fresh, engines))
    elapsed = time.monotonic() - started
    claims_by_engine = Counter(c.engine for c in catalog.claims if c.engine in engines)
    report = _json_report if args.format == "json" else _text_report
    print(report(results, engines, catalog, claims_by_engine, elapsed, args.offline))
    return EXIT_OK if all(r.ok for r in results) else EXIT_FAILED


def _summary(results: list[Result], engines: list[str], catalog, claims_by_engine: Counter) -> dict:
    summary = {}
    for engine in engines:
        mine = [r for r in results if r.engine == engine]
        summary[engine] = {
            "commit": catalog.engines[engine].pin,
            "claims": claims_by_engine[engine],
            "cites": sum(1 for r in mine if r.kind != "count" and r.claim != "-"),
            "counts": sum(1 for r in mine if r.kind == "count" and r.claim != "-"),
            "ok": sum(1 for r in mine if r.ok),
            "failed": sum(1 for r in mine if not r.ok),
            "kinds": dict(sorted(Counter(r.kind for r in mine if r.ok).items())),
        }
    return summary


def _text_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
    lines: list[str] = []
    failures = [r for r in results if not r.ok]
    # An engine-wide failure (no repository, pin not in it) is said once, not once per cite.
    repeated = Counter((r.engine, r.reason) for r in failures if r.failure in ENGINE_WIDE)
    said = set()
    for r in failures:
        key = (r.engine, r.reason)
        if key in repeated:
            if key in said:
                continue
            said.add(key)
        more = repeated.get(key, 1) - 1
        lines.append(f"{display_path(r.path)}:{r.line}: {r.claim}: {r.reason}"
                     + (f" (and {more} more with the same reason)" if more else ""))
    mode = "offline, against the lock" if offline else "against the repositories"
    for engine, s in _summary(results, engines, catalog, claims_by_engine).items():
        kinds = ", ".join(f"{n} {k}" for k, n in s["kinds"].items())
        lines.append(
            f"{engine} @ {s['commit'][:12]}: {s['claims']} claims, {s['cites']} cites, {s['counts']} counts: "
            f"{s['ok']} ok, {s['failed']} failed" + (f" ({kinds})" if kinds else "")
        )
    lines.append(f"citecheck {mode}: {'FAILED' if failures else 'passed'}, "
                 f"{len(results) - len(failures)} ok, {len(failures)} failed, {elapsed:.1f} s")
    return "\n".join(lines)


def _json_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
    rows = [
        {
            "claim": r.claim, "engine": r.engine, "commit": r.commit, "file": r.file, "symbol": r.symbol,
            "status": r.status, "line": r.lines[0] if r.lines else None,
            "lines": list(r.lines) if r.lines else None, "kind": r.kind, "reason": r.reason or None,
            "failure": r.failure or None, "value": r.value,
            "source": f"{display_path(r.path)}:{r.line}",
        }
        for r in results
    ]
    summary = _summary(results, engines, catalog, claims_by_engine)
    summary["total"] = {"ok": sum(r.ok for r in results), "failed": sum(not r.ok for r in results),
                        "seconds": round(elapsed, 3), "offline": offline}
    return json.dumps({"results": rows, "summary": summary}, indent=1)


if __name__ == "__main__":
    sys.exit(main())
