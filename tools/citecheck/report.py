"""citecheck's reports (text, json, github, junit) and the pieces `claims lint` shares with them.

- text: one line per failure, `path:line: claim-id: kind: reason`, then a summary line per engine.
- json: every result and a `summary` (per engine and `total`), plus a shields.io-style `badge`;
  its schema is `report.schema.json` beside this file.
- github: one workflow command per failure, `::error file=…,line=…,title=…::message`, so that a
  GitHub Actions run shows it on the claim's line, then the text summary.
- junit: a JUnit XML report, one testsuite per engine and one testcase per cite or count.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

from enginekb.problems import display_path

FORMATS = ("text", "json", "github", "junit")
ENGINE_WIDE = ("repository unavailable", "commit not in repository")
SCHEMA = Path(__file__).with_name("report.schema.json")
EXIT_INTERNAL = 3
TRACEBACK_VARIABLE = "ENGINEKB_TRACEBACK"


# ---- shared by citecheck and claims lint -------------------------------------------------------

# What a terminal or a log viewer would act on or hide: controls (line breaks too: one failure, one line),
# invisible and bidirectional format characters. Upstream file names and code reach the messages.
_UNSAFE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u00ad\u061c\u180e\u2028\u2029\u200b-\u200f"
                     r"\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]")


def terminal_safe(text: str) -> str:
    """`text` with each such character written as its Python escape (\\x1b, \\n, \\u202e)."""
    return _UNSAFE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as the GitHub Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: the message escapes plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, **properties: str | int | None) -> str:
    """`::command key=value,...::message` with every part escaped; None-valued properties are left out."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items() if value is not None)
    return f"::{command}{' ' + props if props else ''}::{escape_data(message)}"


def annotation_path(path: Path, root: Path) -> str:
    """The path GitHub attaches an annotation to: relative to $GITHUB_WORKSPACE when the file lies
    below it, else relative to the project root (which is the repository root in the usual layout)."""
    resolved = Path(path).resolve()
    for base in (os.environ.get("GITHUB_WORKSPACE"), root):
        if base:
            try:
                return resolved.relative_to(Path(base).resolve()).as_posix()
            except ValueError:
                continue
    return str(path)


# Characters XML 1.0 cannot carry at all (ElementTree would write them and break the document).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def junit_document(name: str, suites: list[tuple[str, dict[str, str], list[dict]]], seconds: float | None) -> str:
    import xml.etree.ElementTree as ET  # only a JUnit report pays for it
    """A JUnit XML document. `suites` holds (name, properties, cases); a case is a dict with
    classname, name, file, line (optional) and, when it failed, failure_type, failure_message, failure_text."""
    def element(tag: str, parent: ET.Element | None = None, **attributes) -> ET.Element:
        attrs = {key: xml_safe(str(value)) for key, value in attributes.items() if value is not None}
        return ET.Element(tag, attrs) if parent is None else ET.SubElement(parent, tag, attrs)

    all_cases = [case for _, _, cases in suites for case in cases]
    top = element("testsuites", name=name, tests=len(all_cases),
                  failures=sum(1 for c in all_cases if "failure_type" in c), errors=0,
                  time=None if seconds is None else f"{seconds:.3f}")
    for suite_name, properties, cases in suites:
        suite = element("testsuite", top, name=suite_name, tests=len(cases),
                        failures=sum(1 for c in cases if "failure_type" in c), errors=0, skipped=0)
        if properties:
            holder = element("properties", suite)
            for key, value in properties.items():
                element("property", holder, name=key, value=value)
        for case in cases:
            node = element("testcase", suite, classname=case["classname"], name=case["name"],
                           file=case.get("file"), line=case.get("line") or None)
            if "failure_type" in case:
                failure = element("failure", node, type=case["failure_type"], message=case["failure_message"])
                failure.text = xml_safe(case["failure_text"])
    ET.indent(top, "  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(top, encoding="unicode")


def guarded(program: str, run, args) -> int:
    """`run(args)`, with anything unforeseen turned into a message and exit 3 instead of a traceback."""
    try:
        return run(args)
    except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug in the tool, not the user's mistake
        return internal_error(program, error)


def internal_error(program: str, error: BaseException) -> int:
    """What a user sees when the tool itself breaks: no traceback unless asked for, exit 3."""
    print(f"{program}: internal error: {type(error).__name__}: {error}", file=sys.stderr)
    if os.environ.get(TRACEBACK_VARIABLE):
        import traceback

        traceback.print_exception(error, file=sys.stderr)
    print(f"{program}: this is a bug in {program}, not a problem in the claims. Please report it to the "
          f"enginekb maintainers with the command you ran and this message (run again with "
          f"{TRACEBACK_VARIABLE}=1 to include the traceback).", file=sys.stderr)
    return EXIT_INTERNAL


def github_problems(problems, root: Path, program: str, level: str = "error") -> str:
    """Record problems (`enginekb.problems.Problem`) as workflow commands (`level` error or warning), one per problem."""
    return "\n".join(
        workflow_command(level, f"{p.claim}: {p.message}", file=annotation_path(p.path, root),
                         line=p.line or None, title=program)
        for p in problems
    )


# ---- citecheck ---------------------------------------------------------------------------------

def summary(results, engines: list[str], catalog, claims_by_engine: Counter) -> dict:
    out = {}
    for engine in engines:
        mine = [r for r in results if r.engine == engine]
        failed = sum(1 for r in mine if not r.ok)
        out[engine] = {
            "commit": catalog.engines[engine].pin,
            "claims": claims_by_engine[engine],
            "cites": sum(1 for r in mine if r.kind != "count" and r.claim != "-"),
            "counts": sum(1 for r in mine if r.kind == "count" and r.claim != "-"),
            "ok": sum(1 for r in mine if r.ok),
            "failed": failed,
            "status": "failed" if failed else "passed",
            "kinds": dict(sorted(Counter(r.kind for r in mine if r.ok).items())),
        }
    return out


def _failure_lines(results) -> list[tuple[object, int]]:
    """The failures to show, each with how many more share its engine-wide reason (said once)."""
    failures = [r for r in results if not r.ok]
    repeated = Counter((r.engine, r.reason) for r in failures if r.failure in ENGINE_WIDE)
    said, shown = set(), []
    for r in failures:
        key = (r.engine, r.reason)
        if key in repeated:
            if key in said:
                continue
            said.add(key)
        shown.append((r, repeated.get(key, 1) - 1))
    return shown


def _more(more: int) -> str:
    return f" (and {more} more with the same reason)" if more else ""


def _summary_lines(results, engines, catalog, claims_by_engine, elapsed, offline) -> list[str]:
    lines = []
    for engine, s in summary(results, engines, catalog, claims_by_engine).items():
        kinds = ", ".join(f"{n} {k}" for k, n in s["kinds"].items())
        lines.append(
            f"{engine} @ {s['commit'][:12]}: {s['claims']} claims, {s['cites']} cites, {s['counts']} counts: "
            f"{s['ok']} ok, {s['failed']} failed" + (f" ({kinds})" if kinds else "")
        )
    failed = sum(1 for r in results if not r.ok)
    mode = "offline, against the lock" if offline else "against the repositories"
    lines.append(f"citecheck {mode}: {'FAILED' if failed else 'passed'}, "
                 f"{len(results) - failed} ok, {failed} failed, {elapsed:.1f} s")
    return lines


def text_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
    lines = [f"{display_path(r.path)}:{r.line}: {r.claim}: {terminal_safe(r.reason)}{_more(more)}"
             for r, more in _failure_lines(results)]
    return "\n".join(lines + _summary_lines(results, engines, catalog, claims_by_engine, elapsed, offline))


def github_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
    lines = [
        workflow_command("error", f"{r.claim}: {terminal_safe(r.reason)}{_more(more)}", file=annotation_path(r.path, catalog.root),
                         line=r.line or None, title=f"citecheck: {r.failure or 'failure'}")
        for r, more in _failure_lines(results)
    ]
    return "\n".join(lines + _summary_lines(results, engines, catalog, claims_by_engine, elapsed, offline))


def _badge(ok: int, failed: int) -> dict:
    """A shields.io endpoint badge (https://shields.io/badges/endpoint-badge)."""
    message = f"{failed} failed" if failed else f"{ok} ok"
    return {"schemaVersion": 1, "label": "citecheck", "message": message, "color": "red" if failed else "brightgreen"}


def json_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
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
    per_engine = summary(results, engines, catalog, claims_by_engine)
    ok, failed = sum(r.ok for r in results), sum(not r.ok for r in results)
    per_engine["total"] = {
        "ok": ok, "failed": failed, "seconds": round(elapsed, 3), "offline": offline,
        "status": "failed" if failed else "passed",
        "claims": sum(s["claims"] for s in per_engine.values()),
        "cites": sum(s["cites"] for s in per_engine.values()),
        "counts": sum(s["counts"] for s in per_engine.values()),
        "engines_failed": sorted(e for e, s in per_engine.items() if s["failed"]),
    }
    return json.dumps({"results": rows, "summary": per_engine, "badge": _badge(ok, failed)}, indent=1)


def _case(r, catalog) -> dict:
    if r.claim == "-":
        name = f"stale lock entry {r.file} {r.symbol}".replace("  ", " ")
        classname = f"{r.engine}.lock"
    else:
        what = f"count {r.symbol}" if r.kind == "count" else f"cite {r.file} {r.symbol}"
        pin = catalog.engines[r.engine].pin
        name = what + (f" @ {r.commit[:12]}" if r.commit != pin else "")
        classname = r.claim
    case = {"classname": classname, "name": name, "file": annotation_path(r.path, catalog.root), "line": r.line}
    if not r.ok:
        case |= {"failure_type": r.failure or "failure", "failure_message": r.reason,
                 "failure_text": f"{case['file']}:{r.line}: {r.claim}: {r.reason}"}
    return case


def junit_report(results, engines, catalog, claims_by_engine, elapsed, offline) -> str:
    suites = [
        (engine, {"commit": catalog.engines[engine].pin, "mode": "offline" if offline else "repositories"},
         [_case(r, catalog) for r in results if r.engine == engine])
        for engine in engines
    ]
    return junit_document("citecheck", suites, elapsed)


REPORTS = {"text": text_report, "json": json_report, "github": github_report, "junit": junit_report}
