"""Tiers and ranks of a scenario's answers: one rule everywhere.

A scenario lists its engines in tiers, best first. Ranks are dense (1, 2, 2, 3) and computed here,
never written; answers whose path runs on a server are ranked apart from those on the device. Within
each group the tiers follow the verdicts: a tier shares one verdict; `yes` above `partial` above
`unknown`, and an `unknown` stands above (or beside) a `partial` only with a stated reason
(`above_partial`); all `no`s form one last tier.
"""

from __future__ import annotations

from .hardware import KINDS, Hardware

VERDICT_STRENGTH = {"no": 0, "unknown": 1, "partial": 2, "yes": 3}


def kind_of(answer, hardware: Hardware) -> str:
    found = hardware.classes.get(answer.hardware)
    return found.kind if found else KINDS[0]


def ranked(scenario, hardware: Hardware) -> list[tuple[str, list[tuple[int, object]]]]:
    """[(kind, [(rank, answer), ...]), ...]: device answers first, then server answers, each densely
    ranked over the tiers that hold one of them."""
    by_engine = {answer.engine: answer for answer in scenario.answers}
    groups = []
    for kind in KINDS:
        rows, rank = [], 0
        for tier in scenario.tiers:
            members = [by_engine[e] for e in tier if e in by_engine and kind_of(by_engine[e], hardware) == kind]
            if members:
                rank += 1
                rows.extend((rank, answer) for answer in members)
        if rows:
            groups.append((kind, rows))
    return groups


def tier_problems(scenario, hardware: Hardware) -> list[str]:
    problems, seen = [], set()
    answered = {answer.engine: answer for answer in scenario.answers}
    for tier in scenario.tiers:
        for engine in tier:
            if engine in seen:
                problems.append(f"tiers: {engine} stands in two tiers")
            elif engine not in answered:
                problems.append(f"tiers: {engine} has no answer in engines")
            seen.add(engine)
    problems += [f"tiers: {engine} stands in no tier" for engine in answered if engine not in seen]
    for kind in KINDS:
        tiers = [[answered[e] for e in tier if e in answered and kind_of(answered[e], hardware) == kind]
                 for tier in scenario.tiers]
        problems += _group_problems([tier for tier in tiers if tier], kind)
    return problems


def _group_problems(tiers: list[list], kind: str) -> list[str]:
    problems = []
    where = f" ({kind} answers)" if kind != KINDS[0] else ""
    for tier in tiers:
        first = max(tier, key=lambda a: VERDICT_STRENGTH[a.verdict])
        for answer in tier:
            excused = answer.verdict == "unknown" and first.verdict == "partial" and answer.above_partial
            if answer.verdict != first.verdict and not excused:
                problems.append(f"tiers{where}: {answer.engine} ({answer.verdict}) shares a tier with {first.engine} "
                                f"({first.verdict}); a tier shares one verdict")
    no_tiers = [index for index, tier in enumerate(tiers) if any(a.verdict == "no" for a in tier)]
    if len(no_tiers) > 1 or (no_tiers and no_tiers[0] != len(tiers) - 1):
        problems.append(f"tiers{where}: all `no`s form one last tier")
    for upper_index, upper in enumerate(tiers):
        for lower in tiers[upper_index + 1:]:
            for above in upper:
                for below in lower:
                    if VERDICT_STRENGTH[above.verdict] >= VERDICT_STRENGTH[below.verdict]:
                        continue
                    if above.verdict == "unknown" and below.verdict == "partial":
                        if not above.above_partial:
                            problems.append(f"tiers{where}: {above.engine} (unknown) stands above {below.engine} "
                                            "(partial): say why (above_partial)")
                    else:
                        problems.append(f"tiers{where}: {above.engine} ({above.verdict}) stands above "
                                        f"{below.engine} ({below.verdict})")
    return sorted(set(problems), key=problems.index)
