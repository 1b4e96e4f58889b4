#!/usr/bin/env bash
# Set up, then run every check CI runs: the records, citecheck against the lock, and the test suite
# (which includes a strict site build and a browser test in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! command -v chromium >/dev/null; then  # Debian's Chromium drives the browser test
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/claims lint
.venv/bin/citecheck --offline
export NO_MKDOCS_2_WARNING=1  # the site build is quiet about MkDocs 2
.venv/bin/python -m pytest "$@"
