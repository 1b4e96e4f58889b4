"""Model records (claims/models/<id>.yaml): each lint rule with a case that breaks it, the stats report
and the rendering of a family page and the families table."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from conftest import changed_copy, lock_for
from upstream import make_project

from citecheck.lock import Lock
from claimtool.cli import main as claims
from enginekb.load import load_catalog
from kbsite.render import render_page

CLAIMS = {
    "demo/a.yaml": """\
        - id: demo/size
          label: repo-reported
          dimension: tts.families
          text: The README says the model is 80 MB.
          cites: [{file: README.md, phrase: 80 MB}]
        - id: demo/runs-speak
          label: verified
          dimension: tts.families
          text: The example runs Speak.
          cites: [{file: src/speak.cpp, symbol: speak}]
        - id: demo/guess
          label: inferred
          dimension: tts.families
          text: Probably about 80 MB.
        """,
    "other/a.yaml": """\
        - id: other/no-tts
          label: verified
          dimension: tts.families
          text: No TTS family is in the tree.
          absence: true
          note: Searched with git grep -i tts.
          cites: [{file: README.md, phrase: models}]
        - id: other/has-tts
          label: verified
          dimension: tts.families
          text: A TTS family is mentioned.
          cites: [{file: README.md, phrase: tts}]
        """,
    "context/wheels.yaml": """\
        - id: context/shared
          label: verified
          dimension: platform.jetson
          text: The wheels lack one architecture.
          cites: [{repo: demo, file: README.md, phrase: wheels}]
        """,
}

RECORD = {
    "id": "speak-tts",
    "name": "Speak TTS",
    "task": "tts",
    "summary": "Text in, speech out.",
    "variants": [
        {"name": "small", "checkpoint": "org/speak-small",
         "parameters": {"value": "80M", "card": "https://example.org/speak-small"},
         "weights": [{"precision": "fp16", "size": {"value": "80 MB", "claim": "demo/size"}}]},
        {"name": "large", "parameters": {"unknown": "Not stated."}, "weights": []},
    ],
    "licence": {"weights": {"value": "MIT", "card": "https://example.org/speak-small"},
                "components": [{"name": "espeak-ng", "role": "phonemiser",
                                "licence": {"value": "GPL-3.0", "card": "https://example.org/espeak"}}]},
    "access": {"value": "open", "card": "https://example.org/speak-small"},
    "inputs": [{"kind": "reference-audio", "value": "A clip of the voice.", "claim": "demo/runs-speak"}],
    "ports": {"demo": {"variants": ["small"], "how": "The example's runner.", "rests_on": ["demo/runs-speak", "context/shared"]}},
    "no_port": {"other": ["other/no-tts"]},
}


def project(tmp_path, record=None, name="speak-tts", engines=None):
    root = make_project(tmp_path / "project", engines or {"demo": {}, "other": {}}, CLAIMS)
    target = root / "claims" / "models" / f"{name}.yaml"
    target.parent.mkdir()
    target.write_text(yaml.safe_dump(record or RECORD, sort_keys=False, allow_unicode=True))
    return root



def changed(path: str, value) -> dict:
    return changed_copy(RECORD, path, value)


def line_of(root, where, name="speak-tts") -> int:
    """The line of the record file holding `where`: a text (its first occurrence) or (text, nth)."""
    text, nth = where if isinstance(where, tuple) else (where, 1)
    lines = (root / "claims" / "models" / f"{name}.yaml").read_text().splitlines()
    return [number for number, line in enumerate(lines, 1) if text in line][nth - 1]


def test_a_valid_record_loads_with_every_field(tmp_path):
    catalog = load_catalog(project(tmp_path))
    (record,) = catalog.models
    assert [v.name for v in record.variants] == ["small", "large"]
    assert record.variants[0].weights[0].size.source_label(catalog) == "repo-reported"
    assert record.variants[0].parameters.source_label(catalog) == "card"
    assert record.variants[1].parameters.source_label(catalog) == "unknown"
    assert [(p.engine, p.variants) for p in record.ports] == [("demo", ("small",))]
    assert [p.engine for p in record.no_port] == ["other"]


def test_stats_report_models_with_the_source_of_each_value(tmp_path, monkeypatch, capsys):
    root = project(tmp_path)
    monkeypatch.chdir(root)
    assert claims(["--root", str(root), "stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    model = stats["models"]["speak-tts"]
    assert model["variants"]["small"] == {"parameters": {"value": "80M", "source": "card"},
                                          "weights": {"fp16": {"value": "80 MB", "source": "repo-reported"}}}
    assert model["licence"] == {"value": "MIT", "source": "card"}
    assert model["components"] == {"espeak-ng": {"role": "phonemiser", "value": "GPL-3.0", "source": "card"}}
    assert model["ports"] == {"demo": ["small"]} and model["no_port"] == ["other"] and model["inputs"] == ["reference-audio"]
    assert stats["context"] == 1


# Each rule: the change that breaks it, the text the record line must hold, and the message.
BROKEN = [
    (changed("id", "speak"), "id: speak", "id must be the file name ('speak-tts')"),
    (changed("variants.1.name", "small"), ("name: small", 2), "variants: a second variant named 'small' (first at line"),
    (changed("variants.0.weights", [{"precision": "fp16", "size": {"unknown": "x"}},
                                    {"precision": "fp16", "size": {"unknown": "y"}}]),
     "- name: small", "variants.small.weights: precision 'fp16' given twice"),
    (changed("uses", ["missing-codec"]), "id: speak-tts", "uses: unknown model record 'missing-codec'"),
    (changed("uses", ["speak-tts"]), "id: speak-tts", "uses: a record cannot use itself"),
    (changed("variants.0.weights.0.size.claim", "demo/missing"), "claim: demo/missing",
     "variants.small.weights.fp16: unknown claim 'demo/missing'"),
    (changed("variants.0.weights.0.size.claim", "demo/guess"), "claim: demo/guess",
     "variants.small.weights.fp16: demo/guess is inferred; a value rests on a Verified, repo-reported or measured claim"),
    (changed("licence.weights.card", 'https://example.org/a"b'), "example.org/a",
     "licence.weights: card: an https:// URL"),
    (changed("access.value", "free"), "value: free", "access: 'free' is not one of open, gated, none"),
    (changed("ports", {"ghost": {"variants": ["small"], "how": "x", "rests_on": ["demo/size"]}}), "ghost:",
     "ports.ghost: unknown engine"),
    (changed("ports.demo.variants", ["huge"]), "demo:", "ports.demo: variants: unknown variant 'huge'"),
    (changed("ports.demo.rests_on", ["demo/nothing"]), "demo:", "ports.demo: rests_on: unknown claim 'demo/nothing'"),
    (changed("ports.demo.rests_on", ["other/no-tts"]), "demo:",
     "ports.demo: rests_on: other/no-tts is a claim of other; a port rests on claims of demo or shared context claims"),
    (changed("no_port", {"demo": ["demo/size"]}), ("demo:", 2), "no_port.demo: the engine is listed under ports too"),
    (changed("no_port", {"other": ["other/has-tts"]}), "other:",
     "no_port.other: rests on at least one claim that states the absence (absence: true)"),
    (changed("access", {"value": "open", "claim": "demo/size", "card": "https://example.org/x"}), "access:",
     "access: a value with its source (value and claim, or value and card), or unknown: WHY"),
    (changed("task", "music"), "task: music", "task: 'music' is not one of"),
]


@pytest.mark.parametrize("record, where, message", BROKEN, ids=[m for _, _, m in BROKEN])
def test_each_rule_is_an_error_at_its_line(tmp_path, lint, record, where, message):
    root = project(tmp_path, record)
    code, text = lint(root)
    expected = f"claims/models/speak-tts.yaml:{line_of(root, where)}: {record['id']}: {message}"
    assert code == 2 and expected in text and "Traceback" not in text, text


def test_the_valid_record_passes_lint(tmp_path, lint):
    code, text = lint(project(tmp_path))
    assert code == 0, text


@pytest.mark.parametrize("reserved", ["models", "context"])
def test_models_and_context_are_not_engine_ids(tmp_path, lint, reserved):
    root = project(tmp_path, engines={"demo": {}, "other": {}, reserved: {}})
    code, text = lint(root)
    assert code == 2 and f"claims/engines.yaml:1: {reserved}: engine id {reserved!r} is taken" in text, text


def test_a_broken_record_file_is_a_clear_error(tmp_path, lint):
    root = project(tmp_path)
    (root / "claims/models/speak-tts.yaml").write_text("- just a list\n")
    code, text = lint(root)
    assert code == 2 and "claims/models/speak-tts.yaml:1: speak-tts: " in text and "Traceback" not in text, text



def test_a_family_page_shows_each_value_beside_its_source_and_escapes_the_record(tmp_path):
    record = changed("summary", "<script>alert(1)</script> `speak`")
    record["name"] = "Speak <b>TTS</b> [x](javascript:alert(1))"
    record["ports"]["demo"]["how"] = '<img src=x onerror=alert(1)> "quoted"'
    catalog = load_catalog(project(tmp_path, record))
    page = render_page("<!-- kb:family speak-tts heading=1 -->\n", "models/speak-tts.md", catalog, lock_for(catalog))
    assert "<script>" not in page and "<b>" not in page and "<img" not in page and "&lt;script&gt;" in page
    assert "<code>speak</code>" in page
    heading = page.strip().splitlines()[0]
    assert heading.startswith("# ") and "<" not in heading and "[" not in heading and "(" not in heading
    assert heading.endswith("{#model-speak-tts .kb-model-title}")
    # A claim shows as a reference with its label; a card as an unchecked link; unknown with its reason.
    assert 'class="kb-ref kb-ref-repo-reported"' in page and ">demo/size</a>" in page
    assert '<a class="kb-card" href="https://example.org/speak-small" rel="nofollow noopener">model card, not checked</a>' in page
    assert "Unknown</span> <span class=\"kb-fact-why\">Not stated.</span>" in page
    ports = page.split('class="kb-model-ports"')[1].split("</table>")[0]
    assert ports.index('data-engine="demo"') < ports.index('data-engine="other"')
    assert 'class="kb-no-port"' in ports and ">other/no-tts</a>" in ports and ">context/shared</a>" in ports
    index = render_page("<!-- kb:families -->\n", "models/index.md", catalog, lock_for(catalog))
    table = index.split('class="kb-families"')[1].split("</table>")[0]
    assert 'href="speak-tts.md#model-speak-tts"' in table and "Text to speech" in table and "<b>" not in table


def test_the_families_table_gives_each_variant_a_row_with_its_size_and_the_family_its_inputs(tmp_path):
    record = changed("variants.1.parameters.unknown", 'Not "stated" <b>here</b>.')
    record["inputs"].append({"kind": "text-front-end", "unknown": "Which phonemiser <i>is</i> not read."})
    catalog = load_catalog(project(tmp_path, record))
    index = render_page("<!-- kb:families -->\n", "models/index.md", catalog, lock_for(catalog))
    table = index.split('class="kb-families"')[1].split("</table>")[0]
    header = table.split("</thead>")[0]
    assert "Weights, per precision" in header and "Inputs a call needs" in header
    family = table.split('<tbody class="kb-family" data-model="speak-tts">')[1].split("</tbody>")[0]
    small, large = family.split("</tr>")[:2]
    # The family's own cells span both variant rows; each variant row has its name, count and size.
    assert 'rowspan="2" class="kb-family-name"' in small and "kb-family-name" not in large
    assert "<code>small</code>" in small and "<code>fp16</code>: 80 MB" in small
    assert 'class="kb-ref kb-ref-repo-reported" href="../engines/demo.md#claim-demo-size"' in small
    assert "<code>large</code>" in large and "no size recorded" in large and "kb-family-whole" not in large
    # Licences of the weights and of each component, access and the inputs, each with its source.
    assert "espeak-ng (phonemiser): GPL-3.0" in small and 'href="https://example.org/espeak"' in small
    assert "<code>reference-audio</code>" in small and "<code>text-front-end</code>" in small
    # A reason shows as a title, escaped; nothing of the record becomes markup.
    assert "<b>" not in table and "<i>" not in table and 'title="Not &#34;stated&#34;' in large
    assert 'title="Which phonemiser is not read."' in small
    assert table.index("Text to speech") < table.index('data-model="speak-tts"')


def test_families_refuses_an_unknown_task_and_an_empty_selection(tmp_path):
    from kbsite.errors import RenderError

    catalog = load_catalog(project(tmp_path))
    with pytest.raises(RenderError, match="unknown task music"):
        render_page("<!-- kb:families task=music -->\n", "models/index.md", catalog, Lock())
    with pytest.raises(RenderError, match="selects no model record"):
        render_page("<!-- kb:families task=vla -->\n", "models/index.md", catalog, Lock())
    with pytest.raises(RenderError, match="unknown model record 'nothing'"):
        render_page("<!-- kb:family nothing -->\n", "models/x.md", catalog, Lock())


def test_every_record_of_the_project_has_its_page():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    records = {path.stem for path in (root / "claims" / "models").glob("*.yaml")}
    pages = {path.stem for path in (root / "docs" / "models").glob("*.md")} - {"index"}
    assert records == pages
    for model_id in records:
        text = (root / "docs" / "models" / f"{model_id}.md").read_text()
        assert re.search(rf"<!-- kb:family {re.escape(model_id)} heading=1 -->", text), model_id
