"""Rendering pages from the records: escaping, permalinks, and failures on unknown names."""

from pathlib import Path

import pytest

from citecheck.lock import Lock, cite_entry, cite_key
from enginekb.load import load_catalog
from enginekb.model import LABEL_MARKS, claim_anchor
from kbsite.exports import claim_record
from kbsite.render import RenderError, engine_page, render_page

PROJECT = Path(__file__).resolve().parent.parent

CLAIMS = """
- id: demo/net
  label: verified
  dimension: kind.unit-of-work
  text: "`Net::load` <script>alert(1)</script> & friends"
  cites:
    - {file: src/net.cpp, symbol: Net::load}
  count: {value: 2, how: {glob: 'src/backends/*', entries: directories}}
  note: Counted <b>directories</b>.
- id: demo/gap
  label: unknown
  dimension: scheduler.request
  text: Nothing schedules requests.
"""


@pytest.fixture
def site(demo_project):
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIMS}))
    lock = Lock()
    cite = catalog.claim("demo/net").cites[0]
    lock.cites[cite_key("demo", cite)] = cite_entry("demo", cite, "b" * 40, (4, 7), "definition")
    return catalog, lock


def test_claims_render_with_badge_escaped_text_and_a_pinned_permalink(site):
    catalog, lock = site
    html = render_page("# Demo\n\n<!-- kb:claims engine=demo -->\n", "engines/demo.md", catalog, lock)
    # The label is a word and a mark, not a colour alone.
    assert '<span class="kb-label kb-label-verified kb-mark">Verified</span>' in html
    css = (PROJECT / "docs/assets/kb.css").read_text()
    for label, mark in LABEL_MARKS.items():  # the mark each badge draws is the label's own
        escaped = mark if mark in "?#" else "\\" + format(ord(mark), "X")
        assert f'.kb-mark.kb-label-{label}::before {{ content: "{escaped}" / ""; }}' in css
    assert "<script>" not in html and "&lt;script&gt;alert&#40;1&#41;&lt;/script&gt; &amp; friends" in html
    assert "<code>Net::load</code>" in html  # backticks become code, after escaping
    assert "<b>" not in html and "&lt;b&gt;directories&lt;/b&gt;" in html
    # The cites are drawn in the browser from claims.json, which carries the pinned permalink.
    assert '<details class="kb-cites" data-claim="demo/net"><summary>1 cite at the pin</summary></details>' in html
    pin = catalog.engines["demo"].pin
    record = claim_record(catalog.claim("demo/net"), catalog, lock, "engines/demo/")
    assert record["cites"][0]["url"] == f'{catalog.engines["demo"].repository}/blob/{pin}/src/net.cpp#L4-L7'
    assert f'id="{claim_anchor("demo/net")}"' in html
    # A topic's claims wait in a template (kb.js renders them near the screen), kept out of the page's
    # search text: each claim has a search entry of its own.
    assert '<section class="kb-claims kb-later" data-search-exclude><template>' in html
    assert "Count: <strong>2</strong>, recomputed at the pin as directories matching <code>src/backends/*</code>" in html
    assert '<span class="kb-label kb-label-unknown kb-mark">Unknown</span>' in html


def test_filters_select_claims(site):
    catalog, lock = site
    html = render_page("<!-- kb:claims engine=demo label=unknown -->", "x.md", catalog, lock)
    assert "demo/gap" in html and "demo/net" not in html
    html = render_page("<!-- kb:claims layer=kind -->", "x.md", catalog, lock)
    assert "demo/net" in html and "demo/gap" not in html


@pytest.mark.parametrize(
    "page, message",
    [
        ("<!-- kb:claim demo/nothing -->", "x.md:3: kb:claim: unknown claim 'demo/nothing'"),
        ("<!-- kb:claims engine=nosuch -->", "x.md:3: kb:claims: unknown engine nosuch"),
        ("<!-- kb:claims dimension=kind.nothing -->", "unknown dimension 'kind.nothing'"),
        ("<!-- kb:claims label=sure -->", "unknown label 'sure'"),
        ("<!-- kb:claims colour=red -->", "unknown option colour"),
        ("<!-- kb:claims engine=other -->", "selects no claim"),
        ("<!-- kb:table -->", "unknown directive"),
        ("<!-- kb:ref -->", "names no claim id"),
    ],
)
def test_unknown_names_fail_with_page_and_line(site, page, message):
    catalog, lock = site
    with pytest.raises(RenderError) as caught:
        render_page(f"# Page\n\n{page}\n", "x.md", catalog, lock)
    assert message in str(caught.value)


def test_a_cite_without_a_lock_entry_fails_the_page(site):
    catalog, _ = site
    with pytest.raises(RenderError, match="has no lock entry: run citecheck"):
        render_page("<!-- kb:claim demo/net -->", "x.md", catalog, Lock())


def test_directives_inside_code_fences_and_double_braces_are_left_alone(site):
    catalog, lock = site
    page = "```html\n<!-- kb:claim demo/nothing -->\n{{ jinja }}\n```\n\n`{{ x }}` {% raw %}\n"
    assert render_page(page, "x.md", catalog, lock) == page


def test_refs_link_to_the_engine_page_anchor(site):
    catalog, lock = site
    assert engine_page("llama.cpp") == "engines/llama_cpp.md"
    here = render_page("see <!-- kb:ref demo/gap -->", "engines/demo.md", catalog, lock)
    assert 'href="#claim-demo-gap"' in here
    there = render_page("see <!-- kb:ref demo/gap -->", "analysis/compare.md", catalog, lock)
    assert 'href="../engines/demo.md#claim-demo-gap"' in there


def test_engine_table_and_coverage(site):
    catalog, lock = site
    html = render_page("<!-- kb:engines -->\n<!-- kb:coverage -->", "index.md", catalog, lock)
    assert catalog.engines["demo"].pin[:12] in html
    assert '<a href="engines/demo.md">Demo</a>' in html and "no analysis yet" in html  # "other" has no claims
    assert "1 Verified" in html and "1 Unknown" in html
    assert "Other" not in html.split("kb-coverage")[1]  # engines without claims are left out by default


def test_compare_links_each_engines_claims_per_row(site):
    catalog, lock = site
    html = render_page("<!-- kb:compare layer=scheduler -->", "analysis/comparison.md", catalog, lock)
    assert "Request and token scheduling" in html
    assert 'href="../engines/demo.md#claim-demo-gap"' in html
    assert ">gap</a>" in html  # the slug only: the column names the engine
    assert "demo/net" not in html  # a kind.* claim is not on a scheduler row
    with pytest.raises(RenderError, match="needs layer=KEY"):
        render_page("<!-- kb:compare -->", "x.md", catalog, lock)
    with pytest.raises(RenderError, match="unknown option colour"):
        render_page("<!-- kb:compare layer=kind colour=red -->", "x.md", catalog, lock)


def test_engine_card_shows_the_pin_and_label_counts(site):
    catalog, lock = site
    html = render_page("<!-- kb:engine demo -->", "engines/demo.md", catalog, lock)
    assert catalog.engines["demo"].pin in html and "1 Verified" in html and "1 Unknown" in html
    with pytest.raises(RenderError, match="unknown engine nosuch"):
        render_page("<!-- kb:engine nosuch -->", "x.md", catalog, lock)


MODELS = """
- id: demo/tts-family
  label: unknown
  dimension: kind.unit-of-work
  text: A two-stage TTS family.
  model:
    family: DemoTTS
    task: tts
    stages: ["talker: an autoregressive `LM`", "codec <b>decoder</b>"]
    streaming: chunked
    deploy: [configs/demo_tts.yaml]
"""


def test_a_report_lives_on_its_own_page_and_renders_a_model_table(demo_project):
    """claims/<engine>/<report>/*.yaml: its claims link to the report page and leave the engine page."""
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIMS, "demo/models/tts.yaml": MODELS}))
    claim = catalog.claim("demo/tts-family")
    assert claim.report == "models" and claim.model.stages[1] == "codec <b>decoder</b>"
    assert engine_page("demo", "models") == "engines/demo_models.md"
    engine_html = render_page("<!-- kb:claims engine=demo label=unknown -->", "engines/demo.md", catalog, Lock())
    assert "demo/gap" in engine_html and "demo/tts-family" not in engine_html
    table = render_page("<!-- kb:models engine=demo task=tts -->", "engines/demo_models.md", catalog, Lock())
    assert "<td>DemoTTS</td><td>tts</td>" in table
    assert "<li>talker: an autoregressive <code>LM</code></li><li>codec &lt;b&gt;decoder&lt;/b&gt;</li>" in table
    assert '<code>configs/demo_tts.yaml</code>' in table and 'href="#claim-demo-tts-family"' in table
    ref = render_page("<!-- kb:ref demo/tts-family -->", "engines/demo.md", catalog, Lock())
    assert 'href="demo_models.md#claim-demo-tts-family"' in ref
    with pytest.raises(RenderError, match="selects no claim with a model"):
        render_page("<!-- kb:models engine=demo task=vla -->", "x.md", catalog, Lock())


def test_layer_lists_open_each_topic_with_a_real_heading(site):
    catalog, lock = site
    page = "<!-- kb:claims engine=demo -->\n<!-- kb:claims engine=demo -->\n"
    html = render_page(page, "engines/demo.md", catalog, lock)
    assert "\n\n### Unit of work the public API accepts {#topic-demo-kind-unit-of-work .kb-topic" in html
    assert "{#topic-demo-kind-unit-of-work-2 " in html  # the same topic twice on a page stays unique
    one = render_page("<!-- kb:claims engine=demo dimension=scheduler.request -->", "engines/demo.md", catalog, lock)
    assert "{#topic" not in one  # a list of one dimension is that topic already


INJECTED = """
- id: demo/sneaky
  label: unknown
  dimension: kind.category
  text: "See [here](javascript:alert(1)) **now**\\n\\n# Heading\\n\\n| a | b |"
  note: "*first*\\n\\n<img src=x onerror=alert(1)>"
"""


def test_record_text_cannot_leave_its_html_block(demo_project):
    catalog = load_catalog(demo_project({"demo/a.yaml": INJECTED}))
    html = render_page("<!-- kb:claims engine=demo heading=none -->", "x.md", catalog, Lock())
    assert "\n\n" not in html.strip() and "\n#" not in html  # no line Markdown could read as its own
    assert "javascript:" in html and 'href="javascript' not in html  # kept as text, never a link
    assert "<strong>now</strong>" in html and "<em>first</em>" in html
    assert "<img" not in html and "&lt;img src=x onerror=alert&#40;1&#41;&gt;" in html


CELLS = """
- {dimension: kind.unit-of-work, verdict: partial, answer: "One `Net` at a time.", rests_on: [demo/net, demo/gap2]}
- {dimension: scheduler.request, verdict: no, answer: Nothing queues requests., rests_on: [demo/gap]}
"""
GAP2 = """
- id: demo/gap2
  label: inferred
  dimension: kind.unit-of-work
  text: Probably one call per request.
- id: demo/gap
  label: unknown
  dimension: scheduler.request
  text: Nothing schedules requests.
  absence: true
  note: Searched with git grep -i queue at the pin, no match.
"""


def test_cells_render_verdict_answer_derived_label_and_evidence(site, demo_project):
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIMS.split("- id: demo/gap")[0] + GAP2, "demo/cells.yaml": CELLS}))
    lock = site[1]
    html = render_page("<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, lock)
    # Verdict on the summary's first line, then the answer; the derived label and the evidence's ids
    # for kb.js, which draws the evidence from claims.json on tap.
    assert ('<details class="kb-cell kb-verdict-partial" data-label="inferred" data-evidence="demo/net demo/gap2">'
            '<summary>partial&#10;One <code>Net</code> at a time.</summary></details>') in html
    assert '<table class="kb-matrix kb-cells">' in html and '<th data-engine="demo">Demo</th>' in html
    assert '<tr id="row-kind-unit-of-work" data-row="kind.unit-of-work"><th scope="row"><a class="kb-row-link" href="#row-kind-unit-of-work">' in html
    assert html.count('<td data-engine="demo">') == html.count("<tr id=")
    twice = render_page("<!-- kb:cells layer=kind -->\n\n<!-- kb:cells layer=kind -->", "analysis/c.md", catalog, lock)
    assert 'id="row-kind-unit-of-work-2"' in twice  # row anchors stay unique on a page
    from claimtool.stats import compute_stats
    assert compute_stats(catalog)["cells"]["demo"] == {"kind.unit-of-work": "partial", "scheduler.request": "no"}


def test_a_chosen_list_of_claims_keeps_the_page_order(site):
    catalog, lock = site
    html = render_page("<!-- kb:claim demo/gap demo/net -->", "engines/demo.md", catalog, lock)
    assert html.index("claim-demo-gap") < html.index("claim-demo-net")
