"""Build the project's real site into a temporary directory (shared by the build and browser tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from upstream import PROJECT


def build_site(config: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(out)],
        capture_output=True, text=True, cwd=config.parent, env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
    )


def project_config() -> Path:
    return PROJECT / "mkdocs.yml"
