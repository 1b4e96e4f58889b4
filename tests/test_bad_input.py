"""A corpus of bad input, one case per kind: each must give a clear error naming `path:line: id`, the
documented exit code (1 a claim or cite fails, 2 usage or configuration), no traceback, no hang, and
nothing written (the lock byte for byte as before, no temporary file left)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from citecheck.cli import main as citecheck
from citecheck.lock import read_lock
from claimtool.cli import main as claims
from enginekb.load import load_catalog
from kbsite.render import RenderError, render_page

GOOD = """\
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` opens a file."
  cites:
    - {file: src/net.cpp, symbol: Net::load, contains: open_file}
- id: demo/layers
  label: inferred
  dimension: kernel.operators
  text: Three layers.
  count: {value: 3, how: {file: CMakeLists.txt, lines: '^demo_add_layer\\('}}
"""
CLAIM = """\
- id: demo/x
  label: inferred
  dimension: kind.category
  text: A claim.
"""


@pytest.fixture
def project(demo_project, demo):
    """A passing project with a lock written by a real run."""
    root = demo_project({"demo/a.yaml": GOOD})
    assert citecheck(["--root", str(root), "--repo", f"demo={demo[0]}"]) == 0
    return root


@dataclass
class Case:
    setup: Callable[[Path], None]  # breaks the project
    command: str  # lint, offline, online, grep, render
    code: int
    message: str  # must appear in the output, usually `path:line: id: ...`


def write(relative: str, text: str | bytes) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        target = root / "claims" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode() if isinstance(text, str) else text)
    return setup


def claim(extra: str = "", **fields: str) -> Callable[[Path], None]:
    """A second claims file holding one claim with `fields` replaced and `extra` lines added."""
    lines = {"id": "demo/x", "label": "inferred", "dimension": "kind.category", "text": "A claim."} | fields
    text = "- " + "\n  ".join(f"{k}: {v}" for k, v in lines.items() if v is not None) + ("\n  " + extra if extra else "")
    return write("demo/b.yaml", text + "\n")


def edit(relative: str, old: str, new: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        target = root / "claims" / relative
        text = target.read_text()
        assert old in text, (old, relative)
        target.write_text(text.replace(old, new, 1))
    return setup


def engines_field(field: str, value) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / "claims" / "engines.yaml"
        data = yaml.safe_load(path.read_text())
        if value is None:
            del data["engines"][0][field]
        else:
            data["engines"][0][field] = value
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    return setup


def lock_edit(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        import json
        path = root / "claims" / "citecheck.lock"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return setup


def fifo(root: Path) -> None:
    os.mkfifo(root / "claims" / "demo" / "pipe.yaml")


def directory(root: Path) -> None:
    (root / "claims" / "demo" / "folder.yaml").mkdir()


def device_link(root: Path) -> None:
    (root / "claims" / "demo" / "zero.yaml").symlink_to("/dev/zero")


def outside_link(kind: str) -> Callable[[Path], None]:
    """A symbolic link under claims/demo/: to a records file or directory outside claims/, to claims/demo
    itself, or to nothing."""
    def setup(root: Path) -> None:
        outside = root / "elsewhere"
        (outside / "more").mkdir(parents=True)
        (outside / "c.yaml").write_text(CLAIM.replace("demo/x", "demo/outside"))
        (outside / "more" / "d.yaml").write_text(CLAIM.replace("demo/x", "demo/further"))
        demo = root / "claims" / "demo"
        {"file": lambda: (demo / "out.yaml").symlink_to(outside / "c.yaml"),
         "directory": lambda: (demo / "out").symlink_to(outside / "more"),
         "inner": lambda: (demo / "again").symlink_to(demo),
         "dangling": lambda: (demo / "gone.yaml").symlink_to(outside / "nothing.yaml")}[kind]()
    return setup


def remove_lock(root: Path) -> None:
    (root / "claims" / "citecheck.lock").unlink()


def lock_directory(root: Path) -> None:
    remove_lock(root)
    (root / "claims" / "citecheck.lock").mkdir()


def page(text: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / "page.md").write_text(text)
    return setup


B = "claims/demo/b.yaml"
A = "claims/demo/a.yaml"
E = "claims/engines.yaml"
LOCK = "claims/citecheck.lock"
NESTED = "a: " + "[" * 40 + "]" * 40 + "\n"
LAUGHS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9))

ROW = "layers:\n  - key: kind\n    title: K\n    dimensions:\n      - key: kind.category\n        title: C\n{rubric}"
RUBRIC = ("        rubric:\n          grades: Whether it is a library.\n          yes: A library.\n"
          "          partial: Both.\n          no: Absent.\n")

CASES = {
    # YAML that the records' subset refuses
    "recursive alias": Case(write("demo/b.yaml", "- &a [*a]\n"), "lint", 2, f"{B}:1: -: anchors and aliases"),
    "billion laughs": Case(write("demo/b.yaml", "l0: &l0 [x]\n" + LAUGHS), "lint", 2, f"{B}:1: -: anchors and aliases"),
    "plain alias": Case(write("demo/b.yaml", CLAIM + "  note: &n x\n  see: [*n]\n"), "lint", 2, "anchors and aliases"),
    "python name tag": Case(claim(note="!!python/name:os.system x"), "lint", 2, f"{B}:5: demo/x: unsupported YAML tag"),
    "python object tag": Case(claim(note="!!python/object/apply:os.system [ls]"), "lint", 2, "unsupported YAML tag"),
    "binary tag": Case(claim(note="!!binary aGk="), "lint", 2, f"{B}:5: demo/x: unsupported YAML tag tag:yaml.org,2002:binary"),
    "set tag": Case(claim(note="!!set {a}"), "lint", 2, "unsupported YAML tag tag:yaml.org,2002:set"),
    "custom tag": Case(claim(note="!secret x"), "lint", 2, "unsupported YAML tag !secret"),
    "merge key": Case(write("demo/b.yaml", CLAIM + "  <<: {note: x}\n"), "lint", 2, f"{B}:5: demo/x: merge keys"),
    "NUL character": Case(write("demo/b.yaml", CLAIM.replace("A claim", "A\0claim")), "lint", 2, f"{B}:4: demo/x: control character U+0000"),
    "BEL character": Case(write("demo/b.yaml", CLAIM.replace("A claim", "A\aclaim")), "lint", 2, f"{B}:4: demo/x: control character U+0007"),
    "C1 control character": Case(write("demo/b.yaml", CLAIM.replace("A claim", "A\x85claim")), "lint", 2, "control character U+0085"),
    "escaped NUL": Case(claim(text='"A\\0claim"'), "lint", 2, f"{B}:4: demo/x: control character U+0000 in a value"),
    "escaped ESC": Case(claim(text='"A\\e[2Jclaim"'), "lint", 2, f"{B}:4: demo/x: control character U+001B in a value"),
    "escaped CSI": Case(claim(text='"A\\x9bclaim"'), "lint", 2, f"{B}:4: demo/x: control character U+009B in a value"),
    "escaped carriage return": Case(claim(text='"A\\rclaim"'), "lint", 2, f"{B}:4: demo/x: control character U+000D in a value"),
    "escaped NUL in a symbol": Case(claim('cites: [{file: a.c, symbol: "f\\0"}]'), "lint", 2, f"{B}:5: demo/x: control character U+0000"),
    "escaped control in a key": Case(claim('"no\\x1bte": x'), "lint", 2, f"{B}:5: demo/x: control character U+001B"),
    "bidi override escaped": Case(claim(text='"A \\u202eclaim"'), "lint", 2, f"{B}:4: demo/x: invisible or bidirectional format character U+202E"),
    "bidi isolate written": Case(claim(text="A \u2066claim"), "lint", 2, f"{B}:4: demo/x: invisible or bidirectional format character U+2066"),
    "zero-width space in an id": Case(claim(id="demo/x\u200b"), "lint", 2, f"{B}:1: -: invisible or bidirectional format character U+200B"),
    "zero-width joiner in a scope": Case(claim(scope="'all\u200dbackends'"), "lint", 2, "invisible or bidirectional format character U+200D"),
    "YAML 1.1 octal": Case(claim("count: {value: 010, how: {glob: '*.c'}}"), "lint", 2, f"{B}:5: demo/x: bad int value '010' (a leading zero"),
    "YAML 1.1 underscores": Case(claim("count: {value: 1_000, how: {glob: '*.c'}}"), "lint", 2, f"{B}:5: demo/x: count.value: '1_000' is not of type 'integer'"),
    "YAML 1.1 sexagesimal": Case(claim("count: {value: 1:30, how: {glob: '*.c'}}"), "lint", 2, f"{B}:5: demo/x: count.value: '1:30' is not of type 'integer'"),
    "not a number": Case(claim("count: {value: .nan, how: {glob: '*.c'}}"), "lint", 2, f"{B}:5: demo/x: bad float value '.nan' (not a finite number)"),
    "infinity": Case(claim("count: {value: -.inf, how: {glob: '*.c'}}"), "lint", 2, "bad float value '-.inf' (not a finite number)"),
    "id ending in a newline": Case(claim(id='"demo/x\\n"'), "lint", 2, f"{B}:1: -: id:"),
    "dimension ending in a newline": Case(claim(dimension='"kind.category\\n"'), "lint", 2, f"{B}:3: demo/x: dimension:"),
    "pin ending in a newline": Case(engines_field("pin", "a" * 40 + "\n"), "lint", 2, "pin: a full 40-hex commit SHA"),
    "repository ending in a newline": Case(engines_field("repository", "https://example.invalid/demo\n"), "lint", 2, "repository: an https:// URL"),
    "not UTF-8": Case(write("demo/b.yaml", CLAIM.encode().replace(b"A claim", b"A \xe9 claim")), "lint", 2, f"{B}:4: demo/x: not UTF-8"),
    "deep flow nesting": Case(write("demo/b.yaml", "a: " + "[" * 20000 + "]" * 20000), "lint", 2, f"{B}:1: -: nested deeper"),
    "nesting over the bound": Case(write("demo/b.yaml", NESTED), "lint", 2, f"{B}:1: -: nested deeper than 32"),
    "duplicate key": Case(claim("text: Again."), "lint", 2, f"{B}:5: demo/x: duplicate key 'text'"),
    "complex key": Case(write("demo/b.yaml", "- ? [a]\n  : b\n"), "lint", 2, f"{B}:1: -: mapping keys must be"),
    "boolean key": Case(write("demo/b.yaml", CLAIM + "  true: x\n"), "lint", 2, f"{B}:5: demo/x: mapping keys must be"),
    "malformed YAML": Case(write("demo/b.yaml", CLAIM + "  note: 'unclosed\n"), "lint", 2, f"{B}:6: demo/x: malformed YAML"),
    "tab indentation": Case(write("demo/b.yaml", "- id: demo/x\n\tlabel: x\n"), "lint", 2, f"{B}:2: demo/x: malformed YAML"),
    "directory named .yaml": Case(directory, "lint", 2, "claims/demo/folder.yaml:0: -: is a directory"),
    "FIFO named .yaml": Case(fifo, "lint", 2, "claims/demo/pipe.yaml:0: -: is not a regular file"),
    "device behind a symlink": Case(device_link, "lint", 2, "claims/demo/zero.yaml:0: -: a symbolic link out of claims/"),
    "link to a file outside claims/": Case(outside_link("file"), "lint", 2, "claims/demo/out.yaml:0: -: a symbolic link out of claims/"),
    "link to a directory outside claims/": Case(outside_link("directory"), "lint", 2, "claims/demo/out:0: -: a symbolic link to a directory"),
    "link to a directory inside claims/": Case(outside_link("inner"), "lint", 2, "claims/demo/again:0: -: a symbolic link to a directory"),
    "link that leads nowhere": Case(outside_link("dangling"), "lint", 2, "claims/demo/gone.yaml:0: -: a symbolic link that leads nowhere"),
    "oversized file": Case(write("demo/b.yaml", CLAIM + "  note: " + "x" * (3 * 1024 * 1024) + "\n"), "lint", 2, f"{B}:0: -: is larger than"),
    ".yml file": Case(write("demo/b.yml", CLAIM), "lint", 2, "claims/demo/b.yml:0: -: records end in .yaml"),
    "YAML directly under claims/": Case(write("stray.yaml", CLAIM), "lint", 2, "claims/stray.yaml:0: -: claims live in claims/<engine-id>/"),
    "mapping instead of a list": Case(write("demo/b.yaml", "id: demo/x\n"), "lint", 2, f"{B}:1: -: a claims file is a YAML list"),
    "empty claims file": Case(write("demo/b.yaml", ""), "lint", 2, f"{B}:1: -: a claims file is a YAML list"),
    "unknown engine directory": Case(write("nosuch/b.yaml", CLAIM), "lint", 2, "claims/nosuch/b.yaml:1: -: unknown engine directory"),
    # One claim of the wrong shape
    "unknown label": Case(claim(label="sure"), "lint", 2, f"{B}:2: demo/x: label: 'sure' is not one of"),
    "missing text": Case(claim(text=None), "lint", 2, f"{B}:1: demo/x: 'text' is a required property"),
    "blank text": Case(claim(text="'   '"), "lint", 2, f"{B}:4: demo/x: text: text must not be blank"),
    "text not a string": Case(claim(text="3"), "lint", 2, f"{B}:4: demo/x: text: 3 is not of type 'string'"),
    "blank symbol": Case(claim("cites: [{file: a.c, symbol: ' '}]"), "lint", 2, f"{B}:5: demo/x: cites[0].symbol: a symbol names an identifier"),
    "punctuation symbol": Case(claim("cites: [{file: a.c, symbol: '{'}]"), "lint", 2, "cites[0].symbol: a symbol names an identifier"),
    "blank phrase": Case(claim("cites: [{file: a.md, phrase: '  '}]"), "lint", 2, "cites[0].phrase: a phrase holds at least one word"),
    "symbol and phrase": Case(claim("cites: [{file: a.c, symbol: f, phrase: g}]"), "lint", 2, "cites[0]: a cite gives exactly one of symbol or phrase"),
    "neither symbol nor phrase": Case(claim("cites: [{file: a.c}]"), "lint", 2, "cites[0]: a cite gives exactly one of symbol or phrase"),
    "absolute cite path": Case(claim("cites: [{file: /etc/passwd, symbol: root}]"), "lint", 2, f"{B}:5: demo/x: cite file '/etc/passwd' must be a relative path"),
    "cite path climbing out": Case(claim("cites: [{file: ../x.c, symbol: f}]"), "lint", 2, "cite file '../x.c' must be a relative path"),
    "contains with a phrase": Case(claim("cites: [{file: a.md, phrase: words, contains: x}]"), "lint", 2, "`contains` needs a symbol"),
    "verified without cites": Case(claim(label="verified"), "lint", 2, f"{B}:1: demo/x: a verified claim needs at least one cite"),
    "unknown dimension": Case(claim(dimension="kind.nothing"), "lint", 2, f"{B}:1: demo/x: unknown dimension 'kind.nothing'"),
    "id of another engine": Case(claim(id="other/x"), "lint", 2, f"{B}:1: other/x: id must start with 'demo/'"),
    "duplicate id": Case(claim(id="demo/net"), "lint", 2, f"{B}:1: demo/net: duplicate id"),
    "anchor collision": Case(write("demo/b.yaml", CLAIM.replace("demo/x", "demo/a.b") + CLAIM.replace("demo/x", "demo/a-b")), "lint", 2, "only in punctuation"),
    "see itself": Case(claim("see: [demo/x]"), "lint", 2, f"{B}:1: demo/x: see: a claim cannot refer to itself"),
    "see an unknown claim": Case(claim("see: [demo/nothing]"), "lint", 2, f"{B}:1: demo/x: see: unknown claim 'demo/nothing'"),
    "see into a broken file": Case(lambda root: (claim("see: [demo/net]")(root), edit("demo/a.yaml", "label: inferred", "label: [")(root)), "lint", 2, f"{A}:"),
    "invalid count regex": Case(claim("count: {value: 1, how: {file: a.c, lines: '(('}}"), "lint", 2, f"{B}:5: demo/x: count.how.lines: invalid regular expression"),
    "negative count": Case(claim("count: {value: -1, how: {glob: '*.c'}}"), "lint", 2, "count.value: -1 is less than the minimum"),
    "unknown count form": Case(claim("count: {value: 1, how: {grep: x}}"), "lint", 2, "`how` is one of"),
    "provenance on an inferred claim": Case(claim("measurement: {value: 3, unit: s}"), "lint", 2, "only a measured claim carries provenance and a measurement"),
    "measured without a source artifact": Case(claim("measurement: {value: 3, unit: s}\n  provenance: {measured_by: enginekb, machine: m, model: x, quantisation: q, threads: '1', engine_build: b, command: c, date: '2026-01-01'}", label="measured"), "lint", 2, "provenance: 'source' is a required property"),
    "measured by nobody known": Case(claim("measurement: {value: 3, unit: s}\n  provenance: {measured_by: someone, machine: m, model: x, quantisation: q, threads: '1', engine_build: b, command: c, date: '2026-01-01', source: {repository: 'https://x.invalid', commit: '" + "a" * 40 + "', path: p}}", label="measured"), "lint", 2, "provenance.measured_by: 'someone' is not one of"),
    "proposal without rests_on": Case(claim(label="proposal"), "lint", 2, f"{B}:1: demo/x: a proposal rests on at least one claim"),
    "proposal resting on nothing known": Case(claim("rests_on: [demo/nothing]", label="proposal"), "lint", 2, "rests_on: unknown claim 'demo/nothing'"),
    "measured without provenance": Case(claim(label="measured"), "lint", 2, f"{B}:1: demo/x: a measured claim needs provenance"),
    "misspelled field": Case(claim("dimensoin: kind.category"), "lint", 2, "'dimensoin' was unexpected"),
    "YAML 1.1 yes key": Case(claim("yes: x"), "lint", 2, "Additional properties are not allowed ('yes' was unexpected)"),
    "model with an unknown task": Case(claim("model: {family: F, task: singing, stages: [s], streaming: no}"), "lint", 2, "model.task: 'singing' is not one of"),
    # Verdict cells
    "cell on a missing claim": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: yes, answer: One request., rests_on: [demo/nothing]}\n"), "lint", 2, "claims/demo/cells.yaml:1: demo/cell/kind.unit-of-work: rests_on: unknown claim 'demo/nothing'"),
    "cell on another engine's claim": Case(lambda root: (write("other/a.yaml", CLAIM.replace("demo/x", "other/x"))(root), write("demo/cells.yaml", "- {dimension: kind.category, verdict: yes, answer: A library., rests_on: [other/x]}\n")(root)), "lint", 2, "demo/cell/kind.category: rests_on: other/x is a claim of other, not of demo"),
    "cell on a proposal": Case(lambda root: (claim("rests_on: [demo/net]", label="proposal")(root), write("demo/cells.yaml", "- {dimension: kind.category, verdict: yes, answer: A library., rests_on: [demo/net, demo/x]}\n")(root)), "lint", 2, "claims/demo/cells.yaml:1: demo/cell/kind.category: rests_on: demo/x is a Proposal, a design suggestion of ours: it never supports or labels a verdict"),
    "one verdict on every engine without a note": Case(lambda root: (write("other/a.yaml", CLAIM.replace("demo/x", "other/x"))(root), write("demo/cells.yaml", "- {dimension: kind.category, verdict: yes, answer: A library., rests_on: [demo/net]}\n")(root), write("other/cells.yaml", "- {dimension: kind.category, verdict: yes, answer: A library., rests_on: [other/x]}\n")(root)), "lint", 2, "kind.category: every engine's verdict is 'yes': re-aim the rubric at a distinction, or say in rubric.note"),
    "no without an absence claim": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: no, answer: None., rests_on: [demo/net]}\n"), "lint", 2, "a `no` rests on at least one claim that states the absence"),
    "cell without claims": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: yes, answer: One., rests_on: []}\n"), "lint", 2, "rests_on: a cell rests on at least one claim"),
    "cell answer too long": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: yes, answer: '" + "x" * 141 + "', rests_on: [demo/net]}\n"), "lint", 2, "answer: one line of at most 140 characters"),
    "cell verdict unknown": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: maybe, answer: Hm., rests_on: [demo/net]}\n"), "lint", 2, "verdict: 'maybe' is not one of"),
    "two cells for one row": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: yes, answer: A., rests_on: [demo/net]}\n- {dimension: kind.unit-of-work, verdict: partial, answer: B., rests_on: [demo/net]}\n"), "lint", 2, "claims/demo/cells.yaml:2: demo/cell/kind.unit-of-work: a second cell for this row"),
    "cell on an unknown row": Case(write("demo/cells.yaml", "- {dimension: kind.nothing, verdict: yes, answer: A., rests_on: [demo/net]}\n"), "lint", 2, "demo/cell/kind.nothing: unknown dimension 'kind.nothing'"),
    # engines.yaml and dimensions.yaml
    "javascript repository": Case(engines_field("repository", "javascript:alert(1)//"), "lint", 2, f"{E}:4: demo: repository: an https:// URL"),
    "http repository": Case(engines_field("repository", "http://example.invalid/demo"), "lint", 2, "repository: an https:// URL"),
    "repository with a quote": Case(engines_field("repository", 'https://example.invalid/"onmouseover=x'), "lint", 2, "repository: an https:// URL"),
    "pin_date in words": Case(engines_field("pin_date", "yesterday"), "lint", 2, "pin_date: a date YYYY-MM-DD, not 'yesterday'"),
    "pin_date out of range": Case(engines_field("pin_date", "2026-13-45"), "lint", 2, "pin_date: a date YYYY-MM-DD"),
    "engine field missing": Case(engines_field("licence", None), "lint", 2, f"{E}:2: demo: missing field licence"),
    "engine field unknown": Case(engines_field("homepage", "https://x.invalid"), "lint", 2, "demo: unknown field homepage"),
    "short pin": Case(engines_field("pin", "abc123"), "lint", 2, "pin: a full 40-hex commit SHA"),
    "engine field of the wrong type": Case(engines_field("name", 7), "lint", 2, "demo: name: expected a string"),
    "engines.yaml of the wrong shape": Case(write("engines.yaml", "- id: demo\n"), "lint", 2, f"{E}:1: -: expected a mapping with a list `engines`"),
    "dimensions.yaml a list": Case(write("dimensions.yaml", "- kind\n"), "lint", 2, "claims/dimensions.yaml:1: -: expected a mapping with a list `layers`\nclaims: 1 problem(s)"),
    "dimension without a title": Case(write("dimensions.yaml", "layers:\n  - key: kind\n    title: K\n    dimensions:\n      - key: kind.category\n"), "lint", 2, "claims/dimensions.yaml:2: -: a layer has key, title and dimensions"),
    "duplicate dimension": Case(write("dimensions.yaml", "layers:\n  - key: kind\n    title: K\n    dimensions:\n      - {key: kind.category, title: A}\n      - {key: kind.category, title: B}\n"), "lint", 2, "claims/dimensions.yaml:6: -: duplicate dimension kind.category"),
    # A row's rubric
    "row without a rubric": Case(write("dimensions.yaml", ROW.format(rubric="")), "lint", 2, "claims/dimensions.yaml:5: kind.category: no rubric: say what the row grades"),
    "rubric without no": Case(write("dimensions.yaml", ROW.format(rubric=RUBRIC.replace("          no: Absent.\n", ""))), "lint", 2, "claims/dimensions.yaml:7: kind.category: rubric: missing no: a graded row defines yes, partial and no"),
    "rubric without grades": Case(write("dimensions.yaml", ROW.format(rubric=RUBRIC.replace("          grades: Whether it is a library.\n", ""))), "lint", 2, "claims/dimensions.yaml:7: kind.category: rubric: grades: say what the row grades"),
    "rubric with a blank verdict": Case(write("dimensions.yaml", ROW.format(rubric=RUBRIC.replace("partial: Both.", "partial: ''"))), "lint", 2, "claims/dimensions.yaml:10: kind.category: rubric: partial: one non-blank line of text"),
    "rubric with an unknown verdict": Case(write("dimensions.yaml", ROW.format(rubric=RUBRIC + "          maybe: Perhaps.\n")), "lint", 2, "kind.category: rubric: unknown field maybe"),
    "rubric naming no rule": Case(write("dimensions.yaml", "rules:\n  - {id: evidence, title: E, text: What a verdict rests on.}\n" + ROW.format(rubric=RUBRIC + "          rules: [evidence, inheritence]\n")), "lint", 2, "claims/dimensions.yaml:14: kind.category: rubric: rules: 'inheritence' is no rule (rules: evidence)"),
    "rule without its text": Case(write("dimensions.yaml", "rules:\n  - {id: evidence, title: E}\n" + ROW.format(rubric=RUBRIC)), "lint", 2, "claims/dimensions.yaml:2: evidence: rules: a list of {id, title, text}"),
    "rubric with a blank note": Case(write("dimensions.yaml", ROW.format(rubric=RUBRIC + "          note: ''\n")), "lint", 2, "kind.category: rubric: note: one non-blank line of text"),
    "rubric a string": Case(write("dimensions.yaml", ROW.format(rubric="        rubric: yes\n")), "lint", 2, "claims/dimensions.yaml:7: kind.category: expected rubric: {grades"),
    "cell verdict outside its rubric": Case(write("demo/cells.yaml", "- {dimension: kind.unit-of-work, verdict: n/a, answer: One., rests_on: [demo/net]}\n"), "lint", 2, "claims/demo/cells.yaml:1: demo/cell/kind.unit-of-work: verdict 'n/a': the rubric of kind.unit-of-work defines only yes, partial, no (and unknown)"),
    "schema missing": Case(lambda root: (root / "claims" / "claim.schema.json").unlink(), "lint", 2, "claims/claim.schema.json:0: -: this JSON Schema of the records is missing"),
    "schema not JSON": Case(write("claim.schema.json", "{nope"), "lint", 2, "claims/claim.schema.json:1: -: not JSON"),
    "schema not an object": Case(write("claim.schema.json", "[]"), "lint", 2, "claims/claim.schema.json:0: -: not a usable JSON Schema"),
    "dimension key that is not a name": Case(write("dimensions.yaml", "layers:\n  - key: kind\n    title: K\n    dimensions:\n      - {key: 'kind.a onclick=alert(1)', title: A}\n"), "lint", 2, "claims/dimensions.yaml:5: -: dimension key 'kind.a onclick=alert(1)': <layer>.<name>"),
    "layer key that is not a name": Case(write("dimensions.yaml", "layers:\n  - key: 'Kind\\\"'\n    title: K\n    dimensions:\n      - {key: kind.category, title: A}\n"), "lint", 2, "claims/dimensions.yaml:2: -: layer key"),
    "unknown dimension under a cell": Case(lambda root: (claim(dimension="kind.nothing")(root), write("demo/cells.yaml", "- {dimension: kind.category, verdict: yes, answer: A., rests_on: [demo/x]}\n")(root)), "lint", 2, f"{B}:1: demo/x: unknown dimension 'kind.nothing'"),
    "measured source a javascript URL": Case(claim("measurement: {value: 3, unit: s}\n  provenance: {measured_by: enginekb, machine: m, model: x, quantisation: q, threads: '1', engine_build: b, command: c, date: '2026-01-01', source: {repository: 'https://x.invalid/\"onmouseover=alert(1)', commit: '" + "a" * 40 + "', path: p}}", label="measured"), "lint", 2, f"{B}:1: demo/x: provenance.source.repository: an https:// URL"),
    "measured source path climbing out": Case(claim("measurement: {value: 3, unit: s}\n  provenance: {measured_by: enginekb, machine: m, model: x, quantisation: q, threads: '1', engine_build: b, command: c, date: '2026-01-01', source: {repository: 'https://x.invalid/r', commit: '" + "a" * 40 + "', path: ../../etc}}", label="measured"), "lint", 2, "provenance.source.path must be a relative path"),
    # The lock
    "lock not JSON": Case(write("citecheck.lock", "{nope"), "offline", 2, "not a citecheck lock"),
    "lock entry without a blob": Case(lock_edit(lambda d: d["cites"][0].pop("blob")), "offline", 2, "cites[0]: missing or malformed blob"),
    "lock lines null": Case(lock_edit(lambda d: d["cites"][0].update(lines=None)), "offline", 2, "cites[0]: missing or malformed lines"),
    "lock lines one number": Case(lock_edit(lambda d: d["cites"][0].update(lines=[4])), "offline", 2, "lines (two line numbers"),
    "lock count without a value": Case(lock_edit(lambda d: d["counts"][0].pop("value")), "offline", 2, "counts[0]: missing or malformed value"),
    "lock lines zero": Case(lock_edit(lambda d: d["cites"][0].update(lines=[0, 0])), "offline", 2, "lines (two line numbers"),
    "lock kind unknown": Case(lock_edit(lambda d: d["cites"][0].update(kind="<b>")), "offline", 2, "cites[0]: missing or malformed kind"),
    "lock count negative": Case(lock_edit(lambda d: d["counts"][0].update(value=-1)), "offline", 2, "counts[0]: missing or malformed value"),
    "lock count a boolean": Case(lock_edit(lambda d: d["counts"][0].update(value=True)), "offline", 2, "counts[0]: missing or malformed value"),
    "lock of another version": Case(lock_edit(lambda d: d.update(version=7)), "offline", 2, "lock format version 7"),
    "lock a list": Case(write("citecheck.lock", "[]"), "offline", 2, "lock format version None"),
    "lock path a directory": Case(lock_directory, "offline", 2, "cannot be read"),
    "lock path a directory, checked online": Case(lock_directory, "online", 2, "citecheck.lock"),
    "lock deleted": Case(remove_lock, "offline", 1, "lock missing: there is no lock"),
    "stale lock entry": Case(edit("demo/a.yaml", "contains: open_file", "contains: path"), "offline", 1, f"{LOCK}:0: -: stale lock entry: no claim cites demo src/net.cpp 'Net::load'"),
    "count disagreeing with the lock": Case(edit("demo/a.yaml", "value: 3", "value: 4"), "offline", 1, f"{A}:11: demo/layers: count mismatch: the claim says 4, the lock recorded 3"),
    # Against the repository
    "glob matching nothing": Case(claim("count: {value: 0, how: {glob: 'nowhere/*.c'}}"), "online", 1, f"{B}:5: demo/x: file missing: nothing at"),
    "pin absent from the repository": Case(engines_field("pin", "e" * 40), "online", 1, "commit not in repository"),
    "repository that is not git": Case(lambda root: None, "online-nogit", 1, "repository unavailable"),
    "mirror with missing objects": Case(lambda root: None, "online-damaged", 1, "repository unavailable"),
    # Pages
    "directive with an unclosed quote": Case(page("<!-- kb:claims engine='demo -->\n"), "render", 2, "page.md:1: kb:claims: cannot read its arguments"),
    "directive with a capital": Case(page("x\n<!-- kb:Claims engine=demo -->\n"), "render", 2, "page.md:2: malformed directive"),
    "directive with a space": Case(page("<!-- kb: claims engine=demo -->\n"), "render", 2, "page.md:1: malformed directive"),
    "directive glued to a word": Case(page("<!-- kb:claimsengine=demo -->\n"), "render", 2, "not a directive name"),
    "unknown directive": Case(page("<!-- kb:nothing -->\n"), "render", 2, "page.md:1: kb:nothing: unknown directive"),
}


def run(root: Path, command: str, demo, tmp_path: Path, monkeypatch) -> int:
    base = ["--root", str(root)]
    if command == "lint":
        return claims(base + ["lint"])
    if command == "offline":
        return citecheck(base + ["--offline"])
    if command == "online":
        return citecheck(base + ["--repo", f"demo={demo[0]}"])
    if command == "online-nogit":
        (tmp_path / "empty").mkdir()
        return citecheck(base + ["--repo", f"demo={tmp_path / 'empty'}"])
    if command == "online-damaged":
        monkeypatch.setenv("CITECHECK_CACHE", str(tmp_path / "cold"))  # the fixture's run cached every answer
        damaged = tmp_path / "damaged"
        shutil.copytree(demo[0], damaged)
        listing = subprocess.run(["git", "-C", str(damaged), "cat-file", "--batch-all-objects", "--batch-check"],
                                 capture_output=True, text=True, check=True).stdout
        for sha, kind, _ in (line.split() for line in listing.splitlines()):
            if kind == "blob":  # commits and trees stay: the damage shows only when a file is read
                (damaged / ".git" / "objects" / sha[:2] / sha[2:]).unlink()
        return citecheck(base + ["--repo", f"demo={damaged}", "--no-write"])
    assert command == "render"
    try:
        catalog = load_catalog(root)
        render_page((root / "page.md").read_text(), "page.md", catalog, read_lock(root / "claims" / "citecheck.lock"))
    except RenderError as error:
        print(error)
        return 2
    return 0


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_a_clear_error(name, project, demo, tmp_path, capsys, monkeypatch):
    case = CASES[name]
    monkeypatch.chdir(project)  # messages name paths relative to the working directory
    case.setup(project)
    capsys.readouterr()  # the fixture's own passing run
    before = snapshot(project) if not (project / "claims" / "demo" / "pipe.yaml").exists() else None
    signal.alarm(20)  # a hang fails the test instead of the suite
    try:
        code = run(project, case.command, demo, tmp_path, monkeypatch)
    finally:
        signal.alarm(0)
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    assert code == case.code, text
    assert case.message in text, text
    if before is not None:
        assert snapshot(project) == before, "a failing command wrote something"
    assert not list(project.rglob(".citecheck-*")), "a temporary file was left behind"


@pytest.mark.parametrize("text, line, record", [
    ("- id: demo/a\n  text: x\n- id: demo/b\n  text: 'y\n", 4, "demo/b"),
    ("- id: demo/a\n  text: x\n- label: inferred\n  text: 'y\n  id: demo/c\n", 4, "-"),  # before its id
    ("engines:\n  - id: vllm\n    pin: x\n  - id: mnn\n    name: 'M\n", 5, "mnn"),
    ("- {id: demo/a, text: x}\n- {id: demo/b, text: \"\\e\"}\n", 2, "demo/b"),
    ("- id: \"demo/\\u202ex\"\n", 1, "-"),  # an id outside the alphabet is not echoed
    ("note: x\n", 1, "-"),
])
def test_a_line_that_does_not_parse_is_named_with_its_record(tmp_path, text, line, record):
    from enginekb.frame import record_at

    path = tmp_path / "r.yaml"
    path.write_text(text)
    assert record_at(path, line) == record


@pytest.mark.parametrize("plain, value", [
    ("1_000", "1_000"), ("1:30", "1:30"), ("190:20:30", "190:20:30"), ("0b101", "0b101"),  # strings in YAML 1.2
    ("0o17", 15), ("0x1f", 31), ("10", 10), ("-3", -3), ("0", 0), ("1e3", 1000.0), (".5", 0.5), ("yes", "yes"),
])
def test_plain_scalars_are_typed_as_yaml_1_2_core_types_them(plain, value):
    from enginekb.yamlfile import parse_yaml

    parsed = parse_yaml(f"a: {plain}\n", Path("r.yaml")).data["a"]
    assert parsed == value and type(parsed) is type(value)
