"""kb:related: measured figures of one quantity side by side with the provenance fields that differ, on
the project's own records; a page that names them wrongly fails with its line and the reason."""

import re

import pytest

from citecheck.lock import Lock
from enginekb.load import load_catalog
from kbsite.render import RenderError, render_page
from upstream import PROJECT

STARTS = "vllm-omni/init-cold-1p7b vllm-omni/init-default-1p7b vllm-omni/init-parallel-1p7b"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(PROJECT)


def test_figures_sorted_by_value_with_the_fields_that_differ_and_those_shared(catalog):
    page = render_page(f'<!-- kb:related quantity="Start-up" {STARTS} -->\n', "analysis/x.md", catalog, Lock())
    figures = [float(value) for value in re.findall(r'<td class="kb-figure"><strong>([\d.]+)</strong>', page)]
    assert figures == sorted(figures) == [94.58, 152.04, 355.54]
    heads = re.findall(r"<th>([^<]+)</th>", page)
    assert heads[:2] == ["Figure", "What was measured"] and "Quantisation" in heads  # --parallel-stage-init
    assert "bf16, default deploy configuration with --parallel-stage-init" in page  # the whole field
    assert "Machine" not in heads and "Date" not in heads  # one machine, one day: said once, under the table
    assert re.search(r"The same in all:</strong> machine an H200-class NVIDIA GPU that nvidia-smi names", page)
    assert page.count('class="kb-claim-id" href="x/') == 0 and page.count('#claim-vllm-omni-init-') == 3


@pytest.mark.parametrize("directive, message", [
    (f"<!-- kb:related {STARTS} -->", "needs quantity="),
    ('<!-- kb:related quantity="x" vllm-omni/init-cold-1p7b -->', "two figures or more"),
    ('<!-- kb:related quantity="x" vllm-omni/init-cold-1p7b vllm-omni/init-cold-1p7b -->', "names a record twice"),
    ('<!-- kb:related quantity="x" vllm-omni/init-cold-1p7b llama.cpp/race-cpu-memory -->', "share a unit; these are in GiB, s"),
    ('<!-- kb:related quantity="x" vllm-omni/init-cold-1p7b ncnn/vulkan-only-gpu -->', "ncnn/vulkan-only-gpu: not a measured claim"),
    ('<!-- kb:related quantity="x" unit=s vllm-omni/init-cold-1p7b vllm-omni/init-default-1p7b -->', "unknown option unit"),
])
def test_a_wrongly_named_group_fails_with_the_reason(catalog, directive, message):
    with pytest.raises(RenderError) as caught:
        render_page(f"# Page\n\n{directive}\n", "analysis/x.md", catalog, Lock())
    assert message in str(caught.value) and str(caught.value).startswith("analysis/x.md:3:")
