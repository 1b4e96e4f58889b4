"""Scripts the build writes into every page's <head>, where they run before the theme's bundle: from
files beside this module (kept as files so that they read and diff as JavaScript)."""

from __future__ import annotations

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
