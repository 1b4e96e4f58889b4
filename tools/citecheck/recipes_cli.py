"""`citecheck recipes [--engine ENGINE] --mirrors DIR`: re-run the recipes in claims' notes at the pin.

Lists every recipe that finds nothing where its sentence does not say so, every recipe that failed,
and a summary line; exit 1 when there is any. Never writes the lock or a record.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from enginekb.load import find_root, load_catalog
from enginekb.problems import CatalogError

from .errors import CheckFailure
from .recipes import Outcome, recipes_of, run
from .repos import RepositorySources

EXIT_OK, EXIT_STALE, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citecheck recipes",
        description="Re-run the git grep / ls-tree / show recipes that claims' notes and scopes give, at each "
                    "engine's pin, and list those that find nothing unannounced or fail.",
    )
    parser.add_argument("--root", type=Path, help="project root (default: found from the working directory)")
    parser.add_argument("--engine", action="append", default=[], help="only this engine (repeatable)")
    parser.add_argument("--repo", action="append", default=[], metavar="ENGINE=PATH")
    parser.add_argument("--mirrors", type=Path, help="directory holding one git repository per engine id")
    parser.add_argument("--all", action="store_true", help="also list recipes that ran as expected")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        catalog = load_catalog(args.root.resolve() if args.root else find_root())
    except CatalogError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    engines = list(dict.fromkeys(args.engine)) or list(catalog.engines)
    unknown = [e for e in engines if e not in catalog.engines]
    if unknown or any("=" not in spec for spec in args.repo):
        print(f"citecheck recipes: unknown engine {', '.join(unknown)}" if unknown
              else "citecheck recipes: --repo takes ENGINE=PATH", file=sys.stderr)
        return EXIT_USAGE
    sources = RepositorySources(repos={k: Path(v) for k, v in (s.split("=", 1) for s in args.repo)},
                                mirrors=args.mirrors)
    pins = {engine_id: engine.pin for engine_id, engine in catalog.engines.items()}
    recipes = [r for c in catalog.claims if c.engine in engines for r in recipes_of(c, pins)]
    outcomes: list[Outcome] = []
    for engine_id in dict.fromkeys(r.engine for r in recipes):
        engine = catalog.engines[engine_id]
        try:
            store = sources.open(engine, {engine.pin})
        except CheckFailure as error:
            print(f"citecheck recipes: {engine_id}: {error.kind}: {error.reason}", file=sys.stderr)
            return EXIT_USAGE
        outcomes += [run(recipe, store.path, engine.pin) for recipe in recipes if recipe.engine == engine_id]
    root = catalog.root
    tally = Counter(o.status for o in outcomes)
    stale = [o for o in outcomes if o.status == "failed" or (o.status == "nothing" and not o.recipe.announced_empty)]
    for outcome in (outcomes if args.all else stale):
        claim = outcome.recipe.claim
        what = "finds nothing, unannounced" if outcome in stale and outcome.status == "nothing" else outcome.status
        extra = f" ({outcome.detail})" if outcome.detail else f" ({outcome.lines} lines)" if outcome.lines else ""
        print(f"{claim.path.relative_to(root)}:{claim.line}: {claim.id}: {outcome.recipe.field}: {what}{extra}: "
              f"{outcome.recipe.command}")
    announced = sum(1 for o in outcomes if o.status == "nothing" and o.recipe.announced_empty)
    print(f"citecheck recipes: {len(outcomes)} recipes, {tally['found'] + tally['nothing']} ran "
          f"({tally['found']} find something, {announced} find nothing as their sentence says), "
          f"{tally['not runnable']} not runnable, {tally['failed']} failed, "
          f"{len(stale) - tally['failed']} find nothing unannounced")
    return EXIT_STALE if stale else EXIT_OK
