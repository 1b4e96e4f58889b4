"""Measured records citing a llama-bench entry agree with that entry's provenance block.

llama-bench writes a provenance block into every entry of its JSON output (model type, threads, build,
CPU, test). A record that cites an entry (`field: <index>.avg_ts`) must say the same things: the
quantisation named in the model type, the thread count, the build, the CPU, the test (pp<n> or tg<n>),
and the figure itself. CI has no network, so the blocks come from a copy recorded by hand from the
study's files (tests/data/llama_bench_blocks.json).
"""

import dataclasses
import json
import re
from pathlib import Path

import pytest

from enginekb.load import load_catalog
from enginekb.model import Claim

ROOT = Path(__file__).resolve().parent.parent
RECORDED = json.loads((ROOT / "tests/data/llama_bench_blocks.json").read_text())

QUANT_NAMES = {"Q4_K - Medium": "Q4_K_M"}  # llama-bench's model_type spelling -> the usual file-name spelling


def cited_entry(claim: Claim) -> tuple[str, str] | None:
    """(artifact path, entry index) when the claim cites one llama-bench entry's avg_ts."""
    source = claim.provenance["source"] if claim.provenance else None
    match = re.fullmatch(r"(\d+)\.avg_ts", str(source.get("field", ""))) if source else None
    return (source["path"], match.group(1)) if match else None


def mismatches(claim: Claim, block: dict) -> list[str]:
    """What the claim's provenance says differently from the entry's block (empty when they agree)."""
    provenance, problems = claim.provenance, []
    quant = block["model_type"].split(" ", 2)[2]
    if provenance["quantisation"].split()[0] != QUANT_NAMES.get(quant, quant):
        problems.append(f"quantisation {provenance['quantisation']!r}, the artifact's model_type says {quant!r}")
    if not re.match(rf"{block['n_threads']} threads\b", provenance["threads"]):
        problems.append(f"threads {provenance['threads']!r}, the artifact's n_threads is {block['n_threads']}")
    if block["build_commit"] not in provenance["engine_build"]:
        problems.append(f"engine_build does not name the artifact's build_commit {block['build_commit']}")
    cpu = block["cpu_info"].replace("(R)", "")
    if cpu not in provenance["machine"]:
        problems.append(f"machine does not name the artifact's cpu_info {cpu!r}")
    test = f"pp{block['n_prompt']}" if block["n_prompt"] else f"tg{block['n_gen']}"
    if test not in provenance["command"]:
        problems.append(f"command does not name the artifact's test {test}")
    if block["model_type"] not in provenance["model"]:
        problems.append(f"model does not quote the artifact's model_type {block['model_type']!r}")
    if claim.measurement is None or abs(claim.measurement[0] - block["avg_ts"]) > 0.01:
        problems.append(f"value {claim.measurement and claim.measurement[0]}, the artifact's avg_ts is {block['avg_ts']}")
    return problems


@pytest.fixture(scope="module")
def cited():
    catalog = load_catalog(ROOT)
    pairs = []
    for claim in catalog.claims:
        entry = cited_entry(claim)
        if entry and entry[0] in RECORDED["blocks"] and claim.provenance["source"]["repository"] == RECORDED["repository"]:
            pairs.append((claim, RECORDED["blocks"][entry[0]][entry[1]]))
    return pairs


def test_every_recorded_entry_is_cited_and_agrees(cited):
    assert len(cited) == sum(len(entries) for entries in RECORDED["blocks"].values())
    found = {claim.id: mismatches(claim, block) for claim, block in cited}
    assert {claim_id: problems for claim_id, problems in found.items() if problems} == {}


@pytest.mark.parametrize("field, value, expected", [
    ("quantisation", "F16", "the artifact's model_type says 'BF16'"),
    ("threads", "8 threads (n_threads)", "n_threads is 4"),
    ("command", "llama-bench, test tg128", "test pp512"),
    ("engine_build", "llama.cpp b1234", "build_commit e71b80510"),
])
def test_a_provenance_field_copied_from_elsewhere_is_named(cited, field, value, expected):
    claim, block = next((c, b) for c, b in cited if c.id == "llama.cpp/bench-bf16-t4-pp512")
    wrong = dataclasses.replace(claim, provenance={**claim.provenance, field: value})
    assert any(expected in problem for problem in mismatches(wrong, block))
