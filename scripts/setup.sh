#!/usr/bin/env bash
# Install everything the site and the tests need, from the package registries only. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${ENGINEKB_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# pip repeats one warning per package for index locations this machine's pip configuration names but
# does not have; they say nothing about the project, so they are left out. Everything else is shown.
"$venv/bin/python" -m pip install -q --disable-pip-version-check -c constraints.txt -e '.[test]' 2>&1 \
  | { grep -v "^WARNING: Location '.*' is ignored: it is neither a file nor a directory\.$" || true; } >&2
# mermaid is served by the site itself, from the npm package pinned in package-lock.json.
[ -f node_modules/mermaid/dist/mermaid.min.js ] || npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
mkdir -p docs/assets/vendor/mermaid
cp node_modules/mermaid/dist/mermaid.min.js docs/assets/vendor/mermaid/mermaid.min.js
echo "setup: $venv ready; mermaid copied into docs/assets/vendor" >&2
