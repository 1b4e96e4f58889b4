"""`claims stats`: counts by engine and label, and the dimensions each engine still lacks."""

from __future__ import annotations

import json
from collections import Counter

from enginekb.model import LABELS, Catalog


def compute_stats(catalog: Catalog) -> dict:
    stats = {}
    for engine in catalog.engines:
        claims = catalog.engine_claims(engine)
        labels = Counter(c.label for c in claims)
        covered = {c.dimension for c in claims}
        stats[engine] = {
            "claims": len(claims),
            "labels": {label: labels[label] for label in LABELS},
            "dimensions_covered": len(covered),
            "dimensions_total": len(catalog.dimensions),
            "missing": [key for key in catalog.dimensions if key not in covered],
        }
    return stats


def format_text(stats: dict) -> str:
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
    return "\n".join(lines)


def format_json(stats: dict) -> str:
    return json.dumps(stats, indent=1)
