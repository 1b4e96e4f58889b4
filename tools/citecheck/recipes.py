"""Reproduction recipes in claims' notes and scopes, re-run at the pin.

A note or scope may say how something was found: a backticked `git grep ...`, `git ls-tree ...` or
`git show PIN:path`. A recipe that finds nothing at the pin, where the sentence around it does not say
it should find nothing, is a defect of the record (issue 28): either the recipe or the claim is stale.

Recipes are data from records, so they are never handed to a shell: each is split with shlex, checked
against the few read-only forms below, and rebuilt with the pin as the only revision. Anything else
(pipes, other git commands, options outside the allowed set) is reported as not runnable.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from enginekb.model import Claim

from .gitdir import git_timeout, require_sha

RECIPE = re.compile(r"`(git (?:grep|ls-tree|show) [^`]+)`")
# Words by which a sentence announces that its recipe finds nothing.
ANNOUNCED_EMPTY = re.compile(
    r"\b(nothing|none|no match|no hit|no result|finds no|found no|returns no|empty|absent|not found|zero)\b"
    r"|\bno\s+\w+", re.IGNORECASE)
GREP_FLAGS = set("nliwIEFPcvho")  # read-only flags of git grep, combinable as in -nIi
GREP_CONTEXT = re.compile(r"-[ABC][0-9]{1,3}")  # context lines, as in -A2
GREP_LONG = {"--count", "--ignore-case", "--word-regexp", "--files-with-matches", "--line-number",
             "--extended-regexp", "--fixed-strings", "--perl-regexp", "--recurse-submodules"}
LS_TREE_OPTIONS = {"-r", "-d", "-t", "--name-only", "--full-tree", "-l", "--long"}


class NotRunnable(ValueError):
    """A recipe outside the read-only forms this module runs."""


@dataclass(frozen=True)
class Recipe:
    claim: Claim
    engine: str  # whose tree it runs in: the claim's engine, or another whose pin the text names before it
    field: str  # note or scope
    command: str  # as written in the record
    announced_empty: bool  # the sentence around it says it finds nothing


@dataclass(frozen=True)
class Outcome:
    recipe: Recipe
    status: str  # "found", "nothing", "not runnable", "failed"
    lines: int = 0
    detail: str = ""


def recipes_of(claim: Claim, pins: dict[str, str]) -> list[Recipe]:
    """The recipes in a claim's note and scope; `pins` maps engine ids to pins (a text that names another
    engine's pin, as "vLLM-Omni at d6240742:", runs the recipes after it in that engine's tree)."""
    found = []
    for field in ("note", "scope"):
        text = getattr(claim, field) or ""
        for match in RECIPE.finditer(text):
            sentence = _sentence_around(text, match.start(), match.end())
            named = [(text.rfind(pin[:8], 0, match.start()), engine) for engine, pin in pins.items()]
            at, engine = max(named, default=(-1, claim.engine))
            found.append(Recipe(claim, engine if at >= 0 else claim.engine, field, match.group(1),
                                bool(ANNOUNCED_EMPTY.search(sentence))))
    return found


def _sentence_around(text: str, start: int, end: int) -> str:
    """The recipe's sentence with the recipe itself taken out (its own pattern may say 'no')."""
    before = max(text.rfind(". ", 0, start), text.rfind("; ", 0, start))
    after = [i for i in (text.find(". ", end), text.find("; ", end)) if i != -1]
    return text[before + 1:start] + " " + text[end:min(after) if after else len(text)]


def argv_at_pin(command: str, pin: str) -> list[str]:
    """The git arguments that run `command` at `pin` and nowhere else, or NotRunnable."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise NotRunnable(f"does not split: {error}") from None
    if any(w in {"|", ">", "<", "&&", ";"} or w.startswith((">", "<", "|")) for w in words):
        raise NotRunnable("pipes or redirections")
    sub, rest = words[1], words[2:]
    if sub == "grep":
        return _grep_at(rest, pin)
    if sub == "ls-tree":
        return _ls_tree_at(rest, pin)
    if len(rest) == 1 and re.fullmatch(r"(PIN|[0-9a-f]{7,40}):[^:\s]+", rest[0]) and not rest[0].startswith("-"):
        return ["show", require_sha(pin) + ":" + rest[0].split(":", 1)[1]]
    raise NotRunnable("git show takes one PIN:path here")


def _grep_at(words: list[str], pin: str) -> list[str]:
    options, patterns, paths = [], [], []
    position = iter(range(len(words)))
    after_dashes = False
    for i in position:
        word = words[i]
        if after_dashes:
            paths.append(word)
        elif word == "--":
            after_dashes = True
        elif word == "-e":
            i = next(position, None)
            if i is None:
                raise NotRunnable("-e without a pattern")
            patterns.append(words[i])
        elif word.startswith("--"):
            if word not in GREP_LONG:
                raise NotRunnable(f"option {word}")
            options.append(word)
        elif word.startswith("-") and len(word) > 1:
            if not (set(word[1:]) <= GREP_FLAGS or GREP_CONTEXT.fullmatch(word)):
                raise NotRunnable(f"option {word}")
            options.append(word)
        elif not patterns:
            patterns.append(word)
        elif word != "PIN" and not re.fullmatch(r"[0-9a-f]{7,40}", word):
            paths.append(word)  # without `--`, a word after the pattern is a path (the pin is the only revision)
    if not patterns:
        raise NotRunnable("no pattern")
    argv = ["grep", "-I", *options]
    for pattern in patterns:
        argv += ["-e", pattern]
    return argv + [require_sha(pin), "--", *paths]  # git grep takes no --end-of-options before a revision


def _ls_tree_at(words: list[str], pin: str) -> list[str]:
    options = [w for w in words if w.startswith("-") and w != "--"]
    bad = [w for w in options if w not in LS_TREE_OPTIONS]
    if bad:
        raise NotRunnable(f"option {bad[0]}")
    paths = [w for w in words if not w.startswith("-") and w != "PIN" and not re.fullmatch(r"[0-9a-f]{7,40}", w)]
    return ["ls-tree", *options, require_sha(pin), "--", *paths]


def run(recipe: Recipe, repository: Path, pin: str) -> Outcome:
    try:
        argv = argv_at_pin(recipe.command, pin)
    except NotRunnable as error:
        return Outcome(recipe, "not runnable", detail=str(error))
    try:
        done = subprocess.run(["git", "-C", str(repository), "--no-pager", *argv], capture_output=True,
                              timeout=git_timeout(60.0), check=False)
    except subprocess.TimeoutExpired:
        return Outcome(recipe, "failed", detail="timed out")
    output = done.stdout.decode("utf-8", "replace").splitlines()
    if done.returncode not in (0, 1) or (done.returncode == 1 and argv[0] != "grep"):
        return Outcome(recipe, "failed", detail=done.stderr.decode("utf-8", "replace").strip()[:200])
    return Outcome(recipe, "found" if output else "nothing", lines=len(output))
