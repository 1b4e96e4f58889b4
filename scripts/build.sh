#!/usr/bin/env bash
# Set up, then build the static site strictly into a folder (default ./site) that any web server can serve.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out=$(realpath -m "${1:-site}")
export NO_MKDOCS_2_WARNING=1  # the theme's notice about its own future, not about this site
.venv/bin/mkdocs build --strict --quiet --site-dir "$out"
echo "The site is in $out/ (open index.html through a web server, e.g. python3 -m http.server -d $out)."
