"""The measured-figure table (kb:measurements) and the study's artifact list (kb:artifacts)."""

import pytest

from citecheck.lock import Lock
from enginekb.load import load_catalog
from enginekb.model import claim_anchor
from kbsite.render import RenderError, render_page

STUDY = "https://github.com/Hosi121/vllm-omni"


def figure(claim_id: str, path: str, dimension: str = "kind.category", value: str = "31.98") -> str:
    return f"""
- id: {claim_id}
  label: measured
  dimension: {dimension}
  text: The earlier study measured <b>{value}</b> ms.
  measurement: {{value: {value}, unit: ms}}
  provenance:
    measured_by: the earlier study
    machine: one GPU named "L20X" <i>H200-class</i>; host Xeon
    model: Qwen3-TTS
    quantisation: bf16
    threads: batch 1
    engine_build: a branch
    command: bench --x "<script>"
    date: '2026-09-09'
    source: {{repository: '{STUDY}', commit: '{"9" * 40}', path: '{path}', field: summary.ttfa_ms.p50}}
  note: A note with `code`.
"""


INVENTORY = f"""repository: {STUDY}
commit: '{"9" * 40}'
artifacts:
  - {{path: benchmarks/results/run#1.json, measures: a <b>run</b>}}
  - {{path: benchmarks/results/b.json, measures: a figure}}
  - {{path: benchmarks/results/old.json, measures: a run, reason: retracted, replacement: benchmarks/results/b.json, why: the head stayed bf16}}
"""


@pytest.fixture
def catalog(demo_project):
    return load_catalog(demo_project({
        "demo/experiments/a.yaml": figure("demo/ttfa", "benchmarks/results/run#1.json"),
        "demo/phone-npu/b.yaml": figure("demo/npu", "benchmarks/results/b.json", "device.memory", "15.8"),
        "study-artifacts.yaml": INVENTORY,
    }))


def test_each_figure_is_a_row_with_its_provenance_one_fold_away_and_escaped(catalog):
    html = render_page("<!-- kb:measurements report=experiments -->\n", "analysis/experiments.md", catalog, Lock())
    assert html.count("<tr id=") == 1 and f'id="{claim_anchor("demo/ttfa")}"' in html
    assert "<strong>31.98</strong> ms" in html
    assert 'one GPU named &#34;L20X&#34; &#60;i&#62;H200-class&#60;/i&#62;</td>' in html  # first clause, escaped
    assert "&#60;script&#62;" in html and "<script>" not in html
    assert "&lt;b&gt;31.98&lt;/b&gt;" in html and "<b>" not in html
    assert f'href="{STUDY}/blob/{"9" * 40}/benchmarks/results/run%231.json"' in html  # the path is encoded
    assert "<details class=\"kb-row-claim\">" in html and "<code>summary.ttfa_ms.p50</code>" in html
    assert "<code>code</code>" in html


def test_filters_choose_rows_and_a_second_table_carries_no_anchors(catalog):
    html = render_page("<!-- kb:measurements anchors=no -->\n", "analysis/experiments.md", catalog, Lock())
    assert "<tr id=" not in html and html.count("<tr data-engine=") == 2
    assert "kb-filters" not in html  # two rows need no filters
    one = render_page("<!-- kb:measurements demo/npu -->\n", "edge/phone_npu.md", catalog, Lock())
    assert one.count("<tr id=") == 1 and "15.8" in one
    by_dimension = render_page("<!-- kb:measurements dimension=device.memory -->\n", "edge/phone_npu.md", catalog, Lock())
    assert "demo/npu" in by_dimension and "demo/ttfa" not in by_dimension


def test_a_figure_no_engine_ran_is_filed_under_the_shared_facts_never_under_an_engine(demo_project):
    catalog = load_catalog(demo_project({
        "demo/experiments/a.yaml": figure("demo/ttfa", "benchmarks/results/run#1.json"),
        "context/laptop.yaml": figure("context/npu-gemm", "docs/edge/laptop.md", "device.accelerators", "5.29"),
    }))
    html = render_page("<!-- kb:measurements -->\n", "analysis/figures.md", catalog, Lock())
    row = html[html.index(f'id="{claim_anchor("context/npu-gemm")}"'):]
    row = row[:row.index("</tr>")]
    assert "<strong>5.29</strong> ms" in row
    assert "(Shared facts, no engine)" in row and "Demo" not in row
    header = html[:html.index("<tbody>")]
    assert header.count("<option value=\"shared-facts\">shared facts</option>") <= 1
    ids = render_page("<!-- kb:measurements context/npu-gemm -->\n", "analysis/shared_facts.md", catalog, Lock())
    assert 'data-engine="context" data-page="shared-facts"' in ids


@pytest.mark.parametrize("directive, message", [
    ("<!-- kb:measurements engine=nobody -->", "unknown engine nobody"),
    ("<!-- kb:measurements colour=red -->", "unknown option colour"),
    ("<!-- kb:measurements anchors=maybe -->", "anchors= takes yes or no"),
    ("<!-- kb:measurements report=roadmap -->", "selects no measured claim"),
    ("<!-- kb:artifacts all=yes -->", "takes no option"),
])
def test_bad_directives_fail_the_page(catalog, directive, message):
    with pytest.raises(RenderError, match=message):
        render_page(directive + "\n", "analysis/experiments.md", catalog, Lock())


def test_artifacts_show_the_records_that_use_them_or_the_reason_none_does(catalog):
    html = render_page("<!-- kb:artifacts -->\n", "analysis/experiments.md", catalog, Lock())
    assert "used 2" in html and "retracted 1" in html
    assert html.count('data-status="used"') == 2 and 'data-status="retracted"' in html
    assert "the head stayed bf16 Replaced by <code>benchmarks/results/b.json</code>." in html
    assert "a &lt;b&gt;run&lt;/b&gt;" in html
    assert f'href="#{claim_anchor("demo/ttfa")}"' in html  # a record on this page: its anchor here
    assert f'href="../edge/phone_npu.md#{claim_anchor("demo/npu")}"' in html  # on its own page elsewhere


def test_a_figure_no_engine_ran_is_shown_as_context_on_its_reports_page(demo_project):
    """Vendor-tool runs (AI Hub) belong to no engine: the row and the filter name the shared facts and no engine, and the
    record's home is its report's page, not the shared-facts page."""
    catalog = load_catalog(demo_project({
        "context/phone-npu/b.yaml": figure("context/npu", "benchmarks/results/b.json", "device.memory", "15.8"),
        "demo/experiments/a.yaml": figure("demo/ttfa", "benchmarks/results/run#1.json"),
        "study-artifacts.yaml": INVENTORY,
    }))
    html = render_page("<!-- kb:measurements engine=context -->\n", "edge/phone_npu.md", catalog, Lock())
    assert html.count("<tr id=") == 1 and 'data-engine="context"' in html
    assert "(Shared facts, no engine)" in html and "Demo" not in html
    elsewhere = render_page("<!-- kb:artifacts -->\n", "analysis/experiments.md", catalog, Lock())
    assert f'href="../edge/phone_npu.md#{claim_anchor("context/npu")}"' in elsewhere
