"""Hardware classes: claims/hardware.yaml, the one home of the classes a numeric need or a figure is
on, and of which class is stronger than which.

`stronger_than` is a partial order (read transitively): a GPU and a CPU of another machine need not be
comparable, and then neither counts as the other's "stronger hardware". Lint uses it both ways: a
figure that fails a need on the need's class or on a stronger one says the need fails; a figure that
meets it on that class or a weaker one says it is met.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .layout import HARDWARE_FILE, HARDWARE_SCHEMA_FILE
from .problems import Problem
from .schema import ClaimsSchema
from .yamlfile import LocatedYaml

KINDS = ("device", "server")  # the order a scenario shows its rankings in


@dataclass(frozen=True)
class HardwareClass:
    id: str
    title: str
    kind: str
    stronger_than: tuple[str, ...]
    within: str  # the device this class is a compute unit of, or ""
    line: int


@dataclass(frozen=True)
class Hardware:
    classes: dict[str, HardwareClass]
    weaker: dict[str, frozenset[str]]  # every class each one is stronger than, transitively

    def at_least(self, strong: str, weak: str) -> bool:
        """`strong` is `weak` or named stronger than it."""
        return strong == weak or weak in self.weaker.get(strong, frozenset())

    def runs_on(self, unit: str, device: str) -> bool:
        """An answer on `device` may run its path on `unit`: the device itself or one of its units."""
        return unit == device or self.classes[unit].within == device


NO_HARDWARE = Hardware({}, {})


def load_hardware(located: LocatedYaml, schema_path: Path, problems: list[Problem]) -> Hardware:
    path, data = located.path, located.data
    found = list(ClaimsSchema.at(schema_path).errors(data))
    for location, message in found:
        problems.append(Problem(path, located.line_of(location), "-", message))
    if found:
        return NO_HARDWARE
    classes: dict[str, HardwareClass] = {}
    for index, raw in enumerate(data["classes"]):
        line = located.line_of(("classes", index))
        if raw["id"] in classes:
            problems.append(Problem(path, line, raw["id"], "duplicate hardware class"))
        classes[raw["id"]] = HardwareClass(raw["id"], " ".join(raw["title"].split()), raw["kind"],
                                           tuple(raw.get("stronger_than", ())), raw.get("within", ""), line)
    for item in classes.values():
        for other in item.stronger_than:
            if other not in classes:
                problems.append(Problem(path, item.line, item.id, f"stronger_than: unknown class {other!r}"))
        if item.within and item.within not in classes:
            problems.append(Problem(path, item.line, item.id, f"within: unknown class {item.within!r}"))
    weaker = {name: frozenset(_below(name, classes)) for name in classes}
    for name, below in weaker.items():
        if name in below:
            problems.append(Problem(path, classes[name].line, name, "stronger_than: a cycle leads back to this class"))
    return Hardware(classes, weaker)


def _below(start: str, classes: dict[str, HardwareClass]) -> set[str]:
    seen: set[str] = set()
    stack = list(classes[start].stronger_than)
    while stack:
        name = stack.pop()
        if name in seen or name not in classes:
            continue
        seen.add(name)
        stack.extend(classes[name].stronger_than)
    return seen
