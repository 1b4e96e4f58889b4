"""Scripts the build writes into every page's <head>, where they run before the theme's bundle: from
files beside this module (kept as files so that they read and diff as JavaScript)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_HERE = Path(__file__).parent / "inline"


@cache
def head_script(name: str) -> str:
    """`<script>` holding inline/`name`, its comment lines left out (they are for readers of the source)."""
    lines = (_HERE / name).read_text(encoding="utf-8").splitlines()
    code = "\n".join(line for line in lines if not line.lstrip().startswith("//"))
    return f"<script>{code}</script>"


def with_head_script(page_html: str, name: str) -> str:
    """`page_html` with the script first in its head (unchanged without a head)."""
    if "<head>" not in page_html:
        return page_html
    return page_html.replace("<head>", "<head>" + head_script(name), 1)


# Scripts only some pages use, each with a marker of the HTML that needs it. They are written into those
# pages alone, just before kb.js (deferred scripts run in page order: kb.js starts the explorer), so that
# every other page, the comparison first, does not fetch them before its first evidence panel.
PAGE_SCRIPTS = (
    ("kb-matrix.js", ('class="kb-matrix',)),
    ("kb-explorer.js", ('class="kb-explorer', 'class="kb-filtered')),
    ("explorer-export.js", ('class="kb-explorer',)),
    ("grid.js", ('class="kb-grid"',)),
    ("diagrams.js", ('class="mermaid"',)),
)
_KB_JS = re.compile(r'<script src="([^"]*)assets/kb\.js" defer></script>')


def with_page_scripts(page_html: str) -> str:
    """`page_html` with the deferred scripts its content needs (PAGE_SCRIPTS) before its kb.js, at the
    same relative path (unchanged without kb.js)."""
    found = _KB_JS.search(page_html)
    if not found:
        return page_html
    tags = "".join(f'<script src="{found.group(1)}assets/{name}" defer></script>\n'
                   for name, markers in PAGE_SCRIPTS if any(marker in page_html for marker in markers))
    return page_html[:found.start()] + tags + page_html[found.start():]
