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
# From the npm registry (package-lock.json): mermaid, which the site serves itself (its ES module and
# the chunks it imports on demand, so a page loads only the diagram types it draws), and axe-core,
# which the browser test injects into every page.
[ -f node_modules/mermaid/dist/mermaid.esm.min.mjs ] && [ -f node_modules/axe-core/axe.min.js ] \
  || npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
rm -rf docs/assets/vendor/mermaid
mkdir -p docs/assets/vendor/mermaid/chunks/mermaid.esm.min
cp node_modules/mermaid/dist/mermaid.esm.min.mjs docs/assets/vendor/mermaid/
cp node_modules/mermaid/dist/chunks/mermaid.esm.min/*.mjs docs/assets/vendor/mermaid/chunks/mermaid.esm.min/
echo "setup: $venv ready; mermaid copied into docs/assets/vendor, axe-core in node_modules" >&2
