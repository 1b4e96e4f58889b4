"""Build the project's real site into a temporary directory (shared by the build and browser tests)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

from upstream import PROJECT


def build_site(config: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(out)],
        capture_output=True, text=True, cwd=config.parent, env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
    )


def project_config() -> Path:
    return PROJECT / "mkdocs.yml"


def built_project_site(tmp_path_factory) -> Path:
    """The project's own site, built strictly into a fresh temporary folder (a module fixture's body)."""
    out = tmp_path_factory.mktemp("site")
    done = build_site(project_config(), out)
    assert done.returncode == 0, done.stderr
    return out


def site_for(root: Path, pages: dict[str, str]) -> Path:
    """Docs `pages` (path under docs/ -> Markdown) beside the claims of project `root`, with the
    project's own mkdocs.yml (its Markdown extensions and theme), hook and assets; the config's path."""
    for page, text in pages.items():
        target = root / "docs" / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    shutil.copytree(PROJECT / "docs" / "assets", root / "docs" / "assets")
    config = project_config().read_text()
    config = config.replace("tools/kbsite/mkdocs_hook.py", str(PROJECT / "tools" / "kbsite" / "mkdocs_hook.py"))
    config = re.sub(r"\nnav:\n(?:  .*\n?)*", "\nnav:\n" + "".join(f"  - {page}\n" for page in pages), config)
    (root / "mkdocs.yml").write_text(config)
    return root / "mkdocs.yml"


@contextlib.contextmanager
def served(directory: Path) -> Iterator[str]:
    """A built site served quietly on a free loopback port for the browser tests; yields its base URL
    (without a trailing slash) and stops the server afterwards."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
