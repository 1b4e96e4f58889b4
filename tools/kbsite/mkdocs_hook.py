"""MkDocs glue: load the records once per build, render each page's directives, move its claim lists
into the page's piece, write the pieces and the downloads and add one search entry per claim.

Kept to these few lines on purpose: moving to another generator means rewriting only this file.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from citecheck.lock import LOCK_NAME, LockError, read_lock
from enginekb.load import CLAIMS_DIR, SCHEMA_FILE, load_catalog
from enginekb.problems import CatalogError
from kbsite.exports import Stamp, claims_csv, claims_json, csv_stamp, search_entries
from kbsite.pieces import piece_path, split_waiting
from kbsite.render import RenderError, render_page
from kbsite.report import REPO_VARIABLE, issues_meta, with_issues_meta

_state: dict = {}

# The diagram plugin reports every page it touches at INFO; a build shows only what needs attention.
logging.getLogger("mkdocs.plugins.mermaid2.util").setLevel(logging.WARNING)


def on_config(config, **kwargs):
    root = Path(config["config_file_path"]).parent
    try:
        _state["catalog"] = load_catalog(root)
        _state["lock"] = read_lock(root / CLAIMS_DIR / LOCK_NAME)
    except (CatalogError, LockError) as error:
        raise PluginError(f"enginekb: the records do not load:\n{error}") from None
    try:  # the stamp only: a git that fails or hangs leaves it unknown
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                                text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    _state["stamp"] = Stamp(commit or "unknown", datetime.date.today().isoformat())
    _state["root"] = root
    try:
        _state["issues_meta"] = issues_meta(os.environ.get(REPO_VARIABLE, "").strip())
    except RenderError as error:
        raise PluginError(f"enginekb: {REPO_VARIABLE}: {error}") from None
    _state["pieces"] = {}  # site path of a page's piece -> its claim lists' HTML
    config["copyright"] = _state["stamp"].sentence()  # Material shows it in every page's footer
    return config


def on_files(files, **kwargs):
    _state["files"] = files
    return files


def _url(target: str) -> str:
    """The site URL of a docs page, or of a generated file (the downloads)."""
    file = _state["files"].get_file_from_path(target)
    if file is not None:
        return file.url
    if target.endswith(".md"):
        raise RenderError(f"links to {target}, which is not in the site")
    return target


def on_page_markdown(markdown, page, files, **kwargs):
    def link(target: str) -> str:
        """The href of docs file `target` from this page, in MkDocs' URL scheme."""
        return "" if target == page.file.src_uri else get_relative_url(_url(target), page.url)

    try:
        return render_page(markdown, page.file.src_uri, _state["catalog"], _state["lock"], link)
    except RenderError as error:
        raise PluginError(f"enginekb:\n{error}") from None


def on_post_page(output, page, config, **kwargs):
    return with_issues_meta(output, _state["issues_meta"])


def on_page_content(html, page, **kwargs):
    target = piece_path(page.file.src_uri)
    html, pieces = split_waiting(html, get_relative_url(target, page.url))
    if pieces:
        _state["pieces"][target] = pieces
    return html


def on_post_build(config, **kwargs):
    site = Path(config["site_dir"])
    for target, pieces in _state["pieces"].items():
        (site / target).parent.mkdir(parents=True, exist_ok=True)
        (site / target).write_text(json.dumps(pieces, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    catalog, lock = _state["catalog"], _state["lock"]
    data = claims_json(catalog, lock, _state["stamp"], _url)
    (site / "downloads").mkdir(exist_ok=True)
    # Compact: the explorer and the verdict cells' evidence read this file in the browser.
    (site / "downloads" / "claims.json").write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                                    encoding="utf-8")
    (site / "downloads" / "claims.csv").write_text(claims_csv(data), encoding="utf-8")
    (site / "downloads" / "claims.csv.stamp").write_text(csv_stamp(data), encoding="utf-8")
    shutil.copy(_state["root"] / CLAIMS_DIR / SCHEMA_FILE, site / "downloads" / "claim.schema.json")
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    index["docs"].extend(search_entries(catalog, _url))
    # Compact like claims.json: every page fetches the index, and its budget is tight (tests/test_site.py).
    index_path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
