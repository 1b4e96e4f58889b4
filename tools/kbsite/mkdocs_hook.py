"""MkDocs glue: load the records once per build, render each page's directives, move its claim lists
into the page's piece, note what its panels draw, write the pieces, the pages' evidence files and the
downloads and add one search entry per claim.

Kept to these few lines on purpose: moving to another generator means rewriting only this file.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from citecheck.lock import LOCK_NAME, LockError, read_lock
from enginekb.load import CLAIMS_DIR, SCHEMA_FILE, load_catalog
from enginekb.store import RecordStore
from enginekb.problems import CatalogError
from kbsite.evidence import evidence_dir, evidence_files, named_in, with_evidence_meta
from kbsite.inline import with_head_script, with_page_scripts
from kbsite.exports import Stamp, cited_names, claims_csv, claims_json, csv_stamp, search_entries
from kbsite.pieces import piece_path, split_waiting
from kbsite.render import RenderError, render_page
from kbsite.searchwords import CLAIMS_INDEX, split_claims, with_search_words
from kbsite.report import REPO_VARIABLE, issues_meta, with_issues_meta

_state: dict = {}

def on_config(config, **kwargs):
    root = Path(config["config_file_path"]).parent
    try:
        # Parsed afresh, never from the record store: the site and its downloads (claims.json, claims.csv)
        # are results written from the records, and a store entry filed under an unchanged file's hash
        # would decide them unchecked (citecheck checks the store where it writes the lock).
        _state["catalog"] = load_catalog(root, RecordStore(None))
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
    _state["topics"] = {}  # a page's URL -> the search keywords its front matter lists
    _state["evidence"] = {}  # site folder of a page's evidence -> the claims and rows its panels draw
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

    keywords = page.meta.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(word, str) for word in keywords):
        raise PluginError(f"enginekb: {page.file.src_uri}: keywords must be a list of words")
    _state["topics"][page.url] = [word.lower() for word in keywords]
    try:
        return render_page(markdown, page.file.src_uri, _state["catalog"], _state["lock"], link)
    except RenderError as error:
        raise PluginError(f"enginekb:\n{error}") from None


def on_post_page(output, page, config, **kwargs):
    target = evidence_dir(page.file.src_uri)
    if target in _state["evidence"]:
        output = with_evidence_meta(output, get_relative_url(target, page.url), _state["evidence"][target])
    output = with_page_scripts(with_head_script(output, "search-later.js"))  # the search index waits for the reader or for `load`
    return with_issues_meta(output, _state["issues_meta"])


def on_page_content(html, page, **kwargs):
    named = named_in(html)
    if named:
        _state["evidence"][evidence_dir(page.file.src_uri)] = named
    html, pieces = split_waiting(html, lambda number: get_relative_url(piece_path(page.file.src_uri, number), page.url),
                                 keep=named.first_cites)
    for number, piece in enumerate(pieces):
        _state["pieces"][piece_path(page.file.src_uri, number)] = piece
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
    for folder, named in _state["evidence"].items():
        (site / folder).mkdir(parents=True, exist_ok=True)
        for name, content in evidence_files(data, named).items():
            (site / folder / name).write_text(json.dumps(content, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    (site / "downloads" / "claims.csv").write_text(claims_csv(data), encoding="utf-8")
    (site / "downloads" / "claims.csv.stamp").write_text(csv_stamp(data), encoding="utf-8")
    shutil.copy(_state["root"] / CLAIMS_DIR / SCHEMA_FILE, site / "downloads" / "claim.schema.json")
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    index["docs"].extend(search_entries(catalog, _url))
    cited = cited_names(catalog, _url)
    with_search_words(index, {url: words for url, words in _state["topics"].items() if words}, cited)
    # Compact like claims.json: every page fetches the index, and its budget is tight (tests/test_site.py).
    for path, part in zip((index_path, index_path.with_name(CLAIMS_INDEX)), split_claims(index, cited)):
        path.write_text(json.dumps(part, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
