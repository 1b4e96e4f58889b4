"""`claims stats`: counts by engine and label, the dimensions each engine still lacks, and its cells."""

from __future__ import annotations

import json
from collections import Counter

from enginekb.cells import evidence_label
from enginekb.ledger import second_reads
from enginekb.model import CONTEXT_OWNER, LABELS, Catalog
from enginekb.modelrecords import Fact, ModelRecord
from enginekb.needs import NO_FIGURE
from enginekb.study_coverage import coverage_stats


def compute_stats(catalog: Catalog) -> dict:
    """{"engines": {engine: counts}, "cells": {engine: {dimension: verdict}},
    "scenarios": {scenario: {engine: verdict}}, "scenario_needs": {scenario: {hardware, needs: {measure: value},
    figures: {engine: {measure: whether the answer cites a figure}}}},
    "scenario_readings": {scenario: {readings, current: whether one reading read this version, hash}}, "second_reads": {engine: {verified, read, stale}},
    "study_coverage": {study document: {statements, recorded}}, "models": {model: summary}, "context": claim count}."""
    stats, cells = {}, {}
    for engine in catalog.engines:
        claims = catalog.engine_claims(engine)
        labels = Counter(c.label for c in claims)
        covered = {c.dimension for c in claims}
        mine = [cell for cell in catalog.cells if cell.engine == engine]
        cells[engine] = {cell.dimension: cell.verdict for cell in mine}
        stats[engine] = {
            "claims": len(claims),
            "labels": {label: labels[label] for label in LABELS},
            "dimensions_covered": len(covered),
            "dimensions_total": len(catalog.dimensions),
            "missing": [key for key in catalog.dimensions if key not in covered],
            "cells": len(mine),
            "cells_missing": [key for key in catalog.dimensions if key not in cells[engine]],
            "cell_verdicts": dict(Counter(cell.verdict for cell in mine)),
            "cell_labels": dict(Counter(evidence_label(cell, catalog) for cell in mine)),
        }
    scenarios = {s.id: {answer.engine: answer.verdict for answer in s.answers} for s in catalog.scenarios}
    needs = {s.id: {"hardware": s.hardware, "needs": dict(s.numeric),
                    "figures": {a.engine: {m: a.figures.get(m, NO_FIGURE) != NO_FIGURE for m in s.numeric}
                                for a in s.answers}}
             for s in catalog.scenarios}
    readings = {s.id: {"readings": len(s.readings), "current": s.read_current, "hash": s.content_hash}
                for s in catalog.scenarios}
    models = {record.id: model_summary(record, catalog) for record in catalog.models}
    return {"engines": stats, "cells": cells, "scenarios": scenarios, "scenario_needs": needs,
            "scenario_readings": readings, "second_reads": second_reads(catalog), "study_coverage": coverage_stats(catalog), "models": models,
            "context": len(catalog.engine_claims(CONTEXT_OWNER))}


def model_summary(record: ModelRecord, catalog: Catalog) -> dict:
    """A record's values with the label of each source (a claim's label, `card` or `unknown`)."""
    def sourced(fact: Fact) -> dict:
        return {"value": fact.value or None, "source": fact.source_label(catalog)}

    return {
        "task": record.task,
        "variants": {v.name: {"parameters": sourced(v.parameters),
                              "weights": {w.precision: sourced(w.size) for w in v.weights}} for v in record.variants},
        "licence": sourced(record.licence),
        "components": {c.name: {"role": c.role, **sourced(c.licence)} for c in record.components},
        "access": sourced(record.access),
        "inputs": [fact.kind for fact in record.inputs],
        "ports": {port.engine: list(port.variants) for port in record.ports},
        "no_port": [port.engine for port in record.no_port],
    }


def format_text(result: dict) -> str:
    stats = result["engines"]
    header = f"{'engine':<12}{'claims':>7}" + "".join(f"{label:>15}" for label in LABELS) + f"{'dimensions':>12}"
    lines = [header]
    for engine, s in stats.items():
        lines.append(f"{engine:<12}{s['claims']:>7}" + "".join(f"{s['labels'][l]:>15}" for l in LABELS)
                     + f"{s['dimensions_covered']:>8}/{s['dimensions_total']}")
    total = Counter()
    for s in stats.values():
        total.update(s["labels"])
    lines.append(f"{'all':<12}{sum(total.values()):>7}" + "".join(f"{total[l]:>15}" for l in LABELS))
    lines.append("")
    for engine, s in stats.items():
        if not s["claims"]:
            lines.append(f"{engine}: no claims yet")
        elif s["missing"]:
            lines.append(f"{engine}: lacks {len(s['missing'])} dimensions: {', '.join(s['missing'])}")
        else:
            lines.append(f"{engine}: every dimension covered")
    lines.append("")
    for engine, s in stats.items():
        if s["cells"]:
            verdicts = ", ".join(f"{n} {v}" for v, n in sorted(s["cell_verdicts"].items()))
            lines.append(f"{engine}: {s['cells']}/{s['dimensions_total']} cells ({verdicts})"
                         + (f"; no cell for {', '.join(s['cells_missing'])}" if s["cells_missing"] else ""))
    lines.append("")
    for engine, reads in result["second_reads"].items():
        lines.append(f"{engine}: {reads['read']} of {reads['verified']} Verified claims read twice"
                     + (f", {reads['stale']} stale" if reads["stale"] else ""))
    lines.extend(scenario_reading_lines(result["scenario_readings"]))
    return "\n".join(lines)


def scenario_reading_lines(readings: dict) -> list[str]:
    """How many scenarios a second reader read as they stand, then each other one with the hash a new
    reading records (`read:`)."""
    current = sum(1 for r in readings.values() if r["current"])
    lines = ["", f"scenarios: {current} of {len(readings)} read as they stand"]
    for scenario, r in readings.items():
        if not r["current"]:
            state = "reading out of date" if r["readings"] else "no second reading"
            lines.append(f"{scenario}: {state} (current hash {r['hash']})")
    return lines


def format_json(stats: dict) -> str:
    return json.dumps(stats, indent=1)
