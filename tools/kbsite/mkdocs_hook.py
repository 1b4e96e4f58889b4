"""MkDocs glue: load the records once per build and render each page's directives.

Kept to these few lines on purpose: moving to another generator means rewriting only this file.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from citecheck.lock import LOCK_NAME, LockError, read_lock
from enginekb.load import CLAIMS_DIR, load_catalog
from enginekb.problems import CatalogError
from kbsite.render import RenderError, render_page

_state: dict = {}


def on_config(config, **kwargs):
    root = Path(config["config_file_path"]).parent
    try:
        _state["catalog"] = load_catalog(root)
        _state["lock"] = read_lock(root / CLAIMS_DIR / LOCK_NAME)
    except (CatalogError, LockError) as error:
        raise PluginError(f"enginekb: the records do not load:\n{error}") from None
    return config


def on_page_markdown(markdown, page, files, **kwargs):
    def link(target: str) -> str:
        """The href of docs file `target` from this page, in MkDocs' URL scheme."""
        if target == page.file.src_uri:
            return ""
        file = files.get_file_from_path(target)
        if file is None:
            raise RenderError(f"{page.file.src_uri}: links to {target}, which is not in the site")
        return get_relative_url(file.url, page.url)

    try:
        return render_page(markdown, page.file.src_uri, _state["catalog"], _state["lock"], link)
    except RenderError as error:
        raise PluginError(f"enginekb:\n{error}") from None
