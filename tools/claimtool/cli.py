"""The `claims` command."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from citecheck.report import guarded
from enginekb.load import CLAIMS_DIR, find_root, load_catalog
from enginekb.model import CONTEXT_OWNER, LABELS
from enginekb.problems import CatalogError

# Each command imports the modules only it needs: `claims grep` pays for neither lint's reports nor
# the lock, the regrading form or the renderer behind `show`.
LINT_FORMATS = ("text", "github", "junit")  # what claimtool.lint formats


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="claims", description="Search and summarise the claim records.")
    parser.add_argument("--root", help="project root (default: found from the working directory)")
    commands = parser.add_subparsers(dest="command", required=True)
    search = commands.add_parser("grep", help="list claims: path:line: [Label] id: text")
    search.add_argument("--label", choices=LABELS)
    search.add_argument("--engine")
    search.add_argument("--dimension", help="a dimension key, or a layer key such as device")
    search.add_argument("--format", choices=("text", "json"), default="text")
    search.add_argument("pattern", nargs="?", help="case-insensitive regex over id, text and cites")
    summary = commands.add_parser("stats", help="claims by engine and label; dimensions still lacking")
    summary.add_argument("--format", choices=("text", "json"), default="text")
    show_one = commands.add_parser("show", help="claims in full, with cited lines and permalinks")
    show_one.add_argument("ids", nargs="+", metavar="ID")
    advise = commands.add_parser("review", help="Verified claims worth a second look (absolute words, absences)")
    advise.add_argument("--engine")
    blind = commands.add_parser("regrade", help="a blind regrading form without the verdicts, or --compare a "
                                                "filled one with the cells (agreement, Cohen's kappa)")
    blind.add_argument("row", nargs="?", help="a row key or a layer key (default: every graded row)")
    blind.add_argument("--compare", metavar="FILE", help="a filled form (YAML or JSON) to compare with the cells")
    blind.add_argument("--format", choices=("yaml", "text", "json"),
                       help="the form: yaml (default) or json; the comparison: text (default) or json")
    check = commands.add_parser("lint", help="load every record and report every problem")
    check.add_argument("--format", choices=LINT_FORMATS, default="text",
                       help="text (default), github (workflow-command annotations) or junit (XML)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Exit 0 on success, 1 when grep finds nothing, 2 on bad records or usage, 3 on an internal error."""
    args = build_parser().parse_args(argv)
    return guarded("claims", run, args)


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve() if args.root else None
    fmt = getattr(args, "format", "text") if args.command == "lint" else "text"
    try:
        root = root or find_root()
        # grep and show print claims only: the other records and the checks across them are lint's
        catalog = load_catalog(root, claims_only=args.command in ("grep", "show"))
    except CatalogError as error:
        from . import lint

        if fmt == "github":
            print(lint.format_github(error.problems, root or Path.cwd()))
        elif fmt == "junit":
            print(lint.format_junit(error.problems, root or Path.cwd()))
        else:
            print(lint.format_text(error.problems), file=sys.stderr)
        print(f"claims: {len(error.problems)} problem(s)", file=sys.stderr)
        return 2
    if args.command == "lint":
        from . import lint

        if fmt == "junit":
            print(lint.format_junit([], root))
        else:
            print(f"claims: {len(catalog.claims)} claims load cleanly")
        warnings = lint.ledger_warnings(catalog)
        if warnings and fmt == "github":
            print(lint.format_github_warnings(warnings, root))
        elif warnings:
            print(lint.format_warnings(warnings), file=sys.stderr)
        unread_scenarios = lint.scenario_reading_warnings(catalog)
        if unread_scenarios and fmt == "github":
            print(lint.format_github_warnings(unread_scenarios, root))
        elif unread_scenarios:
            print(lint.format_scenario_warnings(unread_scenarios), file=sys.stderr)
        return 0
    if args.command == "stats":
        from . import stats

        result = stats.compute_stats(catalog)
        print(stats.format_json(result) if args.format == "json" else stats.format_text(result))
        return 0
    if args.command == "show":
        missing = [claim_id for claim_id in args.ids if catalog.claim(claim_id) is None]
        if missing:
            print(f"claims: unknown claim {', '.join(missing)}", file=sys.stderr)
            return 2
        from citecheck.lock import LOCK_NAME, LockError, read_lock

        try:
            lock = read_lock(catalog.root / CLAIMS_DIR / LOCK_NAME)
        except LockError as error:
            print(f"claims: {error}", file=sys.stderr)
            return 2
        from . import show  # it renders queries with the site's code: only `show` pays for loading it

        print("\n\n".join(show.format_claim(catalog.claim(claim_id), catalog, lock) for claim_id in args.ids))
        return 0
    if args.command == "regrade":
        return run_regrade(args, catalog)
    if args.engine and args.engine not in catalog.engines and args.engine != CONTEXT_OWNER:
        print(f"claims: unknown engine {args.engine} (engines: {', '.join(catalog.engines)}, or {CONTEXT_OWNER} "
              "for the shared facts)", file=sys.stderr)
        return 2
    if args.command == "review":
        from . import review

        verified = sum(1 for c in catalog.claims if c.label == "verified" and (not args.engine or c.engine == args.engine))
        print(review.format_text(review.review(catalog, args.engine), verified, review.checklist(catalog, args.engine)))
        return 0
    try:
        re.compile(args.pattern or "")
    except re.error as error:
        print(f"claims grep: {args.pattern!r} is not a regular expression ({error})", file=sys.stderr)
        return 2
    from . import grep

    found = grep.grep_claims(catalog, args.label, args.engine, args.dimension, args.pattern)
    if found:
        print(grep.format_json(found) if args.format == "json" else grep.format_text(found))
    return 0 if found else 1


def run_regrade(args: argparse.Namespace, catalog) -> int:
    from . import lint, regrade

    if args.compare:
        if args.row or args.format == "yaml":
            print("claims regrade --compare FILE takes no row and --format text or json", file=sys.stderr)
            return 2
        try:
            grades = regrade.read_grades(Path(args.compare), catalog)
        except regrade.FormError as error:
            print(lint.format_text(error.problems), file=sys.stderr)
            return 2
        result = regrade.compare(catalog, grades)
        print(json.dumps(result, indent=1) if args.format == "json" else regrade.format_comparison(result))
        return 0
    if args.format == "text":
        print("claims regrade: the form is yaml or json", file=sys.stderr)
        return 2
    if args.row and not regrade.graded_rows(catalog, args.row):
        print(f"claims regrade: {args.row} is neither a graded row nor a layer", file=sys.stderr)
        return 2
    print(regrade.format_form(regrade.blank_form(catalog, args.row), args.format or "yaml"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
