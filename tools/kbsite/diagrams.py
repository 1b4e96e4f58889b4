"""The diagram fence: mermaid2's own, kept out of the search index.

A diagram's source is layout words ("graph TB", arrows, node ids) that no reader searches for and that
cost the index its budget; the page's prose says the same things in sentences.
"""

from __future__ import annotations

from mermaid2 import fence_mermaid


def fence_diagram(source, language, css_class, options, md, **kwargs):
    """mermaid2's `<div class="mermaid">`, inside a block the theme's search leaves out."""
    return f"<div data-search-exclude>{fence_mermaid(source, language, css_class, options, md, **kwargs)}</div>"
