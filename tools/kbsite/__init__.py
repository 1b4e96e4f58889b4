"""Render claim lists and tables into Markdown pages. `render.py` is pure; `mkdocs_hook.py` wires it in."""
