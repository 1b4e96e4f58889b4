"""Where things stand on the site: one home for the page of every engine and report, and the downloads."""

from __future__ import annotations

import re

from enginekb.model import CONTEXT_OWNER

EXPLORER_PAGE = "analysis/explorer.md"
DOWNLOADS = ("downloads/claims.json", "downloads/claims.csv", "downloads/claim.schema.json")


# Reports shared by every engine: claims/<engine>/<report>/*.yaml of any engine live on one page.
SHARED_REPORTS = {
    "experiments": "analysis/experiments.md",
    "feasibility": "analysis/feasibility.md",
    "tts-design": "analysis/tts_edge_design.md",
    "vla-design": "analysis/vla_edge_design.md",
    "roadmap": "analysis/roadmap.md",
    "edge-comparisons": "edge/comparisons.md",
    "environment": "edge/environment.md",
    "device-simulation": "edge/device_simulation.md",
    "engine-race": "edge/engine_race.md",
    "phone-npu": "edge/phone_npu.md",
    "edge-plan": "analysis/edge_plan.md",
}


# Shared facts (claims/context/) have a page of their own: they are no engine's result.
SHARED_FACTS_PAGE = "analysis/shared_facts.md"
SHARED_FACTS_TITLE = "Shared facts"


def model_page(model_id: str) -> str:
    """Each model family has a page of its own."""
    return f"models/{model_id}.md"


def scenario_page(scenario_id: str) -> str:
    """Each question of the decision guide has a page of its own, as caniuse has one per feature."""
    return f"analysis/scenarios/{scenario_id}.md"


def engine_page(engine_id: str, report: str = "") -> str:
    """The docs path a claim lives on: its engine's page (llama.cpp -> engines/llama_cpp.md), a shared
    report's page (feasibility -> analysis/feasibility.md; a shared fact's report too, else the shared-facts page), or the engine's own report page
    (vllm-omni, models -> engines/vllm_omni_models.md)."""
    if engine_id == CONTEXT_OWNER:
        return SHARED_REPORTS.get(report, SHARED_FACTS_PAGE)  # e.g. the AI Hub runs on the phone NPU page
    if report in SHARED_REPORTS:
        return SHARED_REPORTS[report]
    return f"engines/{re.sub(r'[^a-z0-9]+', '_', '-'.join(filter(None, (engine_id, report))))}.md"
