"""Numeric needs of a scenario and the figures an answer cites against them.

The one home of the measures a scenario may name: what each is called, its unit, whether the need is
an upper (`max`) or lower (`min`) bound, and whether it depends on the hardware (a real-time factor
does; a model's weight size or a library's bytes do not, so a size figure holds on every class).
The schema lists the same names (`needs.numeric`); a test holds the two together.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_FIGURE = "no figure"


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
    value: float
    on: str  # a hardware class; "" for a measure that does not depend on the hardware
    claim: str  # a claim id, or ""
    model: str  # a model record id, or ""
    variant: str
    not_binding: str  # why a failing figure does not decide this path (else it caps the verdict at no)
    line: int

    @property
    def source(self) -> str:
        return self.claim or f"{self.model}{' ' + self.variant if self.variant else ''}"
