"""How long the writer's and the maintainer's commands take, beside their budgets and floors.

    .venv/bin/python benchmarks/citecheck_bench.py --mirrors ~/mirrors [--baseline REV] [--repeat 3] [--scale 10] [--compile]

Prints, in one run on one machine, each command beside its budget (issue 31): citecheck against the
repositories cold (empty citecheck cache) and warm (nothing changed, the lock refreshed as an
everyday run does), `--offline`, `claims lint` warm and without a record store, `claims grep` and
`claims show`; then the same at `--scale` times the claims (a synthetic copy of the records in a
temporary folder), with the ratio to 1x (linear is at most the scale); and how long citecheck takes
to report every pin moved to a commit the mirrors lack (the failed-commit lookup). The floors: a naive
loop of one `git grep -w` per cite, reading each distinct cited blob once, and that plus one
tree-sitter parse per C/C++/Python blob; cold is measured against the last. Each figure is the best
of `--repeat` runs, wall clock, with the processor time (user and system, the command's git
processes included) beside it: on a busy machine the wall clock waits for a core, and the load
average printed before and after says how busy it was; growth with the claims is judged on processor
time (linear: at most 1.1 times the scale). With `--baseline REV` the commands also run
from a git worktree of this project at REV, so that before and after share a run. A benchmark, not a
test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
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


def best(repeat: int, command: list[str], env: dict | None = None, cwd: Path = ROOT, before=None,
         codes: tuple[int, ...] = (0, 1)) -> tuple[float, float]:
    """(wall seconds, processor seconds) of the fastest of `repeat` runs of `command`."""
    runs = []
    for _ in range(repeat):
        if before:
            before()
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)  # the child's usage includes the git processes it waited for
        runs.append((time.perf_counter() - started, usage.ru_utime + usage.ru_stime))
        code = os.waitstatus_to_exitcode(status)
        if code not in codes:
            raise SystemExit(f"{' '.join(command)} failed ({code}):\n{stderr.decode(errors='replace')[-2000:]}")
    return min(runs)


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


def clocks() -> tuple[float, float]:
    """Wall clock, and processor time of this process and the children it has waited for."""
    times = os.times()
    return time.perf_counter(), times.user + times.system + times.children_user + times.children_system


def since(start: tuple[float, float]) -> tuple[float, float]:
    now = clocks()
    return now[0] - start[0], now[1] - start[1]


def naive_loop(catalog, mirrors: Path) -> tuple[float, float]:
    started = clocks()
    for engine, cites in cites_by_engine(catalog).items():
        for cite in cites:
            word = (cite.symbol or cite.phrase).replace(".", "::").split("::")[-1]
            subprocess.run(["git", "-C", str(mirrors / engine), "grep", "-q", "-w", "-F", "-e", word, cite.commit,
                            "--", cite.file], capture_output=True)
    return since(started)


def read_floor(catalog, mirrors: Path, parse: bool) -> tuple[float, float]:
    started = clocks()
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
    return since(started)


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
            text = without_see(text)
            (into / "claims" / engine / f"copy{copy}-{path.name}").write_text(text, encoding="utf-8")
            total += sum(1 for claim in catalog.claims if claim.path == path)
    return total


def without_see(text: str) -> str:
    """A claims file's text without its `see:` fields, the flow form (`see: [a, b]`) and the block form
    (`see:` and the items below it, at its indentation or deeper) alike."""
    kept, dropping = [], None  # the indentation of the `see:` being dropped
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if dropping is not None and line.strip() and (indent > dropping or line.lstrip().startswith("- ")
                                                        and indent == dropping):
            continue
        dropping = None
        field = re.match(r"^(\s*)see:", line)  # a key of a claim, never its first (that is the id)
        if field:
            dropping = len(field.group(1)) if line.rstrip().endswith("see:") else None
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def worktree(revision: str, into: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), revision], check=True)
    return into


# Budgets of issue 31, in seconds of wall clock on a quiet machine; cold is held to the floor.
BUDGETS = {"citecheck warm": 0.5, "claims lint": 0.6, "claims grep": 0.3}
COLD_TO_FLOOR = 1.0
MISSING_COMMIT = hashlib.sha1(b"a commit no repository holds").hexdigest()


def measure(tools_dir: Path, project: Path, mirrors: Path, engines: list[str], scratch: Path, repeat: int,
            shown: str, bytecode: bool = False) -> dict[str, tuple[float, float]]:
    """Each command from `tools_dir` on the records of `project`, with caches of its own under `scratch`."""
    if bytecode:
        subprocess.run([str(PYTHON), "-m", "compileall", "-q", str(tools_dir)], check=True, stdout=subprocess.DEVNULL)
    cache, store = scratch / "citecheck-cache", scratch / "record-store"
    env = {**os.environ, "CITECHECK_CACHE": str(cache), "ENGINEKB_CACHE": str(store)}
    root = ["--root", str(project)]
    online = root + ["--mirrors", str(mirrors)] + [f"--engine={e}" for e in engines]
    citecheck, claims = tool("citecheck", tools_dir), tool("claims", tools_dir)
    empty = lambda folder: lambda: shutil.rmtree(folder, ignore_errors=True)  # noqa: E731
    return {
        "citecheck cold": best(repeat, citecheck + online, env, before=empty(cache)),
        "citecheck warm": best(repeat, citecheck + online, env),
        # The failed-commit lookup: every cite's commit absent from its mirror, so each lookup fails.
        "citecheck, every pin missing": best(repeat, citecheck + online + [f"--pin={e}={MISSING_COMMIT}" for e in engines],
                                             env, codes=(1,)),
        "citecheck --offline": best(repeat, citecheck + root + ["--offline"], env),
        "claims lint, no record store": best(repeat, claims + root + ["lint"], env, before=empty(store)),
        "claims lint": best(repeat, claims + root + ["lint"], env),
        "claims grep": best(repeat, claims + root + ["grep", "--label", "verified", "kv"], env),
        "claims show": best(repeat, claims + root + ["show", shown], env),
    }


def seconds(pair: tuple[float, float] | None) -> str:
    return f"{pair[0]:>8.2f}s ({pair[1]:.2f})" if pair else f"{'-':>17}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="one bare clone per engine id")
    parser.add_argument("--baseline", help="a project revision to measure beside the working tree")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=int, default=10, help="the larger run has this many times the claims")
    parser.add_argument("--compile", action="store_true",
                        help="write each measured tree's bytecode first, as an installed package has it "
                             "(with PYTHONDONTWRITEBYTECODE set, every command otherwise compiles the tools)")
    args = parser.parse_args()
    catalog = load_catalog(ROOT)
    engines = sorted(catalog.engines)  # shared facts are checked with the engines their cites name
    cite_total = sum(len(c.cites) for c in catalog.claims)
    shown = next(c.id for c in catalog.claims if c.label == "verified" and c.cites)
    print(f"{len(catalog.claims)} claims, {cite_total} cites, engines: {', '.join(engines)}; {os.cpu_count()} cores; "
          f"best of {args.repeat}; load average {os.getloadavg()[0]:.1f} before; tools' bytecode "
          + ("written first (--compile)" if args.compile else "not written (PYTHONDONTWRITEBYTECODE): compiled by "
             "every command" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "as Python keeps it"))
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        # Every tree reads the same snapshot of the records (the lock included), in a folder of its own.
        snapshot = scratch / "records"
        shutil.copytree(ROOT / "claims", snapshot / "claims", ignore=shutil.ignore_patterns(".*"))
        scaled = scratch / "scaled"
        scaled_total = scaled_project(len(catalog.claims) * args.scale, scaled)
        now = measure(ROOT / "tools", snapshot, args.mirrors, engines, scratch / "now", args.repeat, shown, args.compile)
        baseline = None
        if args.baseline:
            tree = worktree(args.baseline, scratch / "baseline")
            baseline = measure(tree / "tools", snapshot, args.mirrors, engines, scratch / "then", args.repeat, shown,
                               args.compile)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])
        large = measure(ROOT / "tools", scaled, args.mirrors, engines, scratch / "large", args.repeat, shown, args.compile)
        site = best(args.repeat, [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "-q", "-d",
                                  str(scratch / "site")], {**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        floors = {
            "naive loop: one git grep -w per cite": naive_loop(catalog, args.mirrors),
            "read each cited blob once (cat-file --batch)": read_floor(catalog, args.mirrors, parse=False),
            "... plus one tree-sitter parse per C/C++/Python blob": read_floor(catalog, args.mirrors, parse=True),
        }
    floor = floors["... plus one tree-sitter parse per C/C++/Python blob"]
    width = max(map(len, list(now) + list(floors))) + 2
    print(f"\nseconds: wall (processor){'':<{width - 25}}{'now':>17}" + (f"{'baseline':>17}" if baseline else "")
          + f"{'budget':>10}  now / budget: wall (processor)")
    for name, value in now.items():
        budget = BUDGETS.get(name) or (COLD_TO_FLOOR * floor[0] if name == "citecheck cold" else None)
        cpu_budget = BUDGETS.get(name) or (COLD_TO_FLOOR * floor[1] if name == "citecheck cold" else None)
        ratio = f"{value[0] / budget:>7.2f}x ({value[1] / cpu_budget:.2f}x)" if budget else ""
        print(f"{name:<{width}}{seconds(value)}" + (seconds(baseline.get(name)) if baseline else "")
              + (f"{budget:>9.2f}s{ratio}" if budget else ""))
    print(f"{'mkdocs build --strict':<{width}}{seconds(site)}")
    print(f"\nat {args.scale}x: {scaled_total} claims{'':<{width - 7 - len(str(args.scale) + str(scaled_total))}}"
          f"{'':>17}  / 1x: wall (processor)")
    for name, value in large.items():
        growth, cpu_growth = value[0] / now[name][0], value[1] / now[name][1]
        verdict = "linear" if cpu_growth <= args.scale * 1.1 else "GROWS FASTER THAN THE CLAIMS"
        print(f"{name:<{width}}{seconds(value)}{growth:>9.1f}x ({cpu_growth:.1f}x)  {verdict}")
    print()
    for name, value in floors.items():
        print(f"{name:<{width}}{seconds(value)}")
    cold, warm = now["citecheck cold"], now["citecheck warm"]
    naive = floors["naive loop: one git grep -w per cite"]
    print(f"\ncold / naive loop {cold[0] / naive[0]:.2f} ({cold[1] / naive[1]:.2f}); cold / read-and-parse floor "
          f"{cold[0] / floor[0]:.2f} ({cold[1] / floor[1]:.2f}), at most {COLD_TO_FLOOR:.2f}; warm {warm[0]:.2f}s "
          f"({warm[1]:.2f}), budget {BUDGETS['citecheck warm']} s; load average {os.getloadavg()[0]:.1f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
