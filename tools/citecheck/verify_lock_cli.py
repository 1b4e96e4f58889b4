"""`citecheck verify-lock --base REV`: resolve online every lock entry a change adds or alters.

`citecheck --offline` trusts the lock: it ties each entry to its claim's cite, but cannot tell whether
the blob, lines and kind written there are what the repository holds. A pull request that edits the
lock by hand would pass it. This command compares the lock on disk with the lock at REV (the pull
request's base) and resolves each entry that is new or different against the engine's repository:
the blob at the entry's commit and file must be the one named, and the resolver must find the symbol
or phrase at the entry's lines with its kind; a count must compute to its value. No cache is used.
Entries identical to the base's were verified when they landed and are not read again.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from enginekb.load import CLAIMS_DIR, find_root, load_catalog
from enginekb.model import Engine
from enginekb.problems import CatalogError

from .counts import compute_count
from .errors import CheckFailure, UnknownEngine
from .gitdir import FULL_SHA
from .gitstore import GitStore
from .lock import LOCK_NAME, Lock, LockError, count_key, entry_repository, parse_lock, read_lock
from .repos import RepositorySources, SourceUsageError, add_source_arguments, sources_from
from .report import annotation_path, terminal_safe, workflow_command
from .resolve import Resolver

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
PROGRAM = "citecheck verify-lock"


class BaseError(Exception):
    """The base revision cannot be read from the project's repository."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Resolve against the engines' repositories every lock entry that is new or changed since "
                    "REV, so that a hand-edited or forged entry is caught. Never writes the lock.",
    )
    parser.add_argument("--root", type=Path, help="project root (default: found from the working directory)")
    parser.add_argument("--base", required=True, metavar="REV",
                        help="the revision of this project to compare with (a pull request's base)")
    add_source_arguments(parser)
    parser.add_argument("--format", choices=("text", "github"), default="text")
    return parser


@dataclass(frozen=True)
class Finding:
    section: str  # "cites" or "counts"
    entry: dict
    reason: str  # empty when verified

    def describe(self) -> str:
        target = self.entry.get("symbol") or self.entry.get("phrase") if self.section == "cites" else None
        what = f"{self.entry.get('file')} {target!r}" if self.section == "cites" else f"count {self.entry.get('query')}"
        return f"{entry_repository(self.entry)} {str(self.entry.get('commit'))[:12]} {what}"


def base_lock(root: Path, revision: str) -> Lock:
    """The lock as committed at `revision` of the project's repository (empty if it had none)."""
    if revision.startswith("-") or not revision.isprintable():
        raise BaseError(f"{revision!r} is not a revision name")
    commit = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    if commit.returncode != 0 or not FULL_SHA.fullmatch(commit.stdout.strip()):
        raise BaseError(f"{revision} names no commit in {root}")
    sha = commit.stdout.strip()
    spec = f"{sha}:./{CLAIMS_DIR}/{LOCK_NAME}"
    if _git(root, "cat-file", "-e", spec).returncode != 0:
        return Lock()  # the base had no lock: every entry is new
    blob = subprocess.run(["git", "-C", str(root), "cat-file", "blob", spec], capture_output=True, timeout=120)
    if blob.returncode != 0:
        raise BaseError(f"{spec}: {blob.stderr.decode('utf-8', 'replace').strip()}")
    try:
        return parse_lock(blob.stdout, f"{revision}:{CLAIMS_DIR}/{LOCK_NAME}")
    except LockError:
        return Lock()  # a base lock that does not read vouches for nothing: every entry is verified


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BaseError(f"git cannot read {root} ({type(error).__name__})") from None


def changed_entries(base: Lock, current: Lock) -> list[tuple[str, tuple, dict]]:
    """(section, key, entry) for every entry of `current` that `base` does not hold exactly."""
    return ([("cites", k, e) for k, e in sorted(current.cites.items()) if base.cites.get(k) != e]
            + [("counts", k, e) for k, e in sorted(current.counts.items()) if base.counts.get(k) != e])


class Verifier:
    """Resolves entries afresh, one repository per engine opened when first needed."""

    def __init__(self, engines: dict[str, Engine], sources: RepositorySources, queries: set[tuple] = frozenset()):
        self.engines, self.sources = engines, sources
        self.queries = queries  # (engine, commit, query) of the claims' counts: the only queries run
        self.stores: dict[str, GitStore | CheckFailure] = {}
        self.resolver = Resolver()

    def store(self, engine_id: str, commits: set[str]) -> GitStore:
        if engine_id not in self.stores:
            if engine_id not in self.engines:
                self.stores[engine_id] = UnknownEngine(f"{engine_id} is not an engine of engines.yaml")
            else:
                try:
                    self.stores[engine_id] = self.sources.open(self.engines[engine_id], commits)
                except CheckFailure as error:
                    self.stores[engine_id] = error
        found = self.stores[engine_id]
        if isinstance(found, CheckFailure):
            raise found
        return found

    def verify(self, section: str, key: tuple, entry: dict, commits: set[str]) -> str:
        """Why `entry` (under `key` in the lock) is not what its repository holds; empty when it is."""
        try:
            if section == "counts" and key not in self.queries:
                # A query is run only as a claim states it: the lock's copy could be any pattern.
                return "no claim counts with this query at this commit"
            store = self.store(entry_repository(entry), commits)
            if section == "counts":
                value = compute_count(store, entry["commit"], entry["query"])
                return "" if value == entry["value"] else f"the lock says {entry['value']}, the commit gives {value}"
            blob = store.read(entry["commit"], entry["file"])
            if blob.sha != entry["blob"]:
                return f"the lock names blob {entry['blob']}, the commit holds {blob.sha}"
            if "symbol" in entry:
                found = self.resolver.resolve_symbol(blob, entry["symbol"], entry.get("contains"))
            else:
                found = self.resolver.resolve_phrase(blob, entry["phrase"])
        except CheckFailure as error:
            return f"{error.kind}: {error.reason}"
        except (KeyError, TypeError, ValueError, re.error) as error:  # an entry citecheck would never have written
            return f"malformed entry ({type(error).__name__}: {error})"
        lines = list(found.lines)
        if (lines, found.kind) != (entry["lines"], entry["kind"]):
            return (f"the lock says lines {entry['lines'][0]}-{entry['lines'][1]} ({entry['kind']}), "
                    f"the resolver finds {lines[0]}-{lines[1]} ({found.kind})")
        return ""

    def close(self) -> None:
        for store in self.stores.values():
            if isinstance(store, GitStore):
                store.close()


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        root = args.root.resolve() if args.root else find_root()
        catalog = load_catalog(root)
        sources = sources_from(args)
        sources.blobs = False  # a few entries to read: --fetch takes their blobs only
        lock_path = root / CLAIMS_DIR / LOCK_NAME
        current = read_lock(lock_path)
        base = base_lock(root, args.base)
    except CatalogError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    except (SourceUsageError, LockError, BaseError) as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return EXIT_USAGE
    todo = changed_entries(base, current)
    commits: dict[str, set[str]] = {}
    for _, _, entry in todo:
        commits.setdefault(entry_repository(entry), set()).add(entry["commit"])
    queries = {count_key(claim.engine, catalog.engines[claim.engine].pin, claim.count)
               for claim in catalog.claims if claim.count and claim.engine in catalog.engines}
    verifier = Verifier(catalog.engines, sources, queries)
    try:
        findings = [Finding(section, entry, verifier.verify(section, key, entry, commits[entry_repository(entry)]))
                    for section, key, entry in todo]
    finally:
        verifier.close()
    failed = [f for f in findings if f.reason]
    shown = annotation_path(lock_path, root)
    for finding in failed:
        message = terminal_safe(f"{finding.describe()}: {finding.reason}")
        print(workflow_command("error", message, file=shown, title=PROGRAM) if args.format == "github"
              else f"{shown}: {finding.section}: {message}")
    print(f"{PROGRAM}: {len(todo)} lock entries new or changed since {args.base}: "
          f"{len(todo) - len(failed)} verified, {len(failed)} failed")
    return EXIT_FAILED if failed else EXIT_OK
