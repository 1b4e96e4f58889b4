#!/usr/bin/env bash
# Set up, build the site strictly, and serve it on http://127.0.0.1:8000 (ADDR=host:port overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
addr=${ADDR:-127.0.0.1:8000}
export NO_MKDOCS_2_WARNING=1  # MkDocs' notice about its next major version, not about this site
echo "Serving the site on http://$addr/ (rebuilds when docs/ or claims/ change; Ctrl-C stops)."
exec .venv/bin/mkdocs serve --strict --quiet --dev-addr "$addr"
