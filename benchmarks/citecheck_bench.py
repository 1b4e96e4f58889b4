"""How long the writer's and the maintainer's commands take, beside the floors they are measured against.

    .venv/bin/python benchmarks/citecheck_bench.py --mirrors ~/mirrors [--baseline REV] [--repeat 3]

Prints, in one run on one machine: citecheck online cold (empty cache) and warm (nothing changed),
and with every pin moved to a commit the mirrors lack (each lookup fails);
a naive shell-style loop of one `git grep -w` per cite; reading each distinct cited blob once; that
plus one tree-sitter parse per C/C++/Python blob; `claims lint` and `claims grep` at today's claims
and at 2,000; the strict site build. With `--baseline REV` the same commands also run from a git
worktree of this project at REV (say, the commit before a change), so before and after share a run.
Each figure is the best of `--repeat` runs. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from citecheck.resolve import parse_source  # noqa: E402
from enginekb.load import load_catalog  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"


def best(repeat: int, command: list[str], env: dict | None = None, cwd: Path = ROOT, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        started = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return min(times)


def tool(name: str, tools_dir: Path) -> list[str]:
    """Run a command's main() from a given source tree (today's, or the baseline worktree's)."""
    modules = {"citecheck": "citecheck.cli", "claims": "claimtool.cli"}
    code = f"import sys; sys.path.insert(0, {str(tools_dir)!r}); from {modules[name]} import main; sys.exit(main())"
    return [str(PYTHON), "-c", code]


def cites_by_engine(catalog) -> dict[str, list]:
    found: dict[str, list] = {}
    for claim in catalog.claims:
        for cite in claim.cites:
            found.setdefault(cite.repo or claim.engine, []).append(cite)  # a shared fact's cite names its repository
    return found


def naive_loop(catalog, mirrors: Path) -> float:
    started = time.perf_counter()
    for engine, cites in cites_by_engine(catalog).items():
        for cite in cites:
            word = (cite.symbol or cite.phrase).replace(".", "::").split("::")[-1]
            subprocess.run(["git", "-C", str(mirrors / engine), "grep", "-q", "-w", "-F", "-e", word, cite.commit,
                            "--", cite.file], capture_output=True)
    return time.perf_counter() - started


def read_floor(catalog, mirrors: Path, parse: bool) -> float:
    started = time.perf_counter()
    for engine, cites in cites_by_engine(catalog).items():
        wanted = sorted({f"{cite.commit}:{cite.file}" for cite in cites})
        batch = subprocess.Popen(["git", "-C", str(mirrors / engine), "cat-file", "--batch"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for name in wanted:
            batch.stdin.write(name.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            if len(header) < 3:
                continue
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)
            if parse:
                parse_source(name.split(":", 1)[1], data)
        batch.stdin.close()
        batch.wait()
    return time.perf_counter() - started


def scaled_project(target: int, into: Path) -> int:
    """A copy of claims/ with claims files repeated (ids made unique) until about `target` claims."""
    shutil.copytree(ROOT / "claims", into / "claims", ignore=shutil.ignore_patterns(".*"))
    catalog = load_catalog(ROOT)
    files = sorted({claim.path for claim in catalog.claims if not claim.report})
    total, copy = len(catalog.claims), 0
    while total < target:
        copy += 1
        for path in files:
            if total >= target:
                break
            text = path.read_text(encoding="utf-8")
            engine = path.relative_to(ROOT / "claims").parts[0]
            # Copies get distinct ids and no see: (their targets would not exist as copies).
            text = text.replace(f"id: {engine}/", f"id: {engine}/copy{copy}-")
            text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("see:"))
            (into / "claims" / engine / f"copy{copy}-{path.name}").write_text(text, encoding="utf-8")
            total += sum(1 for claim in catalog.claims if claim.path == path)
    return total


def worktree(revision: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), revision], check=True)
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="one bare clone per engine id")
    parser.add_argument("--baseline", help="a project revision to measure beside the working tree")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    catalog = load_catalog(ROOT)
    engines = sorted(catalog.engines)  # shared facts are checked with the engines their cites name
    cite_total = sum(len(c.cites) for c in catalog.claims)
    print(f"{len(catalog.claims)} claims, {cite_total} cites, engines: {', '.join(engines)}; "
          f"{os.cpu_count()} cores; best of {args.repeat}")
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        trees = {"now": ROOT / "tools"}
        if args.baseline:
            trees["baseline"] = worktree(args.baseline, scratch / "baseline") / "tools"
        cache = scratch / "cache"
        store = scratch / "store"
        env = {**os.environ, "CITECHECK_CACHE": str(cache), "ENGINEKB_CACHE": str(store), "NO_MKDOCS_2_WARNING": "1"}
        cold_store = lambda: shutil.rmtree(store, ignore_errors=True)  # noqa: E731
        # Both trees read the same snapshot of the records, verdict cells included (scenarios rest on
        # them; a baseline older than the cells cannot read today's records). The lock is copied too.
        snapshot = scratch / "records"
        shutil.copytree(ROOT / "claims", snapshot / "claims", ignore=shutil.ignore_patterns(".*"))
        root = ["--root", str(snapshot)]
        online = root + ["--mirrors", str(args.mirrors), "--no-write"] + [f"--engine={e}" for e in engines]
        scaled = scratch / "scaled"
        scaled_total = scaled_project(2000, scaled)
        for name, tools_dir in trees.items():
            row = rows.setdefault(name, {})
            row["citecheck cold"] = best(args.repeat, tool("citecheck", tools_dir) + online, env,
                                         before=lambda: shutil.rmtree(cache, ignore_errors=True))
            row["citecheck warm"] = best(args.repeat, tool("citecheck", tools_dir) + online, env)
            # Every cite's commit absent from its mirror: each lookup fails (once per SHA, not per cite).
            missing_pins = [f"--pin={e}={'1' * 40}" for e in engines]
            row["citecheck, every pin missing"] = best(args.repeat, tool("citecheck", tools_dir) + online + missing_pins, env)
            row["citecheck --offline"] = best(args.repeat, tool("citecheck", tools_dir) + root + ["--offline"], env)
            row["claims lint, no record store"] = best(args.repeat, tool("claims", tools_dir) + root + ["lint"], env,
                                                       before=cold_store)
            row["claims lint"] = best(args.repeat, tool("claims", tools_dir) + root + ["lint"], env)
            row["claims grep kv"] = best(args.repeat, tool("claims", tools_dir) + root + ["grep", "kv cache"], env)
            row[f"claims lint at {scaled_total}"] = best(args.repeat, tool("claims", tools_dir) + ["--root", str(scaled), "lint"], env)
            row[f"claims grep at {scaled_total}"] = best(args.repeat, tool("claims", tools_dir) + ["--root", str(scaled), "grep", "kv cache"], env)
        site = scratch / "site"
        rows["now"]["mkdocs build --strict"] = best(
            args.repeat, [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "-q", "-d", str(site)], env)
        floors = {
            "naive loop: one git grep -w per cite": naive_loop(catalog, args.mirrors),
            "read each cited blob once (cat-file --batch)": read_floor(catalog, args.mirrors, parse=False),
            "... plus one tree-sitter parse per C/C++/Python blob": read_floor(catalog, args.mirrors, parse=True),
        }
        if args.baseline:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(scratch / "baseline")])
    width = max(map(len, list(rows["now"]) + list(floors))) + 2
    print(f"\n{'measure':<{width}}" + "".join(f"{name:>12}" for name in rows) + ("       ratio" if args.baseline else ""))
    for measure in rows["now"]:
        values = [rows[name].get(measure) for name in rows]
        line = f"{measure:<{width}}" + "".join(f"{v:>11.2f}s" if v is not None else f"{'-':>12}" for v in values)
        if args.baseline and values[1]:
            line += f"{values[0] / values[1]:>11.2f}x"
        print(line)
    print()
    for measure, value in floors.items():
        print(f"{measure:<{width}}{value:>11.2f}s")
    cold, warm = rows["now"]["citecheck cold"], rows["now"]["citecheck warm"]
    naive, floor = floors["naive loop: one git grep -w per cite"], floors["... plus one tree-sitter parse per C/C++/Python blob"]
    print(f"\ncold / naive loop {cold / naive:.2f}; cold / read-and-parse floor {cold / floor:.2f}; "
          f"warm {warm:.2f}s (target 0.5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
