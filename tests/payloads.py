"""A corpus of markup an attacker could write into a record, and a small site that shows it in every
field that reaches a page. Used by the browser test (nothing may run) and the static checks.

Each payload calls `alert`: the browser test replaces it and records a call. The site is built from a
temporary claims tree with the project's own mkdocs.yml (its Markdown extensions), hook and assets.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from sitebuild import site_for
from upstream import PROJECT, make_project

PAYLOADS = (
    "[x](onmouseover=alert(1)//)",
    "[j](javascript:alert(1))",
    "![i](x\" onerror=\"alert(1))",
    "<a href=\"javascript:alert(1)\">a</a>",
    "\" onmouseover=\"alert(1)\" x=\"",
    "' onfocus='alert(1)' autofocus='",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "&lt;img src=x onerror=alert(1)&gt;",
    "&#x3C;img src=x onerror=alert(1)&#x3E;",
    "<http://x.invalid/\"onmouseover=alert(1)//>",
    "_w_{: onclick=\"alert(1)\" tabindex=0 }",
    "`[c](javascript:alert(1))`",
    "[d](data:text/html,<script>alert(1)</script>)",
    "| <b onmouseover=alert(1)>t</b> |",
    "https://x.invalid/onmouseover=alert(1)//",
    "\\[e\\](javascript:alert(1))",
)
ALL = " ".join(PAYLOADS)
SHA = "a" * 40
WORD = "zebrapayload"  # searched for in the browser, so that search results show the records


def _yaml(records: list[dict]) -> str:
    return yaml.safe_dump(records, sort_keys=False, allow_unicode=True, width=1 << 20)


def claims_tree() -> dict[str, str]:
    text = f"{WORD} {ALL}"
    provenance = {field: f"{field} {ALL}" for field in ("machine", "model", "quantisation", "threads", "engine_build", "command")}
    provenance |= {"measured_by": "enginekb", "date": "2026-01-02",
                   "source": {"repository": "https://example.invalid/results", "commit": SHA,
                              "path": "runs/" + PAYLOADS[0].replace("//", "/") + "/" + PAYLOADS[7] + ".json",
                              "field": ALL}}
    cites = [{"file": "src/" + re.sub(r"/+", "/", p).strip("/ ") + ".c", "symbol": "S" + p.strip()} for p in PAYLOADS[:6]]
    cites.append({"file": "README.md", "phrase": "P " + ALL})
    schema = json.loads((PROJECT / "claims" / "claim.schema.json").read_text())
    # Fields being added are covered once the schema has them.
    extra = {"scope": text} if "scope" in schema["$defs"]["claim"]["properties"] else {}

    def claim(slug: str, label: str, dimension: str, **fields) -> dict:
        return {"id": f"demo/{slug}", "label": label, "dimension": dimension, "text": text} | extra | fields

    claims = [
        claim("verified", "verified", "kind.unit-of-work", note=text, cites=cites, maturity={"level": "experimental", "cite": 0}),
        claim("counted", "inferred", "kernel.operators",
              count={"value": 3, "how": {"file": "x/" + PAYLOADS[1] + ".c", "lines": PAYLOADS[0], "exclude": PAYLOADS[0]},
                     "study": {"value": ALL, "counted": ALL}}),
        claim("globbed", "inferred", "kernel.operators",
              count={"value": 2, "how": {"glob": "**/" + PAYLOADS[3], "exclude": PAYLOADS[1]}}),
        claim("measured", "measured", "kind.category", measurement={"value": 1.5, "unit": ALL}, provenance=provenance),
        claim("absent", "inferred", "kind.category", absence=True, note=text),
        claim("proposed", "proposal", "kind.category", rests_on=["demo/verified", "demo/absent"], see=["demo/counted"]),
    ]
    model = {"family": ALL, "task": "tts", "stages": list(PAYLOADS), "streaming": ALL, "deploy": list(PAYLOADS)}
    cells = [
        {"dimension": key, "verdict": verdict, "answer": answer[:140], "rests_on": [on]}
        for key, verdict, answer, on in (
            ("kind.unit-of-work", "yes", " ".join(PAYLOADS[i] for i in (0, 4, 7)), "demo/verified"),
            ("kind.category", "no", " ".join(PAYLOADS[i] for i in (1, 5, 12)), "demo/absent"),
            ("kernel.operators", "partial", " ".join(PAYLOADS[i] for i in (2, 6, 15)), "demo/counted"),
        )
    ]
    scenario = {
        "id": "payload", "title": ALL[:120], "who": text,
        "needs": {"platform": ALL, "model_class": ALL, "runtime": ALL, "constraints": list(PAYLOADS)},
        "draws_on": ["kind.unit-of-work", "kind.category"], "study": ALL, "note": ALL,
        "figures": [{"claim": "demo/measured", "tells": ALL[:200]}],
        "hardware": "android-phone", "allows_maturity": ["experimental"], "tiers": [["demo"]],
        "engines": {"demo": {"verdict": "no", "hardware": "android-phone-cpu",
                             "path": {"model": "payload", "variant": "v1", "api": "demo/verified", "backend": "demo/verified",
                                      "how": ALL},
                             "figures": {"rtf_max": [{"claim": "demo/measured", "value": 1.5, "on": "desktop-cpu",
                                                      "not_binding": ALL}],
                                         "memory_gb": "no figure"},
                             "obstacle": {"kind": "missing-implementation", "what": ALL[:200], "rests_on": ["demo/absent"]},
                             "reason": ALL[:200], "would_change": ALL, "better_than_rows": ALL,
                             "rests_on": ["demo/absent", "demo/cell/kind.category", "demo/verified"]}},
    }
    scenario["needs"]["numeric"] = {"rtf_max": {"value": 1, "why": ALL}, "memory_gb": {"value": 2, "why": ALL}}
    def fact() -> dict:  # a fresh mapping each time: a shared one would be dumped as a YAML alias
        return {"value": ALL[:200], "card": "https://x.invalid/card", "note": ALL}

    record = {
        "id": "payload", "name": ALL[:80], "task": "tts", "summary": text,
        "variants": [{"name": "v1", "checkpoint": ALL, "parameters": fact(),
                      "weights": [{"precision": "fp16", "size": {"value": ALL[:200], "claim": "demo/measured", "note": ALL}}]},
                     {"name": "v2", "parameters": {"unknown": ALL}, "weights": []}],
        "licence": {"weights": fact(), "components": [{"name": ALL[:80], "role": "phonemiser", "licence": {"unknown": ALL}}]},
        "access": {"value": "open", "card": "https://x.invalid/card"},
        "inputs": [{"kind": "reference-audio", "value": ALL[:200], "claim": "demo/verified", "note": ALL}],
        "ports": {"demo": {"variants": ["v1"], "how": ALL[:240], "rests_on": ["demo/verified", "context/shared"]}},
        "note": ALL,
    }
    shared = {"id": "context/shared", "label": "verified", "dimension": "kind.category", "text": text} | extra | {
        "note": text, "cites": [{"repo": "demo", "file": "src/" + PAYLOADS[1] + ".c", "symbol": "S" + PAYLOADS[4].strip()}]}
    return {"demo/kind.yaml": _yaml(claims),
            "models/payload.yaml": yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=1 << 20),
            "context/shared.yaml": _yaml([shared]),
            "scenarios/payload.yaml": yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, width=1 << 20),
            "demo/models/models.yaml": _yaml([claim("model-row", "inferred", "kind.category", model=model)]),
            "demo/cells.yaml": _yaml(cells)}


def _dimensions() -> str:
    """The project's rows with every title turned into a payload (keys stay valid: they are names)."""
    data = yaml.safe_load((PROJECT / "claims" / "dimensions.yaml").read_text())
    for layer in data["layers"]:  # YAML 1.1 reads the rubric keys yes and no as booleans: written back as names
        for dimension in layer["dimensions"]:
            if "rubric" in dimension:
                dimension["rubric"] = {({True: "yes", False: "no"}.get(k, k) if isinstance(k, bool) else k): v
                                       for k, v in dimension["rubric"].items()}
    for number, layer in enumerate(data["layers"]):
        layer["title"] = f"L{number} {PAYLOADS[number % len(PAYLOADS)]}"
        for position, dimension in enumerate(layer["dimensions"]):
            dimension["title"] = f"D{number}.{position} {PAYLOADS[(number + position) % len(PAYLOADS)]}"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _lock(root: Path) -> None:
    """Lock entries for the cites (citecheck would need an upstream holding these file names)."""
    from enginekb.load import load_catalog
    catalog = load_catalog(root)
    cites = []
    for claim in catalog.claims:
        for cite in claim.cites:
            entry = {"engine": claim.engine, "commit": cite.commit, "file": cite.file, cite.target_kind: cite.target,
                     "blob": "b" * 40, "lines": [2, 3], "kind": "definition" if cite.symbol else "phrase"}
            cites.append(entry)
    (root / "claims" / "citecheck.lock").write_text(json.dumps({"version": 1, "cites": cites, "counts": []}))


PAGES = {
    "index.md": f"""\
        # Payloads

        Inline refs in a paragraph <!-- kb:ref demo/verified --> and <!-- kb:ref demo/counted demo/measured -->.

        | Where | Ref |
        |---|---|
        | table | <!-- kb:ref demo/verified --> <!-- kb:ref demo/proposed --> |

        !!! note "Inside an admonition"
            <!-- kb:ref demo/absent -->

            <!-- kb:claims engine=demo dimension=kind.category heading=none -->

        <!-- kb:engines -->

        <!-- kb:engine demo -->

        <!-- kb:coverage -->

        <!-- kb:compare layer=kind -->

        <!-- kb:cells layer=kind -->

        <!-- kb:scenarios -->

        <!-- kb:scenario payload -->

        <!-- kb:numbers -->

        <!-- kb:labels -->
        """,
    "engines/demo.md": "# Demo\n\n<!-- kb:claims engine=demo -->\n",
    "engines/demo_models.md": "# Demo models\n\n<!-- kb:models engine=demo -->\n\n<!-- kb:claims engine=demo report=models -->\n",
    "analysis/explorer.md": "# Explorer\n\n<!-- kb:explorer -->\n",
    "analysis/scenarios/payload.md": "<!-- kb:scenario payload heading=1 -->\n",  # each question's own page
    "models/index.md": "# Models\n\n<!-- kb:families -->\n",
    "models/payload.md": "<!-- kb:family payload heading=1 -->\n",  # each family's own page
    "analysis/shared_facts.md": "# Shared facts\n\n<!-- kb:claims engine=context -->\n",
}


def payload_project(root: Path) -> Path:
    """A project whose records carry the payloads, with docs pages using every directive on them."""
    engine = {"name": f"Demo {PAYLOADS[0]} {PAYLOADS[4]}", "licence": f"MIT {PAYLOADS[7]}", "pin": SHA}
    make_project(root, {"demo": engine}, claims_tree())
    (root / "claims" / "dimensions.yaml").write_text(_dimensions())
    _lock(root)
    site_for(root, PAGES)
    return root
