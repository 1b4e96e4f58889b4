"""Numeric needs of a scenario and the figures an answer cites against them.

The one home of the measures a scenario may name: what each is called, its unit, whether the need is
an upper (`max`) or lower (`min`) bound, and whether it depends on the hardware (a real-time factor
does; a model's weight size or a library's bytes do not, so a size figure holds on every class).
The schema lists the same names (`needs.numeric`); a test holds the two together.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_FIGURE = "no figure"
# A figure is written as its claim states it (`unit`); it is compared in its measure's unit.
UNIT_SCALE = {("s", "ms"): 1000.0, ("ms", "ms"): 1.0, ("GB", "GB"): 1.0, ("MB", "GB"): 1 / 1024, ("GB", "MB"): 1024.0,
              ("MB", "MB"): 1.0, ("KB", "MB"): 1 / 1024, ("kB", "MB"): 1 / 1000,
              ("B", "MB"): 1 / 1024 / 1024, ("GiB", "GB"): 1.073741824, ("MiB", "GB"): 1.048576 / 1000}


@dataclass(frozen=True)
class Measure:
    title: str
    unit: str
    bound: str  # max: the figure must be at most the need; min: at least
    per_hardware: bool

    def meets(self, figure: float, need: float) -> bool:
        return figure <= need if self.bound == "max" else figure >= need

    def need_text(self, value: float) -> str:
        return f"{self.title} {'≤' if self.bound == 'max' else '≥'} {value:g}{' ' + self.unit if self.unit else ''}"


MEASURES = {
    "rtf_max": Measure("real-time factor", "", "max", True),
    "first_audio_ms": Measure("first audio", "ms", "max", True),
    "loop_hz": Measure("control-loop rate", "Hz", "min", True),
    "tokens_per_s": Measure("decode rate", "tokens/s", "min", True),
    "memory_gb": Measure("memory", "GB", "max", False),
    "binary_mb": Measure("binary size", "MB", "max", False),
}


@dataclass(frozen=True)
class FigureCite:
    """One figure an answer cites for one need: from a claim (measured, repo-reported or a Verified
    count) or from a model record's size, with the class it was measured on."""

    measure: str
    value: float  # as the source states it, in `unit`
    unit: str  # "" when the value is in the measure's own unit
    on: str  # a hardware class; "" for a measure that does not depend on the hardware
    claim: str  # a claim id, or ""
    model: str  # a model record id, or ""
    variant: str
    not_binding: str  # why a failing figure does not decide this path (else it caps the verdict at no)
    line: int

    def in_unit(self, measure: Measure) -> float | None:
        """The value in the measure's unit, or None when the unit does not convert."""
        if not self.unit or self.unit == measure.unit:
            return self.value
        scale = UNIT_SCALE.get((self.unit, measure.unit))
        return None if scale is None else self.value * scale

    @property
    def source(self) -> str:
        return self.claim or f"{self.model}{' ' + self.variant if self.variant else ''}"
