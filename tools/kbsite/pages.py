"""Where things stand on the site: one home for the page of every engine and report, and the downloads."""

from __future__ import annotations

import re

EXPLORER_PAGE = "analysis/explorer.md"
DOWNLOADS = ("downloads/claims.json", "downloads/claims.csv", "downloads/claim.schema.json")


def engine_page(engine_id: str, report: str = "") -> str:
    """The docs path of an engine's analysis page (llama.cpp -> engines/llama_cpp.md), or of one of its
    reports (vllm-omni, models -> engines/vllm_omni_models.md)."""
    return f"engines/{re.sub(r'[^a-z0-9]+', '_', '-'.join(filter(None, (engine_id, report))))}.md"
