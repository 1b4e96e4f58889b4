#!/usr/bin/env bash
# Set up, build the site strictly, and serve it on http://127.0.0.1:8000 (ADDR overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/mkdocs serve --strict --dev-addr "${ADDR:-127.0.0.1:8000}"
