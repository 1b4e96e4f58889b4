"""`citecheck drift --engine ENGINE --to REV`: the drift report for moving a pin (never writes the lock)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from enginekb.load import find_root, load_catalog
from enginekb.problems import CatalogError

from .drift import drift, format_json, format_text
from .errors import CheckFailure
from .fetch import fetch_revision
from .repos import SourceUsageError, add_source_arguments, sources_from

EXIT_OK, EXIT_DRIFT, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citecheck drift",
        description="Classify every cite and count of an engine between its pin and a candidate commit: "
                    "unchanged, moved, changed (with the definition's diff) or broken. Never writes the lock.",
    )
    parser.add_argument("--root", type=Path, help="project root (default: found from the working directory)")
    parser.add_argument("--engine", action="append", required=True, help="engine to compare (repeatable)")
    parser.add_argument("--to", required=True, metavar="REV",
                        help="candidate: a commit SHA, or a branch or tag the repository (or, with --fetch, its host) has")
    add_source_arguments(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        catalog = load_catalog(args.root.resolve() if args.root else find_root())
    except CatalogError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    engines = list(dict.fromkeys(args.engine))
    unknown = [e for e in engines if e not in catalog.engines]
    if unknown:
        print(f"citecheck drift: unknown engine {', '.join(unknown)} (engines: {', '.join(catalog.engines)})",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        sources = sources_from(args)
    except SourceUsageError as error:
        print(f"citecheck drift: {error}", file=sys.stderr)
        return EXIT_USAGE
    reports = []
    for engine_id in engines:
        engine = catalog.engines[engine_id]
        try:
            store = sources.open(engine, {engine.pin})
            if args.fetch:
                new = fetch_revision(sources.fetch_url(engine), args.to, store.path)
            else:
                new = store.resolve_revision(args.to)
            reports.append(drift(catalog, engine_id, store, new))
        except CheckFailure as error:
            print(f"citecheck drift: {engine_id}: {error.kind}: {error.reason}", file=sys.stderr)
            return EXIT_USAGE
    print(format_json(reports) if args.format == "json" else "\n\n".join(format_text(r) for r in reports))
    moved_on = any(r.tally()["changed"] or r.tally()["broken"] or r.counts for r in reports)
    return EXIT_DRIFT if moved_on else EXIT_OK
