"""How mature the code a claim describes is, by the upstream's own word: `maturity: {level, cite}` on a
claim, where `cite` is the index of the cite that says so (a header comment, a README sentence, or a
path under an `examples/` directory for `example`).

A scenario shows the least mature link of an answer's path next to its verdict; an experimental,
example or deprecated link caps a `yes` at `partial` unless the scenario allows that level.
"""

from __future__ import annotations

from .model import Claim

# Least mature first: the order in which an answer's weakest link is chosen.
LEVELS = ("deprecated", "example", "experimental", "stable")
CAPPING = ("deprecated", "example", "experimental")
EXAMPLES_DIR = "examples"


def maturity_problems(claim: Claim) -> list[str]:
    if claim.maturity is None:
        return []
    level, index = claim.maturity
    if index >= len(claim.cites):
        return [f"maturity.cite: {index} is not one of the claim's {len(claim.cites)} cites (0-based)"]
    if level == "example" and EXAMPLES_DIR not in claim.cites[index].file.split("/")[:-1]:
        return [f"maturity: `example` cites a path under an {EXAMPLES_DIR}/ directory, not {claim.cites[index].file!r}"]
    return []


def least_mature(claims: list[Claim]) -> Claim | None:
    """The claim whose level is lowest among those that state one."""
    rated = [claim for claim in claims if claim.maturity is not None]
    return min(rated, key=lambda claim: LEVELS.index(claim.maturity[0]), default=None)
