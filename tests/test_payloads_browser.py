"""An attacker's records: markup, links with event handlers, javascript:/data: URLs, quotes that close
attributes and HTML entities in every field that reaches a page. The site builds strictly, and in
headless Chromium nothing runs with every element hovered, focused and clicked, the cells' evidence
open and search results shown. The built HTML holds no handler attribute and no URL of another scheme."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from payloads import PAGES, WORD, payload_project
from sitebuild import build_site, served
from test_browser import CHROMIUM

# Our own one inline handler: the explorer's form does not submit.
OWN_HANDLERS = {("form", "onsubmit", "return false")}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data"}


@pytest.fixture(scope="module")
def payload_site(tmp_path_factory):
    root = payload_project(tmp_path_factory.mktemp("payloads") / "project")
    out = root / "site"
    done = build_site(root / "mkdocs.yml", out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _page_paths() -> list[str]:
    return [page.removesuffix("index.md").removesuffix(".md") + ("/" if page != "index.md" else "") for page in PAGES]


class _Markup(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        self.in_script = tag == "script"
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") and (tag, name, value) not in OWN_HANDLERS:
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in URL_ATTRIBUTES and urlsplit(value.strip()).scheme not in ("", "http", "https"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name == "style" and "url(" in value:
                self.found.append(f"<{tag} style={value!r}>")

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, data):
        if self.in_script and "alert(" in data:
            self.found.append(f"<script>{data[:80]}")


def test_the_built_pages_hold_no_handler_and_no_foreign_url(payload_site):
    found = {}
    for page in _page_paths():
        parser = _Markup()
        parser.feed((payload_site / page / "index.html").read_text(encoding="utf-8"))
        if parser.found:
            found[page] = parser.found
    assert found == {}
    index = "".join((payload_site / "search" / name).read_text(encoding="utf-8")
                    for name in ("search_index.json", "search_claims.json"))
    assert "<img" not in index and "<script" not in index and "<svg" not in index


@pytest.fixture(scope="module")
def payload_url(payload_site):
    with served(payload_site) as url:
        yield url


@pytest.fixture(scope="module")
def tab():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
        page.dialogs = []  # every payload calls alert(): a dialog is the proof that one ran, even across pages
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        yield page
        browser.close()


# Every element of the page's content, with the theme's search results, in document order.
TARGETS = ".md-content *, .md-search-result *"
# In the page, for every element: the events a pointer hovering it sends, focus, and a click. A click
# that would load another document of the site is held back (that cannot run script here and would
# end the walk); a javascript: or data: link is followed.
STAY = """() => {
  document.querySelectorAll("details").forEach(d => d.open = true);
  document.addEventListener("click", event => {
    const link = event.target.closest && event.target.closest("a[href]");
    if (link && /^(https?:|[^:]*$)/i.test(link.getAttribute("href"))) event.preventDefault();
  }, true);
}"""
WALK = """(selector) => {
  const elements = Array.from(document.querySelectorAll(selector));
  for (const element of elements) {
    for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove"]) {
      element.dispatchEvent(new MouseEvent(type, {bubbles: type.indexOf("enter") < 0, cancelable: true, view: window}));
    }
    if (element.focus) element.focus();
    element.dispatchEvent(new FocusEvent("focusin", {bubbles: true}));
    if (element.click) element.click();
  }
  return elements.length;
}"""
BOX = """(element) => {
  element.scrollIntoView({block: "center", inline: "center"});
  const box = element.getBoundingClientRect();
  return box.width && box.height ? [box.x + box.width / 2, box.y + box.height / 2] : null;
}"""
# What a reader points at: these also get the real mouse (hover, then a click).
POINTED = ".md-content a, .md-content summary, .md-content button, .md-content [title], .md-content [tabindex]"


def _touch_everything(page, url: str) -> int:
    """Every element hovered, focused and clicked; the count touched."""
    page.goto(url)
    page.evaluate(STAY)
    total = page.evaluate(WALK, TARGETS)
    assert page.dialogs == [], url
    page.goto(url)
    page.evaluate(STAY)
    pointed = page.locator(POINTED)
    for index in range(pointed.count()):
        point = pointed.nth(index).evaluate(BOX)
        if point:  # hidden elements were touched by the walk
            page.mouse.move(*point)
            page.mouse.click(*point)
        assert page.dialogs == [], (url, index)
    return total


def test_nothing_runs_on_any_page_when_everything_is_hovered_focused_and_clicked(tab, payload_url):
    touched = 0
    for path in _page_paths():
        touched += _touch_everything(tab, f"{payload_url}/{path}")
        assert tab.dialogs == [], path
    assert touched > 300  # the content was there to touch


def test_nothing_runs_from_search_results(tab, payload_url):
    tab.goto(f"{payload_url}/")
    tab.locator("input.md-search__input").click()
    tab.keyboard.type(WORD, delay=20)
    tab.locator(".md-search-result__item").first.wait_for(timeout=20000)
    tab.wait_for_timeout(500)
    for item in tab.locator(".md-search-result__item").all():
        item.hover()
    assert tab.dialogs == []
