"""Search answers: the theme's own search worker, in Chromium, over the built site's index, puts the page
that answers each query first, finds the same pages for the spellings of one thing, and finds files and
symbols a claim cites; the pages' index alone, which the first search waits for, already answers every
query that is not about one claim; and in the search box a claim's entry comes once its index is added.
Unit tests of the words that make it so (kbsite/searchwords.py) come first."""

import shutil

import pytest
from playwright.sync_api import sync_playwright

from kbsite.searchwords import code_files, file_words, shortened, split_claims, variant_words, with_search_words
from searching import first_pages
from sitebuild import built_project_site, served

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# A query, and the page a reader asking it should get first (why, when it is not the page's title).
FIRST = {
    "startup time": "analysis/figures/",  # the start-up times side by side; the site writes "start-up"
    "start-up time": "analysis/figures/",
    "patch.py": "edge/environment/",  # where the study's CPU patches live, and that they are not upstream
    "vulkan": "engines/ncnn/",  # ncnn's only GPU path is Vulkan
    "prefill": "edge/comparisons/",
    "csv": "analysis/explorer/",  # the explorer exports its rows as CSV
    "explorer": "analysis/explorer/",
    "barge-in": "analysis/scenarios/barge-in/",
    "iphone": "analysis/scenarios/tts-iphone-app/",
    "raspberry pi": "analysis/scenarios/tts-raspberry-pi/",
    "ios binary size": "analysis/scenarios/smallest-ios-binary/",
    "8 gb board": "analysis/scenarios/memory-8gb-board/",
    "windows desktop": "analysis/scenarios/tts-windows-desktop/",
    "datacenter serving": "analysis/scenarios/tts-datacenter-serving/",
    "android streaming": "analysis/scenarios/tts-android-streaming/",
    "gguf": "engines/llama_cpp/",
    "pnnx": "engines/ncnn/",
    "xnnpack": "engines/executorch/",
    "opencl": "engines/mnn/",
    "torch.export": "engines/executorch/",
    "paged attention": "engines/vllm/",
    "shared facts": "analysis/shared_facts/",
    "disagreements": "analysis/disagreements/",
    "model families": "models/",
    "citecheck": "maintainers/",
    "CosyVoice": "models/cosyvoice/",
    "load_param": "engines/ncnn/",  # a symbol ncnn's claims cite, not written in their text
    "Extractor": "engines/ncnn/",
    "ncnn/vulkan-layer-count": "engines/ncnn/",  # a claim id
    "startup": "analysis/figures/",
    "patch": "edge/environment/",
    "decode": "edge/comparisons/",
    "json export": "analysis/explorer/",
    "metal": "engines/mnn/",  # MNN's Apple GPU backend, beside OpenCL and Vulkan
    "llama-bench": "engines/llama_cpp/",
    "stage connector": "engines/vllm_omni/",
    "jetson realtime": "analysis/scenarios/tts-jetson-realtime/",
}
# Queries only a claim's own words answer (symbols its cites name): the pages' index alone may miss them.
ABOUT_ONE_CLAIM = {"load_param", "Extractor"}
# Spellings of one thing, which must find the same pages, the same one first.
SAME = [("quantisation", "quantization"), ("kv cache", "kvcache", "kv-cache"),
        ("optimisation", "optimization")]


def test_other_spellings_of_what_a_text_says():
    words = variant_words("<p>The <em>start-up</em> time of the KV cache after quantisation, optimised.</p>")
    assert {"startup", "kvcache", "kv-cache", "quantization", "optimized"} <= words
    assert "start-up" not in words and variant_words("raise the limit") == set()
    assert variant_words("precise advice") == set()  # -ise words outside the list keep their spelling


def test_file_names_and_symbols_as_a_reader_types_them():
    assert file_words(["vllm_omni/patch.py", "Net::load_param", "GPUModelRunner.execute_model", "claims.csv"]) == {
        "patch.py", "py", "load_param", "execute_model", "claims.csv", "csv"}
    assert file_words(["src/net.cpp"], extensions=False) == {"net.cpp"}
    assert code_files("<p><code>vllm_omni/patch.py</code>, <code>x = 1</code> and <code>claims.csv</code></p>") == [
        "vllm_omni/patch.py", "claims.csv"]


def test_a_long_text_is_shown_in_whole_blocks_and_the_rest_given_back():
    text = "<p>" + "a" * 50 + "</p> <ul><li>one</li><li>two</li></ul><p>" + "b" * 80 + "</p>"
    assert shortened(text, 1000) == (text, "")
    shown, rest = shortened(text, 100)  # the list ends within the limit, the last paragraph past it
    assert shown.endswith("</ul>") and rest == "<p>" + "b" * 80 + "</p>"
    shown, rest = shortened(text, 70)  # never inside the list
    assert shown == "<p>" + "a" * 50 + "</p>" and rest.startswith(" <ul>")
    shown, rest = shortened("<p>Tom &amp; Jerry <code>run.py</code> ran far away</p>", 20)
    assert shown == "<p>Tom &amp; Jerry run.py …</p>" and rest == " ran far away"


def test_a_cut_text_is_indexed_as_its_words_once_without_stop_words():
    text = "<p>Short.</p><p>" + "The vulkan path, (vulkan) and AT&amp;T on VULKAN ready. " * 20 + "</p>"
    index = {"config": {"fields": {}}, "docs": [{"location": "a/", "title": "Ready", "text": text}]}
    [doc] = with_search_words(index, {}, {})["docs"]
    assert doc["text"] == "<p>Short.</p>"
    assert doc["words"].split() == ["at&amp;t", "path", "vulkan"]  # once, escaped; "ready" is in the title


def test_the_claims_entries_are_split_from_the_pages():
    index = {"config": {"fields": {}}, "docs": [{"location": "a/"}, {"location": "a/#claim-x"}, {"location": "b/"}]}
    pages, claims = split_claims(index, {"a/#claim-x": []})
    assert pages == {"config": {"fields": {}}, "docs": [{"location": "a/"}, {"location": "b/"}]}
    assert claims == {"docs": [{"location": "a/#claim-x"}]}


def test_the_index_gains_fields_weights_and_words_it_lacked():
    index = {"config": {"fields": {"title": {"boost": 1000}, "text": {"boost": 1}}}, "docs": [
        {"location": "a/", "title": "Start-up", "text": "<p>See <code>src/patch.py</code>.</p>"},
        {"location": "a/#claim-x", "title": "e/x (Verified)", "text": "<p>It quantises.</p>"},
    ]}
    with_search_words(index, {"a/": ["vulkan"]}, {"a/#claim-x": ["src/runner.cpp", "Runner::step"]})
    page, claim = index["docs"]
    assert index["config"]["fields"]["words"] == {"boost": 1} and index["config"]["fields"]["topics"]["boost"] == 1000
    assert set(page["topics"].split()) == {"vulkan", "startup"}  # a title's spelling weighs as the title
    assert set(page["words"].split()) == {"patch.py", "py"} and page["boost"] == 2
    assert set(claim["words"].split()) == {"quantizes", "runner.cpp", "step"} and "boost" not in claim


@pytest.fixture(scope="module")
def tab(tmp_path_factory):
    out = built_project_site(tmp_path_factory)
    with served(out) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(f"{url}/", wait_until="load")
        yield page
        browser.close()


def test_each_query_puts_its_answering_page_first(tab):
    assert len(FIRST) >= 20
    got = first_pages(tab, list(FIRST))
    wrong = {query: got[query][:3] for query, page in FIRST.items() if got[query][:1] != [page]}
    assert wrong == {}


def test_the_pages_index_alone_answers_all_but_one_claims_queries(tab):
    queries = [query for query in FIRST if query not in ABOUT_ONE_CLAIM]
    got = first_pages(tab, queries, with_claims=False)
    wrong = {query: got[query][:3] for query in queries if got[query][:1] != [FIRST[query]]}
    assert wrong == {}
    assert not any("#claim-" in page for pages in got.values() for page in pages)


def test_the_search_box_gains_a_claims_entry_once_their_index_is_added(tab):
    """search-later.js: the first answer comes from the pages' index; the claims' index follows, and the
    query in the box is asked again, so a claim's own entry appears without typing anything more."""
    page = tab.context.browser.new_page()
    try:
        page.goto(tab.url + "engines/mnn/", wait_until="domcontentloaded")
        page.locator("input.md-search__input").click()
        page.keyboard.type("ncnn/vulkan-layer-count")
        page.locator(".md-search-result__link[href$='#claim-ncnn-vulkan-layer-count']").wait_for(timeout=30000)
        requested = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert [url for url in requested if url.endswith("/search/search_claims.json")]
    finally:
        page.close()


def test_the_spellings_of_one_thing_find_the_same_pages(tab):
    got = first_pages(tab, [query for group in SAME for query in group])
    for group in SAME:
        assert got[group[0]], group
        # The same first page, and each one's first five pages found by the others: below the first the
        # order may differ a little, as the index weighs a word by the length of the field it is in.
        assert all(got[query][:1] == got[group[0]][:1] for query in group), {query: got[query][:3] for query in group}
        assert all(set(got[query][:5]) <= set(got[other]) for query in group for other in group), group
