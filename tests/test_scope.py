"""`scope`: a Verified claim that generalises says how far it was checked, or lint rejects it."""

import pytest

from enginekb.load import load_catalog
from enginekb.problems import CatalogError
from enginekb.scope import generalisations


@pytest.mark.parametrize("text, kind", [
    ("CPU int8 W8A8 goes through `CPUInt8ScaledMMLinearKernel`.", "the mechanism"),
    ("The Apple GPU path is the Metal backend.", "the mechanism"),
    ("macOS builds four GPU-capable delegates.", "complete count"),
    ("Only the CPU backend implements it.", "exclusive"),
    ("Every backend reports false.", "universal"),
    ("No other runtime reads the file.", "absolute"),
    ("Dequantisation is implicit in the kernel.", "the mechanism"),
])
def test_generalisations_are_found(text, kind):
    assert [found.split(":")[0] for found in generalisations(text)] == [kind]


@pytest.mark.parametrize("text", [
    "`Net::load` opens the file.",
    "The override applies only when the environment variable is set.",  # a condition, one path
    "Each layer packs its weights at load.",  # distributive, not a category claim
    "`ONLY_ONE` is a constant in `every_backend.h`.",  # code spans are names
])
def test_single_path_statements_are_left_alone(text):
    assert generalisations(text) == []


def test_a_count_record_is_the_scope_of_its_number():
    assert generalisations("There are 14 backend ids.", counted=True) == []
    assert generalisations("There are 14 backend ids.") == ["complete count: '14 backend'"]


CLAIM = """
- id: demo/only-cpu
  label: {label}
  dimension: kind.category
  text: Only the CPU backend uses `Net::load`.
  cites:
    - {{file: src/net.cpp, symbol: Net::load}}
{extra}"""


def test_lint_rejects_a_verified_generalisation_without_scope(demo_project):
    project = demo_project({"demo/a.yaml": CLAIM.format(label="verified", extra="")})
    with pytest.raises(CatalogError) as caught:
        load_catalog(project)
    [problem] = caught.value.problems
    assert str(problem).endswith(
        "a.yaml:1: demo/only-cpu: the text generalises (exclusive: 'Only the') but has no `scope`: say which "
        "sibling paths were read and how, narrow the text, or label it inferred")


@pytest.mark.parametrize("label, extra", [
    ("verified", "  scope: All backend directories under src/ listed; the GPU backend has no loader (git grep)."),
    ("inferred", ""),  # only a Verified claim promises that the code shows the generalisation
])
def test_a_scoped_or_unverified_generalisation_passes(demo_project, label, extra):
    catalog = load_catalog(demo_project({"demo/a.yaml": CLAIM.format(label=label, extra=extra)}))
    assert catalog.claim("demo/only-cpu").scope == (extra.split("scope: ", 1)[1] if extra else None)


def test_a_blank_scope_is_rejected(demo_project):
    project = demo_project({"demo/a.yaml": CLAIM.format(label="verified", extra='  scope: " "')})
    with pytest.raises(CatalogError) as caught:
        load_catalog(project)
    assert any("scope must not be blank" in str(p) for p in caught.value.problems)


def _every_pattern(text: str, counted: bool = False) -> list[str]:
    """generalisations() without its shortcut: every pattern run on every text."""
    from enginekb.scope import CODE_SPAN, PATTERNS

    prose, found = CODE_SPAN.sub(" x ", text), []
    for kind, pattern in PATTERNS:
        match = None if kind == "complete count" and counted else pattern.search(prose)
        if match:
            found.append(f"{kind}: {' '.join(match.group(0).split())!r}")
    return found


@pytest.mark.parametrize("text", [
    "EVERY\tBACKEND reports it.", "All\nthe delegates agree.", "ONLY THE CPU path", "TWELVE OPS", "It is 3 ops.",
    "It goes THROUGH the loader.", "Regardless Of the build.", "The fast ROUTE.", "three-dimensional ops",
    "Twelve backends", "alſo two models", "Ӏ only run", "any of the GPUs", "It runs on cpu only.",
])
def test_the_words_a_pattern_needs_skip_no_match(text):
    """A pattern is skipped when an ASCII text lacks every word it needs: that never drops a match."""
    for counted in (False, True):
        assert generalisations(text, counted) == _every_pattern(text, counted)


def test_the_shortcut_agrees_on_every_claim():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    catalog = load_catalog(root)
    for claim in catalog.claims:
        for text in (claim.text, claim.note or "", claim.scope or ""):
            assert generalisations(text) == _every_pattern(text), claim.id
            assert generalisations(text.upper()) == _every_pattern(text.upper()), claim.id


@pytest.mark.parametrize("text", ["It runs on every bаckend.",  # Cyrillic а
                                  "Only οne path exists.",  # Greek ο
                                  "ａｌｌ backends take it.",  # fullwidth
                                  "It is аlwаys on."])
def test_look_alike_letters_do_not_hide_a_generalisation(text):
    assert generalisations(text), text
