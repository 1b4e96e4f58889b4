"""citecheck: confirm that every cited symbol exists at its engine's pinned upstream commit."""
